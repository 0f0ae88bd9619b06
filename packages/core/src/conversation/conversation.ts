/**
 * The conversation core: the one place a prompt turn runs, whatever front end drives it
 * (headless `-p`, stream-json, ACP, the terminal, or a library user). A conversation is
 * opened from the library's own options (workspace, settings, endpoint, resume, recording;
 * see open-conversation.ts), then driven by four commands, `send`, `cancel`, `answer` and
 * `close`, and it tells everything through one typed stream of events (conversation-types.ts),
 * questions included. It owns the turn queue, `@` references and the prompt's content, the
 * output schema's retry, the wait for tool discovery and the context window, recording, the
 * checkpoints (through the loop: only for calls that run), the ending on a signal, and
 * whether a project is offered trust. It must not know any front end's protocol, flags or
 * screen: front ends translate to and from it and hold no turn logic of their own.
 */
import type { AgentEvent, AgentRunResult } from '../agent/agent-events.js';
import type { Checkpoint } from '../agent/checkpoints/checkpoint-types.js';
import {
  type CheckpointProject,
  type CheckpointRestore,
  checkpointProjectOf,
  restoreCheckpoint,
} from '../agent/checkpoints/restore-checkpoint.js';
import type { Agent } from '../agent/create-agent.js';
import type { SessionRecorder } from '../agent/sessions/session-file.js';
import type { LoadedSession } from '../agent/sessions/session-loader.js';
import type { Config } from '../config/config.js';
import { partsToText } from '../contract/content.js';
import type { ModelEndpoint } from '../models/endpoint.js';
import { raceAbort } from '../scheduler/call-requests.js';
import { CoreToolScheduler } from '../scheduler/core-tool-scheduler.js';
import type {
  CompletedToolCall,
  ConfirmationDecision,
  ScheduleInput,
  WaitingToolCall,
} from '../scheduler/tool-call-types.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { ToolConfirmationOutcome } from '../tools/tools.js';
import { addTerminationCleanup } from '../utils/termination.js';
import { attachReferences, findAtReferences } from './at-references.js';
import type {
  Answer,
  ConversationEvent,
  ConversationListener,
  ConversationOptions,
  Question,
  SendOptions,
  TurnOutcome,
} from './conversation-types.js';
import { type PromptContent, withExtras, withNoteBefore } from './prompt-content.js';
import { CANCELLED_NOTE } from './prompt-notes.js';
import { runForSchema } from './structured-output.js';
import { attachmentRunner, followUpEvents } from './turn-parts.js';

export type * from './conversation-types.js';

/** What open-conversation.ts hands the conversation once the workspace's tools are open. */
export interface ConversationParts {
  config: Config;
  registry: ToolRegistry;
  endpoint: ModelEndpoint;
  recorder: SessionRecorder | undefined;
  resumed: LoadedSession | undefined;
  /** Makes the agent, reporting to the conversation through these hooks. */
  createAgent(hooks: {
    onEvent: (event: AgentEvent) => void;
    onConfirmationRequest?: (call: WaitingToolCall) => Promise<ConfirmationDecision>;
    onWarning: (message: string) => void;
  }): Agent;
  /** Ends it all: SessionEnd hooks, MCP servers, background commands. */
  shutDown(reason: 'prompt_input_exit' | 'other'): Promise<void>;
}

export class Conversation {
  readonly config: Config;
  readonly registry: ToolRegistry;
  /** The agent (its loop, model client and usage), for front ends' own commands. */
  readonly agent: Agent;
  readonly recorder: SessionRecorder | undefined;
  /** The saved session this one continues, if any. */
  readonly resumed: LoadedSession | undefined;
  private readonly listeners = new Set<ConversationListener>();
  private readonly questions = new Map<string, (answer: Answer | undefined) => void>();
  private readonly closing = new AbortController();
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private turns = 0;
  private questionCount = 0;
  private running: { turnId: number; controller: AbortController } | undefined;
  private ready: Promise<unknown> = Promise.resolve();
  private cancelledLast = false;
  private lastFinishReason: string | undefined;
  private extraScheduler: CoreToolScheduler | undefined;
  private closed: Promise<void> | undefined;
  private readonly forgetTermination: () => void;

  constructor(
    private readonly parts: ConversationParts,
    private readonly options: ConversationOptions,
  ) {
    this.config = parts.config;
    this.registry = parts.registry;
    this.recorder = parts.recorder;
    this.resumed = parts.resumed;
    if (options.onEvent) this.listeners.add(options.onEvent);
    // TERM or HUP: the running turn is cancelled and finishes (its end told) before exit.
    this.forgetTermination = addTerminationCleanup(() => this.close());
    this.agent = parts.createAgent({
      onEvent: (event) => this.onAgentEvent(event),
      ...(options.answersQuestions ? { onConfirmationRequest: this.ask } : {}),
      onWarning: (message) => this.emit({ type: 'warning', message }),
    });
    if (options.waitForTools !== false) {
      // Started now: a front end answers its protocol's requests meanwhile.
      this.ready = Promise.all([
        this.registry.whenDiscoveryComplete(),
        this.agent.model.learnContextWindow(this.closing.signal),
      ]).catch(() => undefined);
    } else {
      void this.agent.model.learnContextWindow(this.closing.signal).catch(() => undefined);
    }
  }

