/**
 * What an assistant message goes through before its `assistant` event: its id (the same on
 * its partial events and its final event), the time its request took (the result's
 * `duration_api_ms`), and, with `--include-partial-messages`, the `stream_event`s that
 * carry its text and thinking as they arrive and its tool calls once complete, in the
 * shape of Claude's and Qwen Code's (message_start, content_block_start/delta/stop,
 * message_delta, message_stop).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AgentToolCall, TokenUsage } from '@toolhost/core/conversation';
import { jsonUsage, stopReason } from './json-events.js';

type BlockKind = 'text' | 'thinking';

interface OpenMessage {
  id: string;
  startedAt: number;
  /** The content block being streamed, and its index in the message. */
  block?: { kind: BlockKind; index: number };
  blocks: number;
}

export interface PartialMessagesOptions {
  sessionId: string;
  model: () => string;
  /** Where stream events go; none when partial messages were not asked for. */
  emit?: (event: unknown) => void;
}

/** One per run; `key` tells apart the main agent ('') and subagents running side by side. */
export class PartialMessages {
  private readonly open = new Map<string, OpenMessage>();
  private apiMs = 0;

  constructor(private readonly options: PartialMessagesOptions) {}

  turnStarted(key: string, parent: string | null): void {
    this.begin(key, parent, performance.now());
  }

  /**
   * The request failed part-way and is tried again: the loop drops what had streamed, so
   * that partial message ends here and the answer streams again as a new one (the
   * `assistant` event carries the new id). The API time runs on from the first attempt.
   */
  retried(key: string, parent: string | null): void {
    const message = this.open.get(key);
    if (!message || message.blocks === 0) return;
    this.closeBlock(message, parent);
    this.stream(parent, { type: 'message_stop' });
    this.begin(key, parent, message.startedAt);
  }

  private begin(key: string, parent: string | null, startedAt: number): void {
    const message: OpenMessage = { id: `msg_${randomUUID()}`, startedAt, blocks: 0 };
    this.open.set(key, message);
    this.stream(parent, {
      type: 'message_start',
      message: {
        id: message.id,
        type: 'message',
        role: 'assistant',
        model: this.options.model(),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: jsonUsage({ inputTokens: 0, outputTokens: 0 }),
      },
    });
  }

  delta(key: string, parent: string | null, kind: BlockKind, text: string): void {
    const message = this.open.get(key);
    if (!message || !text || !this.options.emit) return;
    if (message.block?.kind !== kind) {
      this.closeBlock(message, parent);
      message.block = { kind, index: message.blocks++ };
      this.stream(parent, {
        type: 'content_block_start',
        index: message.block.index,
        content_block:
          kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' },
      });
    }
    this.stream(parent, {
      type: 'content_block_delta',
      index: message.block.index,
      delta:
        kind === 'text' ? { type: 'text_delta', text } : { type: 'thinking_delta', thinking: text },
    });
  }

  /** The model's answer is complete: the id its `assistant` event carries. */
  answered(
    key: string,
    parent: string | null,
    finishReason: string | undefined,
    usage: TokenUsage,
    calls: AgentToolCall[] = [],
  ): string {
    const message = this.open.get(key);
    if (!message) return `msg_${randomUUID()}`;
    this.open.delete(key);
    this.apiMs += performance.now() - message.startedAt;
    this.closeBlock(message, parent);
    // The loop hands over tool calls whole: each is one block with its input in one piece,
    // so a reader that builds the message from these events gets the calls too.
    for (const call of calls) {
      if (!this.options.emit) break;
      const index = message.blocks++;
      this.stream(parent, {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      });
      this.stream(parent, {
        type: 'content_block_delta',
        index,
        delta: {
          type: 'input_json_delta',
          partial_json: JSON.stringify(call.malformedArguments !== undefined ? {} : call.args),
        },
      });
      this.stream(parent, { type: 'content_block_stop', index });
    }
    this.stream(parent, {
      type: 'message_delta',
      delta: { stop_reason: stopReason(finishReason), stop_sequence: null },
      usage: jsonUsage(usage),
    });
    this.stream(parent, { type: 'message_stop' });
    return message.id;
  }

  /** Milliseconds spent waiting on the model, requests still open (a failed or cancelled one) counted to now. */
  apiDurationMs(): number {
    const now = performance.now();
    let open = 0;
    for (const message of this.open.values()) open += now - message.startedAt;
    return this.apiMs + open;
  }

  private closeBlock(message: OpenMessage, parent: string | null): void {
    if (!message.block) return;
    this.stream(parent, { type: 'content_block_stop', index: message.block.index });
    message.block = undefined;
  }

  private stream(parent: string | null, event: Record<string, unknown>): void {
    this.options.emit?.({
      type: 'stream_event',
      uuid: randomUUID(),
      session_id: this.options.sessionId,
      parent_tool_use_id: parent,
      event,
    });
  }
}
