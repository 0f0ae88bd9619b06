/**
 * What each model API's client does for the model client (../model-client.ts): one attempt
 * at a request, streamed, assembled into a ModelResponse. Retries, the errors the person
 * reads, cancellation and the switch between models stay in the model client, so every
 * family behaves the same there.
 */
import type { ModelEndpoint } from '../endpoint.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../model-types.js';

export interface AttemptOptions {
  signal: AbortSignal;
  onEvent?: (event: ModelStreamEvent) => void;
}

export interface WireClient {
  /** One attempt; throws what went wrong as it was met (the model client maps it). */
  attempt(request: ModelRequest, options: AttemptOptions): Promise<ModelResponse>;
  /**
   * Adapts to the refusal of an optional part of the request (the answer length, usage in
   * streams) and says whether the attempt is worth making again at once.
   */
  adaptTo?(caught: unknown): boolean;
  /** The model's context window as the server states it, if it can be asked. */
  askContextWindow?(signal?: AbortSignal): Promise<number | undefined>;
  /** The environment variable or setting a refused key comes from, for the error message. */
  readonly keyHint: string;
}

export type WireClientFactory = (
  endpoint: ModelEndpoint,
  headers?: Record<string, string>,
) => WireClient;
