/** Output shaping: a call's result, failure or cancellation as the response the model receives (long text cut and saved). */
import path from 'node:path';
import type { Config } from '../config/config.js';
import { type PartListUnion, partsToText, toParts } from '../contract/content.js';
import type { ToolErrorType, ToolResult } from '../tools/tools.js';
import { convertToFunctionResponse, createErrorResponse } from './function-response.js';
import { truncateAndSave } from './output-truncation.js';
import type { ToolCallRequestInfo, ToolCallResponseInfo } from './tool-call-types.js';

const MODIFIED_NOTE =
  'Note: the person changed your proposed content before it was applied; what was written is their version.';

/** The response for a result the tool returned (which may itself be an error result). */
export async function resultResponse(
  config: Config,
  toolName: string,
  callId: string,
  result: ToolResult,
  modifiedByPerson: boolean,
): Promise<ToolCallResponseInfo> {
  let llmContent: PartListUnion = result.llmContent;
  if (modifiedByPerson) llmContent = [...toParts(llmContent), { text: MODIFIED_NOTE }];
  const { parts, outputFile } = await toResponseParts(
    config,
    toolName,
    callId,
    llmContent,
    Boolean(result.error),
  );
  return {
    callId,
    llmContent,
    responseParts: parts,
    resultDisplay: result.returnDisplay,
    error: result.error,
    ...(outputFile ? { outputFile } : {}),
  };
}

export function errorResponse(
  request: ToolCallRequestInfo,
  type: ToolErrorType,
  message: string,
): ToolCallResponseInfo {
  return {
    callId: request.callId,
    llmContent: `Error: ${message}`,
    responseParts: createErrorResponse(request.name, request.callId, message),
    resultDisplay: message,
    error: { type, message },
  };
}

/** A cancelled call: the model reads the message; the person sees what the tool had shown. */
export function cancelledResponse(
  request: ToolCallRequestInfo,
  message: string,
  result?: ToolResult,
): ToolCallResponseInfo {
  return {
    callId: request.callId,
    llmContent: message,
    responseParts: createErrorResponse(request.name, request.callId, message),
    resultDisplay: result?.returnDisplay ?? message,
    error: undefined,
  };
}

/** Converts content to response parts, cutting long text and saving the whole of it. */
async function toResponseParts(
  config: Config,
  toolName: string,
  callId: string,
  llmContent: PartListUnion,
  isError: boolean,
): Promise<{ parts: ReturnType<typeof convertToFunctionResponse>; outputFile?: string }> {
  const parts = toParts(llmContent);
  const text = partsToText(parts);
  const truncated = await truncateAndSave(text, {
    threshold: config.getTruncateThreshold(),
    ...(config.settings.tools?.truncateOutputLines !== undefined
      ? { maxLines: config.settings.tools.truncateOutputLines }
      : {}),
    directory: path.join(config.projectTempDir, 'tool-outputs'),
    base: config.projectTempDir,
    fileStem: `${toolName}-${callId}`,
  });
  if (truncated.text === text) {
    return { parts: convertToFunctionResponse(toolName, callId, parts, { isError }) };
  }
  const media = parts.filter((part) => part.inlineData || part.fileData);
  const converted = convertToFunctionResponse(
    toolName,
    callId,
    [{ text: truncated.text }, ...media],
    { isError },
  );
  return {
    parts: converted,
    ...(truncated.outputFile ? { outputFile: truncated.outputFile } : {}),
  };
}
