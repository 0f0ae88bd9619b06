/**
 * The provider boundary: one adapter per model API (OpenAI Chat Completions plain and
 * strict, OpenAI Responses, Gemini, Anthropic Messages, the Vercel AI SDK), each a pair
 * of functions: declarations out (names, descriptions and schemas each API accepts) and
 * a model turn's results back (a valid message sequence, media in the formats the API
 * and the model take). Adapters only convert: they never run tools, never call a model,
 * and never change the declarations or results they are given.
 */

export {
  AI_SDK_MEDIA,
  type AISDKModelOutput,
  type AISDKTool,
  type AISDKToolOutput,
  type AISDKToolsOptions,
  toAISDKModelOutput,
  toAISDKTools,
} from './ai-sdk.js';
export {
  ANTHROPIC_MEDIA,
  type AnthropicTool,
  type AnthropicToolResultBlock,
  type AnthropicToolResultContent,
  type AnthropicToolResultMessage,
  toAnthropicToolResults,
  toAnthropicTools,
} from './anthropic.js';
export {
  checkDeclarations,
  checkSentDeclarations,
  type SentDeclaration,
} from './declaration-checks.js';
export {
  type DeclarationOptions,
  fitDescription,
  type PreparedDeclaration,
  prepareDeclarations,
  type ToolNameMap,
  toolNameMap,
} from './declarations.js';
export {
  GEMINI_MEDIA,
  type GeminiContent,
  type GeminiFunctionDeclaration,
  type GeminiPart,
  type GeminiResultOptions,
  type GeminiTool,
  toGeminiFunctionResponses,
  toGeminiTools,
} from './gemini.js';
export { type MediaPolicy, type PreparedMedia, prepareMedia } from './media.js';
export { MODALITIES, type Modality, modelModalities } from './modalities.js';
export {
  OPENAI_CHAT_MEDIA,
  type OpenAIContentPart,
  type OpenAIFunctionTool,
  type OpenAIToolResponseMessage,
  type OpenAIToolsOptions,
  toOpenAIToolMessages,
  toOpenAITools,
} from './openai-chat.js';
export {
  OPENAI_RESPONSES_MEDIA,
  type ResponsesFunctionCallOutput,
  type ResponsesToolsOptions,
  toResponsesToolOutputs,
  toResponsesTools,
} from './openai-responses.js';
export { PROVIDERS, type ProviderId, type ProviderRules } from './provider-rules.js';
export { type SchemaDialect, transformSchema } from './schema-transform.js';
export { STRICT_LIMITS, type StrictOutcome, toStrictSchema } from './strict-schema.js';
export {
  collectToolOutputs,
  type ResultOptions,
  type ToolOutput,
  type ToolResponseBatch,
} from './tool-results.js';
