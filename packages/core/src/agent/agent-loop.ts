/**
 * The agent loop: prompt → model → the model's tool calls through CoreToolScheduler → the
 * batch's responses → model, until the model answers without a call or a limit stops it.
 *
 * It owns the conversation (history, compression, recording) and the run's limits. It
 * does not own calls (the scheduler does: approval, execution, cancellation), the HTTP
 * exchange (the model client) or anything shown to the person (front ends subscribe to
 * its events). Tool declarations are read from the registry at every turn, so tools that
 * arrive later (an MCP server connecting) are offered from the next request on.
 */
import type { Part } from '../contract/content.js';
import { compacting, stopping, withHookContext } from '../hooks/conversation-hooks.js';
import { ModelError } from '../models/model-errors.js';
import type { ChatMessage, ModelResponse, ModelStop } from '../models/model-types.js';
import { UsageTracker } from '../models/token-usage.js';
import type { ResultOptions } from '../providers/tool-results.js';
import { CoreToolScheduler } from '../scheduler/core-tool-scheduler.js';
import type { AgentEvent, AgentRunResult, AgentToolCall } from './agent-events.js';
import type { AgentLoopOptions } from './agent-loop-options.js';
import { assistantMessage, RunState, withValidToolArguments } from './agent-loop-run.js';
import { BatchCheckpointGate } from './checkpoints/batch-checkpoint.js';
import type { CheckpointHook } from './checkpoints/checkpointer.js';
import { LoopDetector } from './loop-detection.js';
import { CONTINUE_AFTER_LENGTH, NUDGE_AFTER_EMPTY } from './loop-notes.js';
import { brokenOffMessage, stopMessage } from './model-stops.js';
import { toChatToolMessages, toChatTools, toChatUserMessage } from './provider-seam.js';
import { parseToolCalls, runToolBatch } from './tool-batch.js';

export type { AgentLimits, AgentLoopOptions, HistoryCompressor } from './agent-loop-options.js';

const MAX_CONTINUATIONS = 3;

class LoopStop extends Error {}

export class AgentLoop {
  history: ChatMessage[];
  readonly usage: UsageTracker;
  private readonly scheduler: CoreToolScheduler;
  private options: AgentLoopOptions;
  /** Context waiting for the next prompt (SessionStart hooks, maybe still running). */
  private readonly pendingContext: Promise<string | undefined>[] = [];
  /** The running batch's checkpoint, taken before the first of its calls that runs and may change files. */
  private batchCheckpoint: BatchCheckpointGate | undefined;

  constructor(options: AgentLoopOptions) {
    this.options = options;
    this.history = [...(options.history ?? [])];
    this.usage = options.usage ?? new UsageTracker();
    this.scheduler = new CoreToolScheduler({
      config: options.config,
      toolRegistry: options.registry,
      onToolCallsUpdate: (calls) => this.emit({ type: 'tool_calls', calls }),
      outputUpdateHandler: (callId, output) => this.emit({ type: 'tool_output', callId, output }),
      ...(options.onConfirmationRequest
        ? { onConfirmationRequest: options.onConfirmationRequest }
        : {}),
      ...(options.editProposal ? { editProposal: options.editProposal } : {}),
      ...(options.hooks ? { hooks: options.hooks } : {}),
      beforeExecute: async (request, signal) => this.batchCheckpoint?.beforeCall(request, signal),
    });
  }

  /** Text the model gets with the next prompt (what SessionStart hooks add, once they end). */
  addContext(text: Promise<string | undefined>): void {
    this.pendingContext.push(text);
  }

