/**
 * A saved conversation as front ends show it again (a resumed session, an editor's
 * session/load): the person's prompts as typed, the answers, and each tool call with how
 * it ended, described exactly as a live call is (the same parameter names a tool accepts
 * under another name, e.g. `file_path` for read_file, are taken the same way), so a
 * resumed row reads `Read src/math.js` as it did live.
 */

import type { ChatMessage } from '../models/model-types.js';
import { callParams } from '../scheduler/call-requests.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { AnyTool } from '../tools/tools.js';
import { visibleText } from '../utils/visible-text.js';
import { promptAsTyped, withoutAppNote } from './prompt-notes.js';

export interface ResumedCall {
  callId: string;
  /** The name the model called. */
  toolName: string;
  /** The tool's display name (the called name when the tool is not here now). */
  displayName: string;
  /** The arguments, as the tool takes them. */
  args: Record<string, unknown>;
  /** The tool's one-line description of the call, as live rows show it. */
  description: string;
  /** `cancelled`: it has no answer in the conversation. */
  status: 'success' | 'error' | 'cancelled';
  /** What the model was told it returned. */
  result: string;
  /** Why it failed, in a line. */
  failure?: string;
}

export type ResumedItem =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | { kind: 'tools'; calls: ResumedCall[] };

export function resumedItems(
  messages: readonly ChatMessage[],
  registry: ToolRegistry,
): ResumedItem[] {
  const items: ResumedItem[] = [];
  const callsById = new Map<string, ResumedCall>();
  let previous: ChatMessage | undefined;
  for (const message of messages) {
    const before = previous;
    previous = message;
    if (message.role === 'user') {
      const text = withoutAppNote(textOf(message.content));
      // Media attached after tool results travel as a user message of parts: not a prompt.
      const afterToolResults = before?.role === 'tool';
      if (text.trim() && (typeof message.content === 'string' || !afterToolResults))
        items.push({ kind: 'user', text: promptAsTyped(text) });
    } else if (message.role === 'assistant') {
      const text = textOf(message.content ?? '');
      if (text.trim()) items.push({ kind: 'assistant', text: text.trim() });
      const calls: ResumedCall[] = [];
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        const tool = registry.getTool(call.function.name);
        const raw = parseArgs(call.function.arguments);
        const args = tool ? callParams(tool, raw) : raw;
        const resumed: ResumedCall = {
          callId: call.id,
          toolName: call.function.name,
          displayName: tool?.displayName ?? call.function.name,
          args,
          description: describeCall(tool, args),
          status: 'cancelled',
          result: '',
        };
        calls.push(resumed);
        callsById.set(call.id, resumed);
      }
      if (calls.length > 0) items.push({ kind: 'tools', calls });
    } else if (message.role === 'tool') {
      const call = callsById.get(message.tool_call_id);
      if (!call) continue;
      const content = textOf(message.content);
      call.result = content;
      call.status = content.startsWith('Error') ? 'error' : 'success';
      if (call.status === 'error')
        call.failure = content.replace(/^Error:\s*/, '').split('\n')[0] ?? '';
    }
  }
  return items;
}

/**
 * The tool's own one-line description of a call (its arguments as the tool takes them),
 * or the arguments when it has none; shown escaped.
 */
export function describeCall(tool: AnyTool | undefined, args: Record<string, unknown>): string {
  if (tool) {
    try {
      const description = tool.getDescription(args);
      if (description) return oneLine(description);
    } catch {
      // arguments the tool cannot describe: show them instead
    }
  }
  const text = JSON.stringify(args);
  return text === '{}' ? '' : oneLine(text);
}

function oneLine(text: string): string {
  const line = visibleText(text.replace(/\s*\n\s*/g, ' ').trim());
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
    .join('');
}

function parseArgs(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
