/**
 * Keeps the conversation inside the model's context window: before a request would pass
 * about 70% of it, the older turns are summarised by a side request and replaced by the
 * summary; the recent turns (and every tool call with its response) stay word for word.
 * Sizes come from the endpoint's own count of the last request plus an estimate of what
 * was added since.
 */
import type { ModelClient } from '../models/model-client.js';
import type { ChatMessage } from '../models/model-types.js';
import { estimateJsonTokens, estimateTokens, type UsageTracker } from '../models/token-usage.js';
import type { HistoryCompressor } from './agent-loop.js';
import { SUMMARY_HEADING } from './loop-notes.js';
import { completeLength } from './sessions/session-loader.js';

export interface CompressionOptions {
  /** Compress when a request would pass this share of the window (default 0.7). */
  threshold?: number;
  /** Keep about this share of the window of recent turns verbatim (default 0.3 of the threshold). */
  keepRecent?: number;
}

const SUMMARY_INSTRUCTIONS = `You compress the earlier part of a coding agent's conversation so the agent can continue without it. Write a summary in this shape, leaving out nothing the agent needs:
1. The task: what the person asked for, in their words where it matters, and any constraints.
2. What is done: files read, created or changed (absolute paths), commands run and their outcomes, decisions made and why.
3. Facts learned: names, paths, line numbers, values, errors, test results the rest of the work depends on.
4. What is left: the next steps, open questions, and anything that failed and still needs another approach.
Be specific and compact; keep code, paths and identifiers exactly. Do not add anything that is not in the conversation.`;

const MAX_TOOL_TEXT = 2_000;

export class ContextCompressor implements HistoryCompressor {
  private readonly threshold: number;
  private readonly keepRecent: number;
  /** The endpoint's count for the history as it was at `length` messages. */
  private known: { history: ChatMessage[]; length: number; tokens: number } | undefined;

  private readonly window: () => number;

  /** `contextWindow` may be a function: the size the server states is learned after the start. */
  constructor(
    private readonly model: ModelClient,
    contextWindow: number | (() => number),
    private readonly usage: UsageTracker,
    options: CompressionOptions = {},
  ) {
    this.window = typeof contextWindow === 'number' ? () => contextWindow : contextWindow;
    this.threshold = options.threshold ?? 0.7;
    this.keepRecent = options.keepRecent ?? 0.3;
  }

  observePromptTokens(history: ChatMessage[], inputTokens: number): void {
    this.known = { history, length: history.length, tokens: inputTokens };
  }

  /** The size of a request with this history, in tokens. */
  estimate(history: ChatMessage[], systemPrompt: string): number {
    const known = this.known;
    if (known && known.history === history && history.length >= known.length) {
      return known.tokens + estimateJsonTokens(history.slice(known.length));
    }
    return estimateTokens(systemPrompt) + estimateJsonTokens(history);
  }

  async compressIfNeeded(
    history: ChatMessage[],
    systemPrompt: string,
    signal: AbortSignal,
    force = false,
    beforeCompress?: () => Promise<void>,
  ): Promise<{ history: ChatMessage[]; tokensBefore: number; tokensAfter: number } | undefined> {
    const tokensBefore = this.estimate(history, systemPrompt);
    const limit = this.window() * this.threshold;
    if (!force && tokensBefore < limit) return undefined;
    const split = this.splitPoint(history, limit * this.keepRecent);
    if (split <= 0) return undefined;
    await beforeCompress?.();
    const summary = await this.summarise(history.slice(0, split), signal);
    const recent = history.slice(split);
    const compressed: ChatMessage[] = [{ role: 'user', content: `${SUMMARY_HEADING}\n${summary}` }];
    // Roles keep alternating for chat templates that insist on it.
    if (recent[0]?.role !== 'assistant') {
      compressed.push({
        role: 'assistant',
        content: 'Understood. I will continue from this summary.',
      });
    }
    compressed.push(...recent);
    this.known = undefined;
    return {
      history: compressed,
      tokensBefore,
      tokensAfter: estimateTokens(systemPrompt) + estimateJsonTokens(compressed),
    };
  }

  /**
   * Where the verbatim tail starts: the earliest exchange boundary whose tail fits the
   * budget, else the latest boundary (so there is always something to summarise).
   */
  private splitPoint(history: ChatMessage[], budget: number): number {
    const boundaries: number[] = [];
    for (let index = 1; index < history.length; index++) {
      const message = history[index];
      if (message?.role === 'tool') continue;
      if (message?.role === 'user' && Array.isArray(message.content)) continue; // tool media
      if (completeLength(history.slice(0, index)) === index) boundaries.push(index);
    }
    for (const index of boundaries) {
      if (estimateJsonTokens(history.slice(index)) <= budget) return index;
    }
    return boundaries.at(-1) ?? 0;
  }

  private async summarise(messages: ChatMessage[], signal: AbortSignal): Promise<string> {
    const transcript = messages.map(render).join('\n\n');
    const room = Math.max(4_000, Math.floor(this.window() * 0.6) * 4);
    const cut =
      transcript.length > room
        ? `[The start of the conversation is left out.]\n${transcript.slice(-room)}`
        : transcript;
    const response = await this.model.generate(
      {
        messages: [
          { role: 'system', content: SUMMARY_INSTRUCTIONS },
          { role: 'user', content: `The conversation so far:\n\n${cut}` },
        ],
      },
      { signal },
    );
    this.usage.add(response.usage);
    const text = response.text.trim();
    if (!text) throw new Error('the summary request returned nothing');
    return text;
  }
}

function render(message: ChatMessage): string {
  const text = contentText(message.content);
  if (message.role === 'assistant') {
    const calls = (message.tool_calls ?? [])
      .map((call) =>
        'function' in call ? `${call.function.name}(${call.function.arguments})` : '',
      )
      .filter(Boolean);
    return `ASSISTANT: ${text}${calls.length ? `\nCALLS: ${calls.join('\n')}` : ''}`;
  }
  if (message.role === 'tool') {
    const shown = text.length > MAX_TOOL_TEXT ? `${text.slice(0, MAX_TOOL_TEXT)} [cut]` : text;
    return `TOOL RESULT (${message.tool_call_id}): ${shown}`;
  }
  return `${message.role.toUpperCase()}: ${text}`;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) =>
      part.type === 'text' ? (part.text ?? '') : `[${part.type ?? 'attachment'}]`,
    )
    .join('\n');
}
