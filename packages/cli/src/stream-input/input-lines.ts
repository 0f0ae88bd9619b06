/**
 * One line of `--input-format stream-json` read into what it asks for, in the shapes Qwen
 * Code and the Claude Agent SDK write: a `user` turn, a `control_request` (the host asks
 * toolhost), a `control_response` (the host answers toolhost's question), or a
 * `control_cancel_request`. A line that is none of these says what is wrong with it.
 */

import type { PromptContent } from '@toolhost/core/conversation';
import type { Part } from '@toolhost/core/tools';

export type InputLine =
  | { kind: 'user'; content: PromptContent }
  | { kind: 'control_request'; requestId: string; request: ControlRequestBody }
  | {
      kind: 'control_response';
      requestId: string;
      /** The host's answer, or undefined when it answered with an error. */
      response: Record<string, unknown> | undefined;
      error?: string;
    }
  | { kind: 'control_cancel_request'; requestId: string | undefined }
  /** Lines a host may send that ask for nothing (keep_alive). */
  | { kind: 'nothing' }
  | { kind: 'invalid'; problem: string };

export type ControlRequestBody = Record<string, unknown> & { subtype: string };

const SHAPE_HINT =
  'each line must be one JSON object: {"type":"user","message":{"role":"user","content":"..."}}, a control_request or a control_response';

export function readInputLine(line: string): InputLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return {
      kind: 'invalid',
      problem: `not JSON (${error instanceof Error ? error.message : String(error)}); ${SHAPE_HINT}`,
    };
  }
  if (!isObject(value)) return { kind: 'invalid', problem: `not a JSON object; ${SHAPE_HINT}` };
  switch (value.type) {
    case 'user':
      return userTurn(value);
    case 'control_request': {
      const request = value.request;
      if (typeof value.request_id !== 'string' || !isObject(request)) {
        return {
          kind: 'invalid',
          problem:
            'a control_request needs a string "request_id" and a "request" object with a "subtype"',
        };
      }
      if (typeof request.subtype !== 'string') {
        return { kind: 'invalid', problem: 'the control_request\'s "request" has no "subtype"' };
      }
      return {
        kind: 'control_request',
        requestId: value.request_id,
        request: request as ControlRequestBody,
      };
    }
    case 'control_response':
      return controlResponse(value);
    case 'control_cancel_request':
      return {
        kind: 'control_cancel_request',
        requestId: typeof value.request_id === 'string' ? value.request_id : undefined,
      };
    case 'keep_alive':
      return { kind: 'nothing' };
    default:
      return {
        kind: 'invalid',
        problem: `unknown "type" ${JSON.stringify(value.type ?? null)}; ${SHAPE_HINT}`,
      };
  }
}

function userTurn(value: Record<string, unknown>): InputLine {
  const message = value.message;
  if (!isObject(message) || (message.role !== undefined && message.role !== 'user')) {
    return {
      kind: 'invalid',
      problem: 'a user line needs "message": {"role": "user", "content": <text or blocks>}',
    };
  }
  const content = message.content;
  if (typeof content === 'string') {
    return content.trim()
      ? { kind: 'user', content }
      : { kind: 'invalid', problem: 'the user message is empty' };
  }
  if (!Array.isArray(content)) {
    return {
      kind: 'invalid',
      problem: 'the user message\'s "content" must be text or an array of content blocks',
    };
  }
  const parts: Part[] = [];
  for (const [index, block] of content.entries()) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') {
      parts.push({ text: block.text });
      continue;
    }
    const source = isObject(block) ? block.source : undefined;
    if (
      isObject(block) &&
      block.type === 'image' &&
      isObject(source) &&
      source.type === 'base64' &&
      typeof source.media_type === 'string' &&
      typeof source.data === 'string'
    ) {
      parts.push({ inlineData: { mimeType: source.media_type, data: source.data } });
      continue;
    }
    const type = isObject(block) ? JSON.stringify(block.type ?? null) : 'not an object';
    return {
      kind: 'invalid',
      problem: `content block ${index} (${type}) is not one toolhost reads: send {"type":"text","text":...} or {"type":"image","source":{"type":"base64","media_type":...,"data":...}}`,
    };
  }
  if (!parts.some((part) => part.inlineData || part.text?.trim()))
    return { kind: 'invalid', problem: 'the user message is empty' };
  return { kind: 'user', content: parts };
}

function controlResponse(value: Record<string, unknown>): InputLine {
  const response = value.response;
  if (!isObject(response) || typeof response.request_id !== 'string') {
    return {
      kind: 'invalid',
      problem:
        'a control_response needs "response": {"subtype": "success" or "error", "request_id": ..., ...}',
    };
  }
  if (response.subtype === 'error') {
    const error = response.error;
    return {
      kind: 'control_response',
      requestId: response.request_id,
      response: undefined,
      error: isObject(error) ? String(error.message ?? '') : String(error ?? ''),
    };
  }
  return {
    kind: 'control_response',
    requestId: response.request_id,
    response: isObject(response.response) ? response.response : {},
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
