/**
 * The hooks around the conversation rather than a call: UserPromptSubmit (block a prompt or
 * add context to it), Stop and SubagentStop (keep the agent going with a reason),
 * PreCompact, SessionStart (context for the first prompt), SessionEnd and Notification.
 * Each returns what the agent loop or the front end acts on; none throws.
 */

import { type Part, partsToText } from '../contract/content.js';
import type { HookRunner } from './hook-runner.js';
import { stopHookNote } from './stop-hook-note.js';

/** The loop's hooks, and the subagent it runs (undefined: the main agent). */
export interface LoopHooks {
  hooks?: HookRunner | undefined;
  subagent?: string | undefined;
}

export interface PromptVerdict {
  /** The prompt must not reach the model: why (for the person). */
  blocked?: string;
  /** Text added to the prompt for the model. */
  context?: string;
}

export async function promptSubmitted(
  hooks: HookRunner,
  prompt: string,
  signal: AbortSignal,
): Promise<PromptVerdict> {
  if (!hooks.has('UserPromptSubmit')) return {};
  const outcome = await hooks.run('UserPromptSubmit', { prompt }, undefined, signal);
  const blocked = [...outcome.blocked, ...(outcome.stop?.reason ? [outcome.stop.reason] : [])];
  if (blocked.length > 0 || outcome.stop)
    return { blocked: blocked.join('\n') || 'a hook stopped it (no reason given)' };
  return outcome.context.length > 0 ? { context: outcome.context.join('\n') } : {};
}

/**
 * The prompt with the context hooks add (`pending`: SessionStart's; UserPromptSubmit's), or
 * why a UserPromptSubmit hook blocked it (a subagent's prompt is no person's: no hook runs).
 */
export async function withHookContext(
  { hooks, subagent }: LoopHooks,
  prompt: string | readonly Part[],
  pending: readonly (string | undefined)[],
  signal: AbortSignal,
): Promise<{ prompt: string | readonly Part[] } | { blocked: string }> {
  const text = typeof prompt === 'string' ? prompt : partsToText([...prompt]);
  const verdict = hooks && subagent === undefined ? await promptSubmitted(hooks, text, signal) : {};
  if (verdict.blocked)
    return { blocked: `A UserPromptSubmit hook blocked the prompt: ${verdict.blocked}` };
  const context = [...pending, verdict.context].filter((text): text is string => Boolean(text));
  if (context.length === 0) return { prompt };
  const note = `[Context from the person's hooks]\n${context.join('\n')}`;
  return {
    prompt: typeof prompt === 'string' ? `${prompt}\n\n${note}` : [...prompt, { text: note }],
  };
}

/**
 * Stop (or SubagentStop for a subagent): what the agent is told to go on, or undefined when
 * it may stop. `active` says a Stop hook already kept it going in this run.
 */
export async function stopping(
  { hooks, subagent }: LoopHooks,
  lastMessage: string,
  active: boolean,
  signal: AbortSignal,
): Promise<string | undefined> {
  const event = subagent === undefined ? 'Stop' : 'SubagentStop';
  if (!hooks?.has(event)) return undefined;
  const fields = {
    stop_hook_active: active,
    last_assistant_message: lastMessage,
    ...(subagent === undefined ? {} : { agent_type: subagent }),
  };
  const outcome = await hooks.run(
    event,
    fields,
    subagent === undefined ? undefined : [subagent],
    signal,
  );
  if (outcome.stop) return undefined;
  if (outcome.blocked.length === 0) return undefined;
  return stopHookNote(event, outcome.blocked);
}

export async function compacting(
  hooks: HookRunner,
  trigger: 'manual' | 'auto',
  signal: AbortSignal,
): Promise<void> {
  if (!hooks.has('PreCompact')) return;
  await hooks.run('PreCompact', { trigger, custom_instructions: '' }, [trigger], signal);
}

/** SessionStart: context for the model's first prompt, if the hooks give some. */
export async function sessionStarted(
  hooks: HookRunner,
  source: 'startup' | 'resume' | 'clear' | 'compact',
  model: string,
): Promise<string | undefined> {
  if (!hooks.has('SessionStart')) return undefined;
  const outcome = await hooks.run('SessionStart', { source, model }, [source]);
  return outcome.context.length > 0 ? outcome.context.join('\n') : undefined;
}

export async function sessionEnded(
  hooks: HookRunner,
  reason: 'clear' | 'logout' | 'prompt_input_exit' | 'other',
): Promise<void> {
  if (hooks.has('SessionEnd')) await hooks.run('SessionEnd', { reason }, [reason]);
}

/** Notification (the person is asked to approve a call); it does not hold the question up. */
export function notify(hooks: HookRunner, message: string, type = 'permission_prompt'): void {
  if (!hooks.has('Notification')) return;
  void hooks.run('Notification', { message, title: 'toolhost', notification_type: type }, [type]);
}
