/**
 * Small pieces of a turn that conversation.ts uses and the entry points do not export: the
 * runner that reads a prompt's `@` references through the conversation's own scheduler, and
 * the events a batch of finished calls adds.
 */
import type { AgentToolResult } from '../agent/agent-events.js';
import type { CompletedToolCall, ScheduleInput } from '../scheduler/tool-call-types.js';
import type { ToolRunner } from './at-references.js';
import { type ConversationEvent, todosOf } from './conversation-types.js';

/** A ToolRunner over a scheduler's batch call, numbering its calls as prompt attachments. */
export function attachmentRunner(
  runCalls: (calls: ScheduleInput[], signal: AbortSignal) => Promise<CompletedToolCall[]>,
): ToolRunner {
  let next = 0;
  return async (name, args, signal) => {
    const [call] = await runCalls([{ callId: `prompt-attachment-${++next}`, name, args }], signal);
    if (!call) throw new Error(`${name} did not run.`);
    return call;
  };
}

/** The todo and plan events a batch of finished calls tells, beside the batch itself. */
export function followUpEvents(results: readonly AgentToolResult[]): ConversationEvent[] {
  const events: ConversationEvent[] = [];
  const todos = todosOf(results);
  if (todos) events.push({ type: 'todos', todos });
  for (const result of results) {
    const plan = result.args.plan;
    if (result.name === 'exit_plan_mode' && result.status === 'success' && typeof plan === 'string')
      events.push({ type: 'plan', plan });
  }
  return events;
}
