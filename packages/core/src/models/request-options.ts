/**
 * The optional parts of a request that servers disagree on, and what the session learned
 * about them: `stream_options.include_usage` (some servers reject it), and the answer
 * length, sent as `max_tokens` (OpenAI's newer models want `max_completion_tokens`, some
 * models allow fewer tokens than asked and say how many). A refusal that names one of
 * them changes it for the rest of the session and the request is sent once more.
 */
import OpenAI from 'openai';
import { defaultMaxOutputTokens, type ModelEndpoint } from './endpoint.js';
import type { ModelRequest } from './model-types.js';
import { knownOutputCap, wantsCompletionTokens } from './output-caps.js';
import { type AskedThinking, askedThinking } from './thinking.js';
import { estimateJsonTokens } from './token-usage.js';
import { HttpStatusError } from './wire/http-stream.js';

/** The fewest tokens asked for, however full the window is (the server decides what fits). */
const MIN_OUTPUT_TOKENS = 256;

export class RequestOptions {
  /** Ask streamed answers for usage. */
  askForUsage = true;
  /** Send the thinking asked for (off once the server refuses it). */
  private askForThinking = true;
  private tokenField: 'max_tokens' | 'max_completion_tokens' | undefined;
  /** The most the model allows: known by its name, or since a refusal said so. */
  private outputCap: number | undefined;

  constructor(private readonly endpoint: ModelEndpoint) {
    this.tokenField = wantsCompletionTokens(endpoint.baseUrl)
      ? 'max_completion_tokens'
      : 'max_tokens';
    this.outputCap = knownOutputCap(endpoint.model);
  }

  /**
   * The answer-length field: the request's or settings' figure, else one derived from the
   * window; never more than what the window leaves after the prompt (vLLM refuses a request
   * whose prompt and max_tokens together pass its max_model_len).
   */
  lengthField(request: ModelRequest): Record<string, number> {
    if (!this.tokenField) return {};
    const window = this.endpoint.contextWindow;
    let tokens =
      request.maxOutputTokens ?? this.endpoint.maxOutputTokens ?? defaultMaxOutputTokens(window);
    if (this.outputCap) tokens = Math.min(tokens, this.outputCap);
    const room =
      window - estimateJsonTokens(request.messages) - estimateJsonTokens(request.tools ?? []);
    tokens = Math.max(Math.min(tokens, MIN_OUTPUT_TOKENS), Math.min(tokens, room));
    return { [this.tokenField]: tokens };
  }

  /** The answer length for APIs that require one (Anthropic): the field's value, else the default. */
  outputTokens(request: ModelRequest): number {
    const field = this.lengthField(request);
    return (
      Object.values(field)[0] ??
      Math.min(
        this.outputCap ?? Number.POSITIVE_INFINITY,
        request.maxOutputTokens ??
          this.endpoint.maxOutputTokens ??
          defaultMaxOutputTokens(this.endpoint.contextWindow),
      )
    );
  }

  /** The thinking level to ask for, unless none is set or the server refused it. */
  thinking(): AskedThinking | undefined {
    return this.askForThinking ? askedThinking(this.endpoint) : undefined;
  }

  /** Adapts to a refusal of an optional part; false when it names none (nothing changed). */
  adaptTo(caught: unknown, streaming: boolean): boolean {
    const detail = refusalDetail(caught);
    if (detail === undefined) return false;
    if (
      this.thinking() &&
      /reasoning_effort|reasoning\.effort|thinking|thinkingConfig|thinking_config|budget_tokens/i.test(
        detail,
      )
    ) {
      // A model that does not think on request: asked as it was before, for the session.
      this.askForThinking = false;
      return true;
    }
    if (streaming && this.askForUsage && /stream_options|include_usage/i.test(detail)) {
      this.askForUsage = false;
      return true;
    }
    if (
      !this.tokenField ||
      !/max_tokens|max_completion_tokens|max_output_tokens|maxOutputTokens/i.test(detail)
    )
      return false;
    if (
      /max_completion_tokens/.test(detail) &&
      this.tokenField === 'max_tokens' &&
      /not supported|unsupported|instead/i.test(detail)
    ) {
      this.tokenField = 'max_completion_tokens';
      return true;
    }
    const most = Number(
      /at most (\d+)/i.exec(detail)?.[1] ??
        /maximum (?:value )?(?:is|of) (\d+)/i.exec(detail)?.[1] ??
        // Anthropic: "max_tokens: 100000 > 64000, which is the maximum allowed ..."
        /> (\d+), which is the maximum/i.exec(detail)?.[1],
    );
    if (most > 0 && most !== this.outputCap) {
      this.outputCap = most;
      return true;
    }
    // Refused without saying what would do: leave the length to the server.
    this.tokenField = undefined;
    return true;
  }
}

/** The text of a 400/422 answer, where a refused option would be named; else undefined. */
function refusalDetail(caught: unknown): string | undefined {
  if (caught instanceof HttpStatusError) {
    return caught.status === 400 || caught.status === 422 ? caught.detail : undefined;
  }
  if (!(caught instanceof OpenAI.APIError)) return undefined;
  if (caught.status !== 400 && caught.status !== 422) return undefined;
  return `${errorDetail(caught)} ${caught.message}`;
}

export function errorDetail(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return error.message.replace(/^\d{3}\s*/, '') || 'no details';
}
