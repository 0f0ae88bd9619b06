/**
 * The agent's events as the person sees them: thinking and the answer streamed into the
 * live part and moved into the history block by block, tool calls as rows (a subagent's
 * nested under its `task`), notices as messages. It counts the calls' outcomes for /stats.
 */
import type { AgentEvent, ModelEndpoint } from '@toolhost/core/conversation';
import type { ToolCall } from '@toolhost/core/tools';
import { splitFinishedBlocks } from './markdown-split.js';
import type { ScreenStore } from './screen-store.js';
import { toolRow } from './tool-rows.js';

export class TurnDisplay {
  readonly toolCounts = { success: 0, error: 0, cancelled: 0 };
  private readonly liveOutputs = new Map<string, string>();
  private streamedThisResponse = false;
  private thoughtThisResponse = false;

  constructor(
    private readonly store: ScreenStore,
    /** The model's endpoint now (`/model` switches it). */
    private readonly endpoint: () => ModelEndpoint,
  ) {}

  onEvent(event: AgentEvent): void {
    const { store } = this;
    switch (event.type) {
      case 'thinking':
        store.update({
          thinking: store.live.thinking + event.text,
          thinkingStartedAt: store.live.thinkingStartedAt ?? Date.now(),
        });
        return;
      case 'text':
        this.commitThinking();
        this.streamedThisResponse = true;
        this.stream(store.live.streaming + event.text);
        return;
      case 'retry':
        store.update({ streaming: '', thinking: '', thinkingStartedAt: undefined });
        this.streamedThisResponse = false;
        this.thoughtThisResponse = false;
        store.add({
          kind: 'message',
          level: 'warning',
          text: `${event.reason} Trying again in ${(event.delayMs / 1000).toFixed(1)} s.`,
        });
        return;
      case 'assistant': {
        this.commitThinking(event.thinking);
        const rest = this.streamedThisResponse ? store.live.streaming : event.text;
        if (rest.trim()) store.add({ kind: 'assistant', text: rest.trim() });
        this.streamedThisResponse = false;
        this.thoughtThisResponse = false;
        const used = event.usage.inputTokens + event.usage.outputTokens;
        const window = this.endpoint().contextWindow;
        store.update({
          streaming: '',
          contextLeftPercent:
            used > 0 && window > 0
              ? Math.max(0, Math.min(100, Math.round(100 - (used * 100) / window)))
              : store.live.contextLeftPercent,
        });
        return;
      }
      case 'tool_calls':
        this.showCalls(event.calls);
        return;
      case 'tool_output':
        this.showOutput(event.callId, event.output);
        return;
      case 'tool_results':
        this.finishCalls();
        return;
      case 'subagent':
        this.onSubagentEvent(event);
        return;
      case 'compressed':
        store.add({
          kind: 'message',
          level: 'info',
          text: `The conversation was compressed${event.automatic ? ' (it neared the context limit)' : ''}: about ${event.tokensBefore} → ${event.tokensAfter} tokens.`,
        });
        return;
      case 'notice':
        store.add({ kind: 'message', level: event.level, text: event.message });
        return;
      default:
        return;
    }
  }

  showCalls(calls: readonly ToolCall[]): void {
    const previous = new Map(this.store.live.tools.map((row) => [row.callId, row]));
    this.store.update({
      tools: calls.map((call) =>
        toolRow(call, this.liveOutputs.get(call.request.callId), previous.get(call.request.callId)),
      ),
    });
  }

  showOutput(callId: string, output: string): void {
    this.liveOutputs.set(callId, output);
    this.store.update({
      tools: this.store.live.tools.map((row) =>
        row.callId === callId && row.status === 'executing' ? { ...row, liveOutput: output } : row,
      ),
    });
  }

  /** The finished calls leave the live part for the history. */
  finishCalls(): void {
    const rows = this.store.live.tools;
    for (const row of rows) {
      if (row.status === 'success' || row.status === 'error' || row.status === 'cancelled')
        this.toolCounts[row.status]++;
      this.liveOutputs.delete(row.callId);
    }
    this.store.update({ tools: [] });
    if (rows.length > 0) this.store.add({ kind: 'tools', rows });
  }

  /** What a stopped turn left on screen goes into the history. */
  flush(): void {
    this.commitThinking();
    const { live } = this.store;
    if (live.streaming.trim()) this.store.add({ kind: 'assistant', text: live.streaming.trim() });
    this.store.update({ streaming: '' });
    if (this.store.live.tools.length > 0) this.finishCalls();
  }

  private stream(text: string): void {
    const { finished, rest } = splitFinishedBlocks(text);
    if (finished) this.store.add({ kind: 'assistant', text: finished });
    this.store.update({ streaming: rest });
  }

  private commitThinking(fallback = ''): void {
    // The answer's thinking, when it did not stream (only once per response).
    const { live } = this.store;
    const text = live.thinking || (this.thoughtThisResponse ? '' : fallback);
    if (!text.trim()) return;
    const startedAt = live.thinkingStartedAt ?? Date.now();
    this.store.update({ thinking: '', thinkingStartedAt: undefined });
    this.thoughtThisResponse = true;
    this.store.add({ kind: 'thinking', text: text.trim(), durationMs: Date.now() - startedAt });
  }

  /** A subagent's calls, shown under the running `task` call that started it. */
  private onSubagentEvent(subagent: Extract<AgentEvent, { type: 'subagent' }>): void {
    const { event, parentCallId, description } = subagent;
    if (event.type !== 'tool_calls') return;
    const children = event.calls.map((call) => toolRow(call, undefined, undefined));
    // By the task call's id; by its description only where the id is unknown.
    const startedIt = (row: (typeof this.store.live.tools)[number]) =>
      parentCallId !== undefined
        ? row.callId === parentCallId
        : row.toolName === 'task' && row.args.description === description;
    this.store.update({
      tools: this.store.live.tools.map((row) =>
        row.status === 'executing' && startedIt(row) ? { ...row, children } : row,
      ),
    });
  }
}
