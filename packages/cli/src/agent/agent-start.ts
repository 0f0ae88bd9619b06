/**
 * What every front end that runs the agent does first (headless and the interactive app):
 * open the session from the flags, find the model endpoint, pick the session to resume
 * and its recorder, and put the agent together with the flags' limits and prompts. The
 * front end adds only its own hooks (events, approvals, the editor).
 */
import {
  type AgentSession,
  type AgentSessionOptions,
  createAgentSession,
} from '@toolhost/core/internal/agent/agent-session.js';
import {
  SessionRecorder,
  sessionFile,
} from '@toolhost/core/internal/agent/sessions/session-file.js';
import type { LoadedSession } from '@toolhost/core/internal/agent/sessions/session-loader.js';
import type { Settings } from '@toolhost/core/internal/config/settings-types.js';
import type { ModelEndpoint } from '@toolhost/core/internal/models/endpoint.js';
import { configuredModels } from '@toolhost/core/internal/models/model-catalog.js';
import { closeSession, openSession, type Session } from '../session.js';
import {
  type AgentFlags,
  approvalModeFrom,
  limitsFrom,
  settingsFrom,
  subagentDepthFrom,
} from './agent-flags.js';
import { extraDirectoriesFrom } from './qwen-flags.js';
import { newSessionId, sessionToResume } from './resume.js';

/** What a front end adds to the agent: the hooks through which it shows and asks. */
export type FrontEndHooks = Pick<
  AgentSessionOptions,
  'onEvent' | 'onConfirmationRequest' | 'editProposal' | 'onWarning'
>;

export interface AgentStart {
  session: Session;
  endpoint: ModelEndpoint;
  recorder: SessionRecorder;
  /** The session continued (`-c`, `-r`), if any. */
  resumed: LoadedSession | undefined;
  /** Says what of the earlier sessions was kept, when not all of it was. */
  cutOffNote: string | undefined;
  /** Prompts the person typed that never got an answer (given back, not lost). */
  unanswered: string[];
  createAgent(hooks: FrontEndHooks): AgentSession;
}

/**
 * Opens the session the flags describe and runs `work` with it, closing it after. With no
 * model configured, `noModel` runs instead (the session's warnings are passed to it).
 */
export async function withAgentStart<T>(
  flags: AgentFlags,
  warn: (line: string) => void,
  work: (start: AgentStart) => Promise<T>,
  noModel: () => T | Promise<T>,
  /** True for a front end where a person answers questions (the interactive terminal). */
  personAnswers = false,
  /** Settings the front end adds to the flags' (an editor's MCP servers), the same layer. */
  frontEndSettings: Settings = {},
): Promise<T> {
  // Read before the session opens: a usage error in them must not leave a session behind.
  const limits = limitsFrom(flags);
  const maxSubagentDepth = subagentDepthFrom(flags);
  const approvalMode = approvalModeFrom(flags);
  const toResume = sessionToResume(flags);
  const resumed = toResume?.session;
  const namedId = newSessionId(flags);
  const session = await openSession(
    {
      root: flags.root,
      includeDirectories: extraDirectoriesFrom(flags),
      approvalMode,
      overrides: { ...settingsFrom(flags), ...frontEndSettings },
      ...(flags.mcpConfig ? { mcpConfig: flags.mcpConfig } : {}),
      ...(resumed ? { sessionId: resumed.id } : namedId ? { sessionId: namedId } : {}),
      urlElicitation: personAnswers,
    },
    warn,
  );
  try {
    const catalog = configuredModels(session.config.settings, session.config.untrustedEndpoints);
    for (const line of catalog.warnings) warn(line);
    const endpoint = catalog.active?.endpoint;
    if (!endpoint) return await noModel();
    const { config, registry } = session;
    const recorder = new SessionRecorder(
      sessionFile(config.userDir, config.targetDir, config.sessionId),
      { sessionId: config.sessionId, cwd: config.targetDir, model: endpoint.model },
      Boolean(resumed),
    );
    const agents: AgentSession[] = [];
    // The file ends in an exchange that never finished (the endpoint was down, the process
    // was killed): start again from the last complete one, in the file too.
    if (resumed && resumed.droppedMessages > 0) recorder.recordHistoryReplaced(resumed.history);
    try {
      return await work({
        session,
        endpoint,
        recorder,
        resumed,
        cutOffNote: toResume?.note,
        unanswered: toResume?.unanswered ?? [],
        createAgent: (hooks) => {
          const agent = createAgentSession({
            config,
            registry,
            endpoint,
            limits,
            ...(maxSubagentDepth !== undefined ? { maxSubagentDepth } : {}),
            recorder,
            ...(resumed ? { history: resumed.history } : {}),
            ...hooks,
            ...(flags.systemPrompt !== undefined ? { systemPrompt: flags.systemPrompt } : {}),
            ...(flags.appendSystemPrompt !== undefined
              ? { appendSystemPrompt: flags.appendSystemPrompt }
              : {}),
          });
          agents.push(agent);
          return agent;
        },
      });
    } finally {
      // SessionEnd hooks, before MCP servers and background commands are ended.
      const reason = personAnswers ? 'prompt_input_exit' : 'other';
      await Promise.all(agents.map((agent) => agent.end(reason)));
    }
  } finally {
    await closeSession(session);
  }
}
