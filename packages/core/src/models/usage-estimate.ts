/** Usage when an endpoint reports none: estimated from the request and the answer. */
import type { ModelRequest, ModelResponse } from './model-types.js';
import { estimateJsonTokens, estimateTokens, type TokenUsage } from './token-usage.js';

export function estimateUsage(request: ModelRequest, response: ModelResponse): TokenUsage {
  return {
    inputTokens: estimateJsonTokens(request.messages) + estimateJsonTokens(request.tools ?? []),
    outputTokens:
      estimateTokens(response.text) +
      estimateTokens(response.thinking) +
      estimateJsonTokens(response.toolCalls),
    estimated: true,
  };
}