  /** The session id (what resuming names). */
  get id(): string {
    return this.config.sessionId;
  }

  /** The endpoint the conversation talks to now (a front end may switch models). */
  get endpoint(): ModelEndpoint {
    return this.agent.model.endpoint;
  }

  get busy(): boolean {
    return this.running !== undefined || this.queued > 0;
  }

  /** Follows the conversation's events; returns a function that stops following. */
  subscribe(listener: ConversationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs a prompt as the next turn (after the turns sent before it) and resolves with how
   * it ended; rejects only when the turn could not run at all (the events say so too).
   */
  send(prompt: PromptContent, options: SendOptions = {}): Promise<TurnOutcome> {
    const turnId = ++this.turns;
    if (this.closed) return Promise.reject(new Error('The conversation is closed.'));
    const waits = this.busy;
    this.queued++;
    if (waits) this.emit({ type: 'prompt_queued', turnId, queued: this.queued });
    const turn = this.queue.then(() => {
      this.queued--;
      return this.runTurn(turnId, prompt, options);
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Stops the running turn (its commands' process groups end); queued turns still run. */
  cancel(reason = 'cancelled'): void {
    this.running?.controller.abort(new Error(reason));
    this.declineQuestions();
  }

  /** Answers a question the events asked; false when it no longer waits. */
  answer(questionId: string, answer: Answer): boolean {
    const resolve = this.questions.get(questionId);
    if (!resolve) return false;
    this.questions.delete(questionId);
    this.emit({ type: 'question_closed', id: questionId });
    resolve(answer);
    return true;
  }

  /**
   * Runs calls the person asked for themselves (a terminal's `!` line), with the same
   * approvals and the same events as the model's calls, inside the running turn if any.
   */
  async runCalls(calls: ScheduleInput[], signal?: AbortSignal): Promise<CompletedToolCall[]> {
    this.extraScheduler ??= new CoreToolScheduler({
      config: this.config,
      toolRegistry: this.registry,
      onToolCallsUpdate: (updated) => this.emit({ type: 'tool_calls', calls: updated }),
      outputUpdateHandler: (callId, output) => this.emit({ type: 'tool_output', callId, output }),
      onAllToolCallsComplete: (completed) =>
        this.emit({ type: 'calls_finished', calls: completed }),
      ...(this.options.answersQuestions ? { onConfirmationRequest: this.ask } : {}),
      ...(this.options.editProposal ? { editProposal: this.options.editProposal } : {}),
    });
    const own = new AbortController();
    const stop = () => own.abort(new Error('cancelled'));
    const turnSignal = this.running?.controller.signal;
    turnSignal?.addEventListener('abort', stop, { once: true });
    signal?.addEventListener('abort', stop, { once: true });
    try {
      return await this.extraScheduler.schedule(calls, own.signal);
    } finally {
      turnSignal?.removeEventListener('abort', stop);
      signal?.removeEventListener('abort', stop);
    }
  }

  /** How many prompts were sent so far (the last one sent has this turn id). */
  get turnsSent(): number {
    return this.turns;
  }

  /** Where this conversation's checkpoints are kept, with the settings' limits for them. */
  get checkpointProject(): CheckpointProject {
    return checkpointProjectOf(this.config);
  }

  /**
   * Restores a checkpoint (an id, a unique prefix, or one listed): the files, and the
   * conversation of its session back to that point. When the checkpoint is this
   * conversation's own, the model goes on from there (the session file is rewound by the
   * restore itself); another session's conversation is rewound in its file only. Throws a
   * CheckpointError with a message for the person when it cannot.
   */
  async restoreCheckpoint(which: string | Checkpoint): Promise<CheckpointRestore> {
    const restored = await restoreCheckpoint(this.checkpointProject, which);
    const { conversation } = restored;
    if (conversation && conversation.sessionId === this.id) this.goOnFrom(conversation.history);
    return restored;
  }

  /**
   * Another saved session goes on here: its conversation, recorded in its own file from now
   * on (its checkpoints and todos follow it).
   */
  continueSession(loaded: LoadedSession): void {
    this.goOnFrom(loaded.history);
    this.config.sessionId = loaded.id;
    this.recorder?.continueIn(loaded.file, loaded.id);
    if (loaded.droppedMessages > 0) this.recorder?.recordHistoryReplaced(loaded.history);
  }

  /** Starts the conversation over: SessionEnd hooks, then SessionStart hooks, run. */
  async restart(): Promise<void> {
    this.goOnFrom([]);
    this.recorder?.recordHistoryReplaced([]);
    await this.agent.end('clear');
    await this.agent.start('clear');
  }

  /**
   * Ends the conversation: the running turn is cancelled and waited for, SessionEnd hooks
   * run, MCP servers close and background commands end. Safe to call more than once.
   */
  close(reason: 'prompt_input_exit' | 'other' = 'other'): Promise<void> {
    this.closed ??= (async () => {
      this.cancel('the conversation was closed');
      this.closing.abort(new Error('the conversation was closed'));
      await this.queue.catch(() => undefined);
      this.agent.close();
      await this.parts.shutDown(reason);
      this.forgetTermination();
    })();
    return this.closed;
  }

  private async runTurn(
    turnId: number,
    prompt: PromptContent,
    options: SendOptions,
  ): Promise<TurnOutcome> {
    const controller = new AbortController();
    const stop = () => controller.abort(new Error('the conversation was closed'));
    this.closing.signal.addEventListener('abort', stop, { once: true });
    this.running = { turnId, controller };
    const { signal } = controller;
    try {
      await raceAbort(this.ready, signal);
      this.emit({
        type: 'prompt_started',
        turnId,
        shown: options.shown ?? (typeof prompt === 'string' ? prompt : partsToText(prompt)),
      });
      let content =
        typeof prompt === 'string' && options.resolveReferences !== false
          ? await this.attach(prompt, signal)
          : prompt;
      content = withExtras(content, options.extraText ?? [], options.attachments ?? []);
      if (options.notes?.length) content = withNoteBefore(options.notes.join('\n\n'), content);
      if (this.cancelledLast && this.options.noteAfterCancel)
        content = withNoteBefore(CANCELLED_NOTE, content);
      this.cancelledLast = false;
      this.lastFinishReason = undefined;
      const sent = content;
      const attempt = (retry: string | undefined) => this.agent.loop.run(retry ?? sent, signal);
      const schema = this.options.outputSchema;
      const { result, structured } = schema
        ? await runForSchema(schema, attempt)
        : { result: await attempt(undefined), structured: undefined };
      return this.endTurn(turnId, result, structured);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.emit({ type: 'error', message });
      throw error;
    } finally {
      this.closing.signal.removeEventListener('abort', stop);
      this.running = undefined;
      this.declineQuestions();
    }
  }

  private endTurn(
    turnId: number,
    result: AgentRunResult,
    structured: TurnOutcome['structured'],
  ): TurnOutcome {
    this.recorder?.recordEnd(result.status);
    if (result.status === 'cancelled') this.cancelledLast = true;
    const outcome: TurnOutcome = {
      turnId,
      reason: result.status,
      result,
      ...(structured ? { structured } : {}),
      ...(this.lastFinishReason !== undefined ? { finishReason: this.lastFinishReason } : {}),
    };
    this.emit({ type: 'prompt_ended', outcome });
    return outcome;
  }

  /**
   * The prompt with what its `@` references name attached, read through the scheduler (so
   * settings, ignore rules and approvals apply); problems are warnings, the turn goes on.
   */
  private async attach(prompt: string, signal: AbortSignal): Promise<PromptContent> {
    if (findAtReferences(prompt).length === 0) return prompt;
    const attached = await attachReferences(prompt, {
      config: this.config,
      registry: this.registry,
      signal,
      runTool: attachmentRunner((calls, toolSignal) => this.runCalls(calls, toolSignal)),
    });
    for (const problem of attached.problems) this.emit({ type: 'warning', message: problem });
    return attached.content;
  }

  /** A question for whoever answers: asked as an event, resolved by `answer`. */
  private readonly ask = (call: WaitingToolCall): Promise<ConfirmationDecision> => {
    const type = call.confirmationDetails.type;
    const question: Question =
      type === 'elicitation' || type === 'elicitation_url'
        ? { kind: 'elicitation', call }
        : { kind: 'approval', call };
    return this.question(question).then((answer) =>
      answer && 'outcome' in answer ? answer : { outcome: ToolConfirmationOutcome.Cancel },
    );
  };

  /** Asks a question through the events; undefined when it was cancelled. */
  question(question: Question): Promise<Answer | undefined> {
    const id = `q${++this.questionCount}`;
    return new Promise((resolve) => {
      this.questions.set(id, resolve);
      this.emit({ type: 'question', id, question });
    });
  }

  private declineQuestions(): void {
    for (const [id, resolve] of [...this.questions]) {
      this.questions.delete(id);
      this.emit({ type: 'question_closed', id });
      resolve(undefined);
    }
  }

  private onAgentEvent(event: AgentEvent): void {
    this.emit(event);
    if (event.type === 'assistant') {
      this.lastFinishReason = event.finishReason;
      this.emit({ type: 'usage', usage: event.usage, total: this.agent.usage.usage });
    } else if (event.type === 'tool_results') {
      for (const followUp of followUpEvents(event.results)) this.emit(followUp);
    }
  }

  /** The model goes on from this history; a cancelled turn before it is no longer news. */
  private goOnFrom(history: LoadedSession['history']): void {
    this.agent.loop.history = [...history];
    this.cancelledLast = false;
  }

  private emit(event: ConversationEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