  /**
   * Runs one prompt to its end; never rejects for a model or tool failure. The prompt is
   * text, or parts: text with attached files (`inlineData` images, PDFs) for the model to see.
   */
  async run(prompt: string | readonly Part[], signal: AbortSignal): Promise<AgentRunResult> {
    const run = new RunState(this.options.limits ?? {}, signal, this.usage.usage);
    try {
      const context = await Promise.all(this.pendingContext.splice(0));
      const submitted = await withHookContext(this.options, prompt, context, run.signal);
      if ('prompt' in submitted) {
        run.prompt = toChatUserMessage(submitted.prompt, this.mediaOptions());
        this.append(run.prompt);
      }
      const result =
        'blocked' in submitted
          ? run.finish('error', [], this.usage.usage, submitted.blocked)
          : await this.loop(run);
      this.emit({ type: 'finished', result });
      return result;
    } finally {
      run.dispose();
    }
  }

  /** Uses this system prompt from the next request on (the memory files were read again). */
  setSystemPrompt(systemPrompt: string): void {
    this.options = { ...this.options, systemPrompt };
  }

  /**
   * The checkpoints of a subagent this loop's `task` call runs: taken by this loop's
   * checkpointer, in this session, marked as the subagent's, and placed in this
   * conversation before the model turn that started the subagent (so a restore brings
   * back the files and this conversation as they were before that turn). Undefined when
   * this loop takes none.
   */
  subagentCheckpoints(subagent: string): CheckpointHook | undefined {
    const hook = this.options.checkpoints;
    if (!hook) return undefined;
    return {
      beforeBatch: async (calls, _subagentIndex, signal) => {
        const outcome = await hook.beforeBatch(calls, this.history.length - 1, signal, {
          subagent,
        });
        if (outcome.kind === 'taken')
          this.options.recorder?.recordCheckpoint?.(outcome.checkpoint.id);
        return outcome;
      },
    };
  }

  /** Summarises older turns now, whatever the history's size. */
  async compressNow(signal: AbortSignal): Promise<boolean> {
    return this.compress(signal, true);
  }

