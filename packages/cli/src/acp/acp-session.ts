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
import type { AgentEvent, AgentRunResult } from '@toolhost/core/internal/agent/agent-events.js';
import type { AgentSession } from '@toolhost/core/internal/agent/agent-session.js';
import type { ApprovalMode } from '@toolhost/core/internal/config/settings-types.js';
import type { PromptContent } from '@toolhost/core/internal/conversation/prompt-content.js';
import type { Part } from '@toolhost/core/internal/core/content.js';
import { HOW_TO_CONFIGURE_MODEL } from '@toolhost/core/internal/models/endpoint.js';
import type { AgentFlags } from '../agent/agent-flags.js';
import { type AgentStart, withAgentStart } from '../agent/agent-start.js';
import { withAttachments } from '../agent/headless.js';
import { type SaveTargets, saveTargets } from '../approval-choices.js';
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
  private readonly agent: AgentSession;
  private readonly tracker: ToolCallTracker;
  private running: AbortController | undefined;
  private updates: Promise<void> = Promise.resolve();
  private lastFinishReason: string | undefined;
  private readonly stopFollowingMode: () => void;
  /** Where "always" answers may save their rules. */
  private readonly saving: SaveTargets;

  constructor(
    private readonly start: AgentStart,
    private readonly client: AgentContext,
    editor: ClientCapabilities | undefined,
    private readonly warn: (line: string) => void,
    private readonly end: () => void,
    /** Settles once the toolhost session has closed (servers and commands ended). */
    private readonly closed: () => Promise<unknown>,
  ) {
    this.id = start.session.config.sessionId;
    this.saving = saveTargets(start.session.config);
    this.tracker = new ToolCallTracker(start.session.registry);
    if (editor?.fs?.readTextFile) readUnsavedBuffers(start.session.registry, client, this.id);
    if (editor?.fs?.writeTextFile)
      showWritesInEditor(start.session.registry, client, this.id, warn);
    this.agent = start.createAgent({
      onEvent: (event) => this.onEvent(event),
      onConfirmationRequest: async (call) => {
        await this.updates;
        const signal = this.running?.signal ?? AbortSignal.abort();
        return requestPermission(this.client, this.id, call, signal, editor, warn, this.saving);
      },
      onWarning: (message) => warn(`warning: ${message}`),
    });
    // exit_plan_mode changes the mode too: the editor's mode menu follows.
    this.stopFollowingMode = start.session.config.onApprovalModeChange((mode) =>
      this.send({ sessionUpdate: 'current_mode_update', currentModeId: mode }),
    );
  }

  get approvalMode(): ApprovalMode {
    return this.start.session.config.getApprovalMode();
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.start.session.config.setApprovalMode(mode);
  }

  /** Sends the loaded conversation to the editor, before the load is answered. */
  async replayHistory(): Promise<void> {
    for (const update of replayUpdates(
      this.start.resumed?.history ?? [],
      this.start.session.registry,
    ))
      this.send(update);
    await this.updates;
  }

  async prompt(
    blocks: readonly ContentBlock[],
    requestSignal: AbortSignal,
  ): Promise<PromptResponse> {
    if (this.running) {
      throw RequestError.invalidRequest(
        undefined,
        'a prompt is already running in this session; wait for its answer or cancel it first',
      );
    }
    const controller = new AbortController();
    this.running = controller;
    const cancel = () => controller.abort(new Error('cancelled by the editor'));
    requestSignal.addEventListener('abort', cancel, { once: true });
    this.lastFinishReason = undefined;
    try {
      const { text, sections, media } = promptFromBlocks(
        blocks,
        this.start.session.config.targetDir,
      );
      const attached = await withAttachments(text, this.start.session, controller.signal, (line) =>
        this.send({
          sessionUpdate: 'agent_thought_chunk',
          content: { type: 'text', text: `${line}\n` },
        }),
      );
      const result = await this.agent.loop.run(
        withExtras(attached, sections, media),
        controller.signal,
      );
      this.start.recorder.recordEnd(result.status);
      const stopReason = this.stopReason(result);
      // Every update before the answer, a failure's too.
      await this.updates;
      if (!stopReason) throw new RequestError(-32603, result.message ?? 'The run failed.');
      return { stopReason };
    } finally {
      requestSignal.removeEventListener('abort', cancel);
      this.running = undefined;
    }
  }

  /** `session/cancel`: the running prompt stops (its commands' process groups end). */
  cancel(): void {
    this.running?.abort(new Error('cancelled by the editor'));
  }

  /** Ends the toolhost session: MCP servers closed, background commands ended. */
  async close(): Promise<void> {
    this.cancel();
    this.stopFollowingMode();
    this.agent.close();
    this.end();
    await this.closed().catch(() => undefined);
  }

  /** Undefined when the run failed (the prompt is answered with an error). */
  private stopReason(result: AgentRunResult): StopReason | undefined {
    switch (result.status) {
      case 'success':
        if (this.lastFinishReason === 'length') return 'max_tokens';
        if (this.lastFinishReason === 'content_filter') return 'refusal';
        return 'end_turn';
      case 'cancelled':
        return 'cancelled';
      case 'error':
        return undefined;
      default:
        // A limit or a loop stopped the run: the person reads why, below the answer.
        this.send({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: `\n\n${result.message ?? 'The run stopped.'}` },
        });
        return LIMIT_REASONS.has(result.status) ? 'max_turn_requests' : 'end_turn';
    }
  }

  private onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'text':
        this.send({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: event.text },
        });
        break;
      case 'thinking':
        this.send({
          sessionUpdate: 'agent_thought_chunk',
          content: { type: 'text', text: event.text },
        });
        break;
      case 'retry':
        this.send({
          sessionUpdate: 'agent_thought_chunk',
          content: {
            type: 'text',
            text: `\n(The model request failed: ${event.reason}; trying again.)\n`,
          },
        });
        break;
      case 'notice':
        this.send({
          sessionUpdate: 'agent_thought_chunk',
          content: { type: 'text', text: `\n${event.message}\n` },
        });
        break;
      case 'assistant':
        this.lastFinishReason = event.finishReason;
        break;
      case 'tool_calls':
        for (const update of this.tracker.callsChanged(event.calls)) this.send(update);
        break;
      case 'tool_output': {
        const update = this.tracker.output(event.callId, event.output);
        if (update) this.send(update);
        break;
      }
      default:
        break;
    }
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

