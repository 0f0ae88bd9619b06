/** Exit codes of the toolhost command. */
export const ExitCode = {
  Success: 0,
  ToolError: 1,
  Usage: 2,
  NeedsConfirmation: 3,
  Interrupted: 130,
} as const;

/** A mistake in how the command was called: one line on stderr, exit 2, no stack trace. */
export class UsageError extends Error {}
