/** Exit codes of the toolhost command. */
export const ExitCode = {
  Success: 0,
  ToolError: 1,
  /** The agent's run failed (the endpoint unusable after retries, a loop, ...). */
  Failed: 1,
  Usage: 2,
  NeedsConfirmation: 3,
  /** The model refused, or a safety system stopped the answer or blocked the prompt. */
  Refused: 4,
  /** The agent reached --max-session-turns (as Qwen Code). */
  TurnLimit: 53,
  /** The agent spent --max-tool-calls or --max-wall-time (as Qwen Code). */
  Budget: 55,
  Interrupted: 130,
} as const;

/** A mistake in how the command was called: one line on stderr, exit 2, no stack trace. */
export class UsageError extends Error {}
