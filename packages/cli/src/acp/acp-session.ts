/**
 * One ACP session: a toolhost session (settings, tools, MCP servers, recorder) opened in
 * the editor's folder, its agent, and the prompt running in it. The agent's events go out
 * as `session/update`s in the order they happened, all of them before the prompt's answer.
 */
import {
  type AgentContext,
  type ClientCapabilities,
  type ContentBlock,
  type McpServer,
  type PromptResponse,
  RequestError,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import type { ApprovalMode } from '@toolhost/core/config';
import type {
  AgentRunResult,
  Conversation,
  ConversationEvent,
  TurnOutcome,
} from '@toolhost/core/conversation';
import { HOW_TO_CONFIGURE_MODEL } from '@toolhost/core/conversation';
import { type SaveTargets, saveTargets } from '../approval-choices.js';
import type { AgentFlags } from '../conversation/agent-flags.js';
import { agentOptionsFrom, openFor } from '../conversation/conversation-options.js';
import { extraDirectoriesFrom } from '../conversation/qwen-flags.js';
import { realRoot, sessionById } from '../conversation/resume.js';
import { UsageError } from '../errors.js';
import { readUnsavedBuffers } from './editor-buffers.js';
import { showWritesInEditor } from './editor-writes.js';
import { replayUpdates } from './history-replay.js';
import { mcpServerSettings } from './mcp-servers.js';
import { requestPermission } from './permission.js';
import { promptFromBlocks } from './prompt-blocks.js';
import { ToolCallTracker } from './tool-calls.js';

export interface AcpSessionRequest {
  /** What the editor said it offers at `initialize`. */
  editor: ClientCapabilities | undefined;
  cwd: string;
  additionalDirectories?: string[] | undefined;
  mcpServers: McpServer[];
  /** The saved session to continue (`session/load`). */
  loadId?: string;
}

const LIMIT_REASONS = new Set(['max_turns', 'max_tool_calls', 'max_wall_time']);

export class AcpSession {
  readonly id: string;
  private readonly tracker: ToolCallTracker;
  private prompting = false;
  private updates: Promise<void> = Promise.resolve();
  private readonly stopFollowingMode: () => void;
  /** Where "always" answers may save their rules. */
  private readonly saving: SaveTargets;
  /** The editor's open permission requests, by the conversation's question id. */
  private readonly asked = new Map<string, AbortController>();

  constructor(
    private readonly conversation: Conversation,
    private readonly client: AgentContext,
    private readonly editor: ClientCapabilities | undefined,
    private readonly warn: (line: string) => void,
  ) {
    this.id = conversation.id;
    this.saving = saveTargets(conversation.config);
    this.tracker = new ToolCallTracker(conversation.registry);
    if (editor?.fs?.readTextFile) readUnsavedBuffers(conversation.registry, client, this.id);
    if (editor?.fs?.writeTextFile) showWritesInEditor(conversation.registry, client, this.id, warn);
    conversation.subscribe((event) => this.onEvent(event));
    // exit_plan_mode changes the mode too: the editor's mode menu follows.
    this.stopFollowingMode = conversation.config.onApprovalModeChange((mode) =>
      this.send({ sessionUpdate: 'current_mode_update', currentModeId: mode }),
    );
  }

  get approvalMode(): ApprovalMode {
    return this.conversation.config.getApprovalMode();
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.conversation.config.setApprovalMode(mode);
  }

  /** Sends the loaded conversation to the editor, before the load is answered. */
  async replayHistory(): Promise<void> {
    for (const update of replayUpdates(
      this.conversation.resumed?.history ?? [],
      this.conversation.registry,
    ))
      this.send(update);
    await this.updates;
  }

  async prompt(
    blocks: readonly ContentBlock[],
    requestSignal: AbortSignal,
  ): Promise<PromptResponse> {
    if (this.prompting) {
      throw RequestError.invalidRequest(
        undefined,
        'a prompt is already running in this session; wait for its answer or cancel it first',
      );
    }
    this.prompting = true;
    const cancel = () => this.cancel();
    requestSignal.addEventListener('abort', cancel, { once: true });
    try {
      const { text, sections, media } = promptFromBlocks(
        blocks,
        this.conversation.config.targetDir,
      );
      const outcome = await this.conversation.send(text, {
        extraText: sections,
        attachments: media,
      });
      const stopReason = this.stopReason(outcome);
      // Every update before the answer, a failure's too.
      await this.updates;
      if (!stopReason) throw new RequestError(-32603, outcome.result.message ?? 'The run failed.');
      return { stopReason };
    } finally {
      requestSignal.removeEventListener('abort', cancel);
      this.prompting = false;
    }
  }

  /** `session/cancel`: the running prompt stops (its commands' process groups end). */
  cancel(): void {
    this.conversation.cancel('cancelled by the editor');
  }

  /** Ends the toolhost session: MCP servers closed, background commands ended. */
  async close(): Promise<void> {
    this.stopFollowingMode();
    await this.conversation
      .close()
      .catch((error: unknown) =>
        this.warn(
          `the session did not close cleanly: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }

  /** Undefined when the run failed (the prompt is answered with an error). */
  private stopReason(outcome: TurnOutcome): StopReason | undefined {
    const result: AgentRunResult = outcome.result;
    switch (result.status) {
      case 'success':
        if (outcome.finishReason === 'length') return 'max_tokens';
        if (outcome.finishReason === 'content_filter') return 'refusal';
        return 'end_turn';
      case 'cancelled':
        return 'cancelled';
      case 'error':
        return undefined;
      case 'refusal':
      case 'safety':
        // The provider stopped the answer: ACP's own stop reason, with the provider's words.
        this.send({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: `\n\n${result.message ?? 'The model refused.'}` },
        });
        return 'refusal';
      default:
        // A limit or a loop stopped the run: the person reads why, below the answer.
        this.send({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: `\n\n${result.message ?? 'The run stopped.'}` },
        });
        return LIMIT_REASONS.has(result.status) ? 'max_turn_requests' : 'end_turn';
    }
  }

  private onEvent(event: ConversationEvent): void {
    switch (event.type) {
      case 'text':
        this.send({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: event.text },
        });
        break;
      case 'thinking':
        this.thought(event.text);
        break;
      case 'retry':
        this.thought(`\n(The model request failed: ${event.reason}; trying again.)\n`);
        break;
      case 'notice':
        this.thought(`\n${event.message}\n`);
        break;
      case 'warning':
        // During a prompt (a file its @ reference names left out) the person reads it there.
        if (this.prompting) this.thought(`${event.message}\n`);
        else this.warn(`warning: ${event.message}`);
        break;
      case 'tool_calls':
        for (const update of this.tracker.callsChanged(event.calls)) this.send(update);
        break;
      case 'tool_output': {
        const update = this.tracker.output(event.callId, event.output);
        if (update) this.send(update);
        break;
      }
      case 'question':
        if (event.question.kind !== 'trust') void this.ask(event.id, event.question.call);
        break;
      case 'question_closed':
        this.asked.get(event.id)?.abort();
        this.asked.delete(event.id);
        break;
      default:
        break;
    }
  }

  /** The editor's permission request for a question of the conversation. */
  private async ask(id: string, call: Parameters<typeof requestPermission>[2]): Promise<void> {
    const closed = new AbortController();
    this.asked.set(id, closed);
    await this.updates;
    const decision = await requestPermission(
      this.client,
      this.id,
      call,
      closed.signal,
      this.editor,
      this.warn,
      this.saving,
    );
    this.asked.delete(id);
    this.conversation.answer(id, decision);
  }

  private thought(text: string): void {
    this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } });
  }

  /** Queued behind the updates before it, so the editor gets them in order. */
  private send(update: SessionUpdate): void {
    this.updates = this.updates
      .then(() => this.client.notify('session/update', { sessionId: this.id, update }))
      .catch((error: unknown) =>
        this.warn(
          `could not send an update to the editor: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }
}

/**
 * Opens a toolhost session for `session/new` or `session/load`, in the editor's folder with
 * its MCP servers; it stays open until `close()`. No model configured: authentication is
 * required (the message says how).
 */
export async function openAcpSession(
  flags: AgentFlags,
  request: AcpSessionRequest,
  client: AgentContext,
  warn: (line: string) => void,
): Promise<AcpSession> {
  try {
    const agent = agentOptionsFrom(flags);
    const resume =
      request.loadId !== undefined ? sessionById(realRoot(request.cwd), request.loadId) : undefined;
    const conversation = await openFor({
      ...agent,
      workspace: {
        root: request.cwd,
        includeDirectories: [
          ...(extraDirectoriesFrom(flags) ?? []),
          ...(request.additionalDirectories ?? []),
        ],
      },
      // The editor's MCP servers: the same layer as the flags' settings (--mcp-config's
      // servers still win by name).
      settings: {
        ...agent.settings,
        mcpServers: { ...mcpServerSettings(request.mcpServers), ...agent.settings?.mcpServers },
      },
      ...(resume ? { resume: resume.session } : {}),
      answersQuestions: true,
      onEvent: (event) => {
        if (event.type === 'warning') warn(`warning: ${event.message}`);
      },
    });
    if (!conversation) throw RequestError.authRequired(undefined, HOW_TO_CONFIGURE_MODEL);
    return new AcpSession(conversation, client, request.editor, warn);
  } catch (error) {
    throw error instanceof UsageError
      ? RequestError.invalidParams(undefined, error.message)
      : error;
  }
}
