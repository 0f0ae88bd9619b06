/**
 * Opens a conversation from the library's own options: trust offered first (when asked
 * for), then the workspace's tools (settings, workspace, registry), the model endpoint, the saved
 * session it continues and its recorder, and the agent with its limits and prompts.
 */
import { createAgent } from '../agent/create-agent.js';
import { SessionRecorder, sessionFile } from '../agent/sessions/session-file.js';
import { HOW_TO_CONFIGURE_MODEL } from '../endpoints/endpoints.js';
import { configuredModels } from '../endpoints/model-catalog.js';
import { Conversation } from './conversation.js';
import type { Answer, ConversationOptions } from './conversation-types.js';
import { schemaInstructions } from './structured-output.js';
import { recordTrustAnswer, trustOfferFor } from './trust-offer.js';
import { openWorkspaceTools } from './workspace-tools.js';

/** No model is configured: the message says how to configure one. */
export class NoModelConfigured extends Error {
  constructor(
    /** The settings problems found while opening. */
    readonly warnings: string[],
  ) {
    super(HOW_TO_CONFIGURE_MODEL);
    this.name = 'NoModelConfigured';
  }
}

/** The opening was cancelled (the person quit at the trust question). */
export class OpeningCancelled extends Error {
  constructor() {
    super('The conversation was not opened.');
    this.name = 'OpeningCancelled';
  }
}

/** A conversation being opened: its questions (trust) are answered here. */
export interface Opening extends Promise<Conversation> {
  answer(questionId: string, answer: Answer): boolean;
  cancel(): void;
}

/**
 * Opens a conversation. Settings problems arrive as `warning` events (through
 * `options.onEvent`, before this resolves); without a model it rejects with
 * NoModelConfigured, and with a workspace that cannot be used with WorkspaceError.
 */
export function openConversation(options: ConversationOptions = {}): Opening {
  let answerTrust: ((answer: Answer | undefined) => void) | undefined;
  const opening = open(options, (resolve) => {
    answerTrust = resolve;
  }) as Opening;
  opening.answer = (questionId, answer) => {
    if (questionId !== TRUST_QUESTION || !answerTrust) return false;
    const resolve = answerTrust;
    answerTrust = undefined;
    options.onEvent?.({ type: 'question_closed', id: questionId });
    resolve(answer);
    return true;
  };
  opening.cancel = () => {
    const resolve = answerTrust;
    answerTrust = undefined;
    resolve?.(undefined);
  };
  return opening;
}

const TRUST_QUESTION = 'trust';

async function open(
  options: ConversationOptions,
  waitForTrust: (resolve: (answer: Answer | undefined) => void) => void,
): Promise<Conversation> {
  // After openConversation has returned: a question may be answered as soon as it is asked.
  await Promise.resolve();
  const emit = options.onEvent ?? (() => undefined);
  const home = {
    ...(options.homeDir ? { homeDir: options.homeDir } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.systemSettingsPath ? { systemSettingsPath: options.systemSettingsPath } : {}),
  };
  const root = options.workspace?.root;
  // Before the settings load, so that a yes loads the project's settings in full.
  const offer = options.offerTrust ? trustOfferFor(root, home) : undefined;
  if (offer) {
    const answer = await new Promise<Answer | undefined>((resolve) => {
      waitForTrust(resolve);
      emit({ type: 'question', id: TRUST_QUESTION, question: { kind: 'trust', offer } });
    });
    if (!answer || !('trust' in answer)) throw new OpeningCancelled();
    await recordTrustAnswer(offer, answer.trust, options.homeDir);
  }
  const resumed = options.resume;
  const tools = await openWorkspaceTools({
    root,
    includeDirectories: options.workspace?.includeDirectories ?? [],
    ...(options.approvalMode ? { approvalMode: options.approvalMode } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(resumed
      ? { sessionId: resumed.id }
      : options.sessionId
        ? { sessionId: options.sessionId }
        : {}),
    ...home,
    urlElicitation: Boolean(options.pageVisits),
  });
  const { config, registry } = tools;
  try {
    for (const message of tools.warnings) emit({ type: 'warning', message });
    let endpoint = options.endpoint;
    if (!endpoint) {
      const catalog = configuredModels(config.settings, config.untrustedEndpoints);
      for (const message of catalog.warnings) emit({ type: 'warning', message });
      endpoint = catalog.active?.endpoint;
    }
    if (!endpoint) throw new NoModelConfigured(tools.warnings);
    const recorder =
      options.record === false
        ? undefined
        : new SessionRecorder(
            sessionFile(config.userDir, config.targetDir, config.sessionId),
            { sessionId: config.sessionId, cwd: config.targetDir, model: endpoint.model },
            Boolean(resumed),
          );
    // The file ends in an exchange that never finished (the endpoint was down, the process
    // was killed): start again from the last complete one, in the file too.
    if (recorder && resumed && resumed.droppedMessages > 0)
      recorder.recordHistoryReplaced(resumed.history);
    const schema = options.outputSchema;
    const append = [options.appendSystemPrompt, schema ? schemaInstructions(schema) : undefined]
      .filter((text): text is string => Boolean(text))
      .join('\n\n');
    const chosen = endpoint;
    let agents: { end(reason: 'prompt_input_exit' | 'other'): Promise<void> }[] = [];
    return new Conversation(
      {
        config,
        registry,
        endpoint: chosen,
        recorder,
        resumed,
        createAgent: (hooks) => {
          const agent = createAgent({
            config,
            registry,
            endpoint: chosen,
            ...(options.limits ? { limits: options.limits } : {}),
            ...(options.maxSubagentDepth !== undefined
              ? { maxSubagentDepth: options.maxSubagentDepth }
              : {}),
            ...(recorder ? { recorder } : {}),
            ...(resumed ? { history: resumed.history } : {}),
            ...hooks,
            ...(options.editProposal ? { editProposal: options.editProposal } : {}),
            ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
            ...(append ? { appendSystemPrompt: append } : {}),
          });
          agents = [...agents, agent];
          return agent;
        },
        shutDown: async (reason) => {
          // SessionEnd hooks, before MCP servers and background commands are ended.
          await Promise.all(agents.map((agent) => agent.end(reason)));
          await tools.close();
        },
      },
      options,
    );
  } catch (error) {
    await tools.close();
    throw error;
  }
}