  private async loop(run: RunState): Promise<AgentRunResult> {
    const detector = new LoopDetector(this.options.loopDetection);
    const answer: string[] = [];
    let continuations = 0;
    let emptyAnswers = 0;
    let stopHookActive = false;
    for (;;) {
      if (run.signal.aborted) return run.stopped(answer, this.usage.usage);
      if (run.turns >= run.limits.maxTurns) {
        return run.finish(
          'max_turns',
          answer,
          this.usage.usage,
          `Stopped after ${run.turns} model requests (the turn limit).`,
        );
      }
      await this.compress(run.signal, false).catch((error: unknown) => {
        if (run.signal.aborted) return;
        const reason = error instanceof Error ? error.message : String(error);
        this.notice(
          'warning',
          `The conversation is near the context limit and could not be compressed: ${reason}`,
        );
      });
      run.turns++;
      this.emit({ type: 'turn_started', turn: run.turns });
      let response: ModelResponse;
      let toToolName: (calledName: string) => string;
      try {
        ({ response, toToolName } = await this.requestThatFits(run, detector));
      } catch (error) {
        if (error instanceof LoopStop)
          return run.finish('loop_detected', answer, this.usage.usage, error.message);
        if (error instanceof ModelError && error.kind === 'cancelled')
          return run.stopped(answer, this.usage.usage);
        const partial = error instanceof ModelError ? (error.details.partialText ?? '') : '';
        if (error instanceof ModelError && error.details.stop)
          return this.stopped(run, answer, partial, error.details.stop);
        if (partial) answer.push(partial);
        const message = error instanceof Error ? error.message : String(error);
        return run.finish('error', answer, this.usage.usage, brokenOffMessage(message, partial));
      }
      const calls = parseToolCalls(response.toolCalls, toToolName, response.finishReason);
      this.emit({
        type: 'assistant',
        text: response.text,
        thinking: response.thinking,
        toolCalls: calls,
        usage: response.usage,
        finishReason: response.finishReason,
      });
      if (response.stopped) return this.stopped(run, answer, response.text, response.stopped);
      if (calls.length === 0 && response.text.trim() === '') {
        emptyAnswers++;
        if (emptyAnswers > 1) {
          return run.finish(
            'error',
            answer,
            this.usage.usage,
            'The model answered with nothing twice in a row.',
          );
        }
        this.append({ role: 'user', content: NUDGE_AFTER_EMPTY });
        continue;
      }
      emptyAnswers = 0;
      this.append(assistantMessage(response.text, response.toolCalls, calls));
      const textLoop = detector.checkText(response.text);
      if (textLoop) return run.finish('loop_detected', answer, this.usage.usage, textLoop);
      if (calls.length === 0) {
        answer.push(response.text);
        if (response.finishReason === 'length' && continuations < MAX_CONTINUATIONS) {
          continuations++;
          this.notice('info', 'The answer reached the output limit; asking the model to continue.');
          this.append({ role: 'user', content: CONTINUE_AFTER_LENGTH });
          continue;
        }
        const goOn = await stopping(this.options, response.text, stopHookActive, run.signal);
        if (goOn) {
          stopHookActive = true;
          answer.length = 0;
          this.append({ role: 'user', content: goOn });
          continue;
        }
        return run.finish('success', answer, this.usage.usage);
      }
      // The text beside calls is not the answer, but it is what the person gets if the run stops here.
      answer.length = 0;
      run.lastText = response.text;
      const callLoop = detector.checkCalls(calls);
      if (callLoop) {
        this.answerUnrun(calls, `Not run: ${callLoop}`);
        return run.finish('loop_detected', answer, this.usage.usage, callLoop);
      }
      // Taken just before the first call that runs and may change files (batch-checkpoint.ts).
      const gate = new BatchCheckpointGate(calls, this.history.length - 1, this.options, (event) =>
        this.emit(event),
      );
      this.batchCheckpoint = gate;
      let outcome: Awaited<ReturnType<typeof runToolBatch>>;
      try {
        outcome = await runToolBatch(this.scheduler, calls, run.toolBudget(), run.signal);
      } finally {
        this.batchCheckpoint = undefined;
      }
      for (const message of toChatToolMessages(outcome.responseParts, this.mediaOptions())) {
        this.append(message);
      }
      this.emit({ type: 'tool_results', results: outcome.results });
      run.toolCalls += outcome.executed;
      run.denials.push(...outcome.denials);
      if (run.signal.aborted) return run.stopped(answer, this.usage.usage);
      if (gate.refusal) return run.finish('error', answer, this.usage.usage, gate.refusal);
      if (run.toolCalls >= run.limits.maxToolCalls) {
        return run.finish(
          'max_tool_calls',
          answer,
          this.usage.usage,
          `Stopped after ${run.toolCalls} tool calls (the tool-call budget).`,
        );
      }
    }
  }

  /**
   * One model request; when the server answers that the conversation does not fit its
   * context (the client then knows the real size), it is compressed and sent once more.
   */
  private async requestThatFits(
    run: RunState,
    detector: LoopDetector,
  ): ReturnType<AgentLoop['request']> {
    try {
      return await this.request(run, detector);
    } catch (error) {
      if (!(error instanceof ModelError) || error.kind !== 'context_exceeded') throw error;
      // Said only once something was compressed: a first prompt too large has nothing to give.
      const compressed = await this.compress(run.signal, true).catch(() => false);
      if (!compressed) throw error;
      this.notice(
        'info',
        "The conversation did not fit the model's context; compressed it, trying once more.",
      );
      return this.request(run, detector);
    }
  }

