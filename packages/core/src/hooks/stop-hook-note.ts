/**
 * The message a Stop (or SubagentStop) hook's reasons become for the model. Here, below
 * the agent, because the hooks write it and the agent's loop notes must recognise it
 * (a restore goes back past it to the person's own prompt).
 */

const STOP_HOOK_NOTE = /^A (Stop|SubagentStop) hook asks you to continue: /;

/** What the model is told when a Stop (or SubagentStop) hook keeps it going. */
export function stopHookNote(event: 'Stop' | 'SubagentStop', reasons: readonly string[]): string {
  return `A ${event} hook asks you to continue: ${reasons.join('\n')}`;
}

/** Whether a user-role message is a Stop hook's note rather than the person's prompt. */
export function isStopHookNote(text: string): boolean {
  return STOP_HOOK_NOTE.test(text);
}
