/**
 * Builds one ModelResponse from streamed Chat Completions chunks (or from a whole
 * response, or the pieces another API's client hands it): text and reasoning kept apart,
 * tool-call fragments joined by their index.
 */
import { randomUUID } from 'node:crypto';
import type { ModelResponse, ModelStop, ModelStreamEvent, ModelToolCall } from './model-types.js';
import { ThinkTagSplitter } from './think-tags.js';
import type { TokenUsage } from './token-usage.js';

/** The fields of a chunk or message this reads; servers add `reasoning_content` or `reasoning`. */
export interface DeltaLike {
  content?: string | null;
  /** OpenAI's refusal text (a model that declines says why here instead of in `content`). */
  refusal?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: Array<{
    index?: number;
    id?: string | null;
    function?: { name?: string | null; arguments?: unknown } | null;
  }> | null;
}

interface UsageLike {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

export class StreamAssembler {
  private text = '';
  private thinking = '';
  private readonly calls: ModelToolCall[] = [];
  private readonly callByIndex = new Map<number, ModelToolCall>();
  private finishReason: string | undefined;
  private usage: TokenUsage | undefined;
  private model: string | undefined;
  private stop: ModelStop | undefined;
  private readonly splitter = new ThinkTagSplitter();
  private readonly announced = new Set<ModelToolCall>();

  constructor(private readonly emit: (event: ModelStreamEvent) => void = () => {}) {}

  /** True once the endpoint said why the answer ended. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** Adds one streamed chunk. */
  addChunk(chunk: {
    model?: string;
    choices?: Array<{ delta?: DeltaLike; finish_reason?: string | null }>;
    usage?: UsageLike | null;
  }): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.setUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    if (choice.delta) this.addDelta(choice.delta);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    if (choice.finish_reason === 'content_filter')
      this.stop ??= { kind: 'safety', reason: 'content_filter' };
  }

  /** Adds a whole (non-streamed) response. */
  addMessage(response: {
    model?: string;
    choices?: Array<{ message?: DeltaLike; finish_reason?: string | null }>;
    usage?: UsageLike | null;
  }): void {
    const choice = response.choices?.[0];
    this.addChunk({
      model: response.model,
      usage: response.usage,
      choices: choice
        ? [
            {
              delta: {
                ...choice.message,
                tool_calls: choice.message?.tool_calls?.map((call, index) => ({
                  ...call,
                  index,
                })),
              },
              finish_reason: choice.finish_reason,
            },
          ]
        : [],
    });
  }

  /**
   * Adds one piece of an answer (the other APIs' clients speak through this): text,
   * reasoning, or a fragment of the tool call at `index`.
   */
  addDelta(delta: DeltaLike): void {
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) this.addThinking(reasoning);
    if (delta.content) {
      const { thinking, text } = this.splitter.push(delta.content);
      if (thinking) this.addThinking(thinking);
      if (text) this.addText(text);
    }
    for (const fragment of delta.tool_calls ?? []) this.addToolCallFragment(fragment);
    if (delta.refusal) {
      this.addText(delta.refusal);
      this.stop = { kind: 'refusal', reason: 'refusal' };
    }
  }

  /** The provider stopped the answer on its own account (a refusal, a safety stop). */
  setStop(stop: ModelStop): void {
    this.stop = stop;
  }

  private addText(text: string): void {
    this.text += text;
    this.emit({ type: 'text', text });
  }

  private addThinking(text: string): void {
    this.thinking += text;
    this.emit({ type: 'thinking', text });
  }

  private addToolCallFragment(fragment: NonNullable<DeltaLike['tool_calls']>[number]): void {
    const index = fragment.index ?? this.indexById(fragment.id) ?? this.calls.length;
    let call = this.callByIndex.get(index);
    if (!call) {
      call = { id: fragment.id || `call_${randomUUID().slice(0, 12)}`, name: '', arguments: '' };
      this.callByIndex.set(index, call);
      this.calls.push(call);
    }
    const name = fragment.function?.name;
    // Most servers send the name once; some repeat it in every fragment.
    if (name && name !== call.name) call.name += name;
    const args = fragment.function?.arguments;
    if (typeof args === 'string') call.arguments += args;
    else if (args !== undefined && args !== null) call.arguments += JSON.stringify(args);
    if (call.name && !this.announced.has(call)) {
      this.announced.add(call);
      this.emit({ type: 'tool_call_started', index, id: call.id, name: call.name });
    }
  }

  private indexById(id: string | null | undefined): number | undefined {
    if (!id) return undefined;
    for (const [index, call] of this.callByIndex) if (call.id === id) return index;
    return undefined;
  }

  /** The end of the answer and why (`stop`, `tool_calls`, `length`, `content_filter`). */
  setFinishReason(reason: string): void {
    this.finishReason = reason;
  }

  /** Usage as the endpoint reported it, already in toolhost's terms. */
  setReportedUsage(usage: TokenUsage, model?: string): void {
    this.usage = usage;
    if (model) this.model = model;
  }

  setModel(model: string): void {
    this.model = model;
  }

  private setUsage(usage: UsageLike): void {
    const cached = usage.prompt_tokens_details?.cached_tokens;
    this.usage = {
      inputTokens: usage.prompt_tokens ?? 0,
      outputTokens: usage.completion_tokens ?? 0,
      ...(cached ? { cachedInputTokens: cached } : {}),
    };
  }

  /** The response; `estimateUsage` fills usage when the endpoint sent none. */
  finish(
    fallbackModel: string,
    estimateUsage: (response: ModelResponse) => TokenUsage,
  ): ModelResponse {
    const rest = this.splitter.flush();
    if (rest.thinking) this.addThinking(rest.thinking);
    if (rest.text) this.addText(rest.text);
    const response: ModelResponse = {
      text: this.text,
      thinking: this.thinking,
      toolCalls: this.calls.filter((call) => call.name !== ''),
      finishReason: this.finishReason,
      usage: { inputTokens: 0, outputTokens: 0 },
      model: this.model ?? fallbackModel,
      ...(this.stop ? { stopped: this.stop } : {}),
    };
    response.usage = this.usage ?? estimateUsage(response);
    return response;
  }
}