/** The prompt with the embedded resources' text below it and the media after. */
function withExtras(content: PromptContent, sections: string[], media: Part[]): PromptContent {
  const extra = sections.join('\n\n');
  if (typeof content === 'string' && media.length === 0)
    return extra ? [content, extra].filter(Boolean).join('\n\n') : content;
  const parts: Part[] =
    typeof content === 'string' ? (content ? [{ text: content }] : []) : [...content];
  if (extra) parts.push({ text: extra });
  return [...parts, ...media];
}

/**
 * Opens a toolhost session for `session/new` or `session/load`; it stays open until
 * `close()`. No model configured: authentication is required (the message says how).
 */
export function openAcpSession(
  flags: AgentFlags,
  request: AcpSessionRequest,
  client: AgentContext,
  warn: (line: string) => void,
): Promise<AcpSession> {
  return new Promise((resolve, reject) => {
    let opened = false;
    let closed: Promise<unknown> = Promise.resolve();
    const sessionFlags: AgentFlags = {
      ...flags,
      root: request.cwd,
      includeDirectories: [
        ...(flags.includeDirectories ?? []),
        ...(request.additionalDirectories ?? []),
      ],
      continue: false,
      // Each editor session gets its own id; a --session-id given to --acp names none.
      sessionId: undefined,
      ...(request.loadId !== undefined ? { resume: request.loadId } : { resume: undefined }),
    };
    closed = withAgentStart(
      sessionFlags,
      warn,
      (start) =>
        new Promise<void>((ended) => {
          opened = true;
          resolve(new AcpSession(start, client, request.editor, warn, ended, () => closed));
        }),
      () => reject(RequestError.authRequired(undefined, HOW_TO_CONFIGURE_MODEL)),
      false,
      { mcpServers: mcpServerSettings(request.mcpServers) },
    );
    closed.catch((error: unknown) => {
      if (opened) {
        warn(
          `the session did not close cleanly: ${error instanceof Error ? error.message : String(error)}`,
        );
        return;
      }
      reject(
        error instanceof UsageError ? RequestError.invalidParams(undefined, error.message) : error,
      );
    });
  });
}
