/**
 * `!command` lines: the command runs through run_shell_command (the same rules,
 * approvals and sandbox as the model's commands), the person sees its output, and the
 * model is told about it with the next prompt, so "why did that fail?" needs no paste.
 */

import type { ToolRunner } from '@toolhost/core/conversation';
import { partsToText } from '@toolhost/core/tools';

/** The command of a `!` line, or undefined for any other line. */
export function shellCommandOf(line: string): string | undefined {
  const trimmed = line.trimStart();
  if (!trimmed.startsWith('!')) return undefined;
  return trimmed.slice(1).trim();
}

/** What the model reads about a command run at the prompt (output cut to its end). */
const MAX_NOTE_CHARS = 8_000;

export interface ShellLineResult {
  status: 'success' | 'error' | 'cancelled';
  /** For the model, sent with the next prompt. */
  note: string;
}

export async function runShellLine(
  command: string,
  runTool: ToolRunner,
  signal: AbortSignal,
): Promise<ShellLineResult> {
  const call = await runTool(
    'run_shell_command',
    { command, is_background: false, description: 'Run by the person at the prompt' },
    signal,
  );
  const output = partsToText(call.response.llmContent).trim();
  const shown =
    output.length > MAX_NOTE_CHARS
      ? `[…]\n${output.slice(output.length - MAX_NOTE_CHARS)}`
      : output;
  const what =
    call.status === 'cancelled'
      ? 'It did not run (declined or cancelled).'
      : `Result:\n${shown || '(no output)'}`;
  return {
    status: call.status,
    note: `The person ran this shell command in the terminal: \`${command}\`\n${what}`,
  };
}