  /** One model request; text is watched for loops as it streams. */
  private async request(
    run: RunState,
    detector: LoopDetector,
  ): Promise<{ response: ModelResponse; toToolName: (calledName: string) => string }> {
    const controller = new AbortController();
    const abort = () => controller.abort(run.signal.reason);
    run.signal.addEventListener('abort', abort, { once: true });
    let streamed = '';
    let loopReason: string | undefined;
    try {
      // Read at every turn: tools that arrived since (an MCP server connecting) are offered.
      const { registry, deferredTools, model } = this.options;
      const chatTools = toChatTools(
        deferredTools
          ? deferredTools.declarations(registry, model.endpoint.contextWindow)
          : registry.getFunctionDeclarations(),
        model.endpoint.provider,
      );
      const messages: ChatMessage[] = [
        { role: 'system', content: this.options.systemPrompt },
        ...chatTools.historyNames(withValidToolArguments(this.history)),
      ];
      const response = await this.options.model.generate(
        {
          messages,
          tools: chatTools.tools,
          ...(this.options.modelName ? { model: this.options.modelName } : {}),
        },
        {
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === 'text') {
              streamed += event.text;
              if (event.text.includes('\n') && !loopReason) {
                loopReason = detector.checkStreamingText(streamed);
                if (loopReason) controller.abort();
              }
              this.emit({ type: 'text', text: event.text });
            } else if (event.type === 'thinking') {
              this.emit({ type: 'thinking', text: event.text });
            } else if (event.type === 'retry') {
              streamed = '';
              this.emit(event);
            }
          },
        },
      );
      this.usage.add(response.usage);
      this.options.recorder?.recordUsage(response.usage, response.model);
      this.options.compressor?.observePromptTokens(this.history, response.usage.inputTokens);
      return { response, toToolName: chatTools.toToolName };
    } catch (error) {
      if (loopReason) throw new LoopStop(loopReason);
      throw error;
    } finally {
      run.signal.removeEventListener('abort', abort);
    }
  }

  private async compress(signal: AbortSignal, force: boolean): Promise<boolean> {
    const compressor = this.options.compressor;
    if (!compressor) return false;
    const { hooks } = this.options;
    const outcome = await compressor.compressIfNeeded(
      this.history,
      this.options.systemPrompt,
      signal,
      force,
      hooks && (() => compacting(hooks, force ? 'manual' : 'auto', signal)),
    );
    if (!outcome) return false;
    this.history = outcome.history;
    this.options.recorder?.recordHistoryReplaced(this.history);
    this.emit({
      type: 'compressed',
      tokensBefore: outcome.tokensBefore,
      tokensAfter: outcome.tokensAfter,
      automatic: !force,
    });
    return true;
  }

  /** A refusal or safety stop ends the run; a blocked prompt leaves the conversation. */
  private stopped(run: RunState, answer: string[], text: string, stop: ModelStop) {
    if (text.trim()) {
      this.append({ role: 'assistant', content: text });
      answer.push(text);
    } else if (stop.promptBlocked && run.prompt && this.history.at(-1) === run.prompt) {
      this.history.pop();
      this.options.recorder?.recordHistoryReplaced(this.history);
    }
    const message = stopMessage(stop, text.trim() !== '');
    return { ...run.finish(stop.kind, answer, this.usage.usage, message), stop };
  }

  /** Keeps the history valid (every call answered) when calls are not run. */
  private answerUnrun(calls: AgentToolCall[], message: string): void {
    for (const call of calls) {
      this.append({ role: 'tool', tool_call_id: call.id, content: `Error: ${message}` });
    }
  }

  /** What the model takes, for the media sent to it (its name's defaults or settings). */
  private mediaOptions(): ResultOptions {
    return {
      model: this.options.modelName ?? this.options.model.model,
      ...(this.options.config.settings.model?.modalities
        ? { modalities: this.options.config.settings.model.modalities }
        : {}),
    };
  }

  private append(message: ChatMessage): void {
    this.history.push(message);
    this.options.recorder?.recordMessage(message);
  }

  private notice(level: 'info' | 'warning', message: string): void {
    this.emit({ type: 'notice', level, message });
  }

  private emit(event: AgentEvent): void {
    this.options.onEvent?.(event);
  }
}
