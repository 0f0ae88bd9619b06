/**
 * Turns a tool's `llmContent` into the parts the model receives. Nothing is dropped: all
 * text goes into the function response, and every media part (image, audio, PDF) follows
 * it as its own part.
 */
import { type Part, type PartListUnion, toParts } from '../contract/content.js';

/**
 * The parts for a completed call: one `functionResponse` with `{ output }` (or `{ error }`)
 * carrying all the text, then each `inlineData`/`fileData` part as it came.
 */
export function convertToFunctionResponse(
  toolName: string,
  callId: string,
  llmContent: PartListUnion,
  options: { isError?: boolean } = {},
): Part[] {
  const parts = toParts(llmContent);
  const texts: string[] = [];
  const media: Part[] = [];
  let passedThrough: Record<string, unknown> | undefined;
  for (const part of parts) {
    if (part.functionResponse) {
      // A tool (an MCP proxy, say) may already have built a response: keep its content.
      passedThrough = part.functionResponse.response;
      continue;
    }
    if (typeof part.text === 'string') texts.push(part.text);
    if (part.inlineData || part.fileData) media.push(part);
  }
  let text = texts.join('\n');
  if (text === '' && media.length > 0) {
    text = `The result is in the ${media.length === 1 ? 'attached part' : `${media.length} attached parts`} (${media
      .map((part) => part.inlineData?.mimeType ?? part.fileData?.mimeType ?? 'unknown type')
      .join(', ')}).`;
  }
  // A failure's message is stored bare: adapters add the one `Error: ` prefix.
  if (options.isError) text = text.replace(/^(\s*Error:\s*)+/i, '');
  const key = options.isError ? 'error' : 'output';
  const response = passedThrough && text === '' ? passedThrough : { ...passedThrough, [key]: text };
  return [{ functionResponse: { id: callId, name: toolName, response } }, ...media];
}

/** The response for a call that never ran or failed: the message under `error`. */
export function createErrorResponse(toolName: string, callId: string, message: string): Part[] {
  return [{ functionResponse: { id: callId, name: toolName, response: { error: message } } }];
}
