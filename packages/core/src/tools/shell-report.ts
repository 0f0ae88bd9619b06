/** What run_shell_command returns for a command that ran: its output and how it ended. */
import type { ShellRunResult } from '../shell/shell-execution.js';
import { formatBytes } from '../utils/file-content.js';
import type { ToolResult } from './tools.js';

export function shellReport(
  command: string,
  cwd: string,
  timeoutMs: number,
  result: ShellRunResult,
): ToolResult {
  const lines = [`Command: ${command}`, `Directory: ${cwd}`];
  let output = result.output.replace(/\s+$/, '');
  if (result.binaryBytes !== undefined) {
    output += `${output ? '\n' : ''}[binary output: ${formatBytes(result.binaryBytes)} not shown]`;
  }
  lines.push(`Output:${output ? `\n${output}` : ' (none)'}`);
  let ending: string;
  if (result.timedOut)
    ending = `Ended: timed out after ${timeoutMs / 1000} s; the whole process tree was stopped. Raise timeout or use is_background for long-running commands.`;
  else if (result.aborted)
    ending = 'Ended: cancelled by the person; the whole process tree was stopped.';
  else if (result.signal) ending = `Ended by signal ${result.signal}`;
  else ending = `Exit code: ${result.exitCode}`;
  lines.push(ending);
  if (result.leftBehind.length > 0) {
    lines.push(
      `Background PIDs still running: ${result.leftBehind.join(', ')} (ended when the session ends)`,
    );
  }
  const text = lines.join('\n');
  const status = result.timedOut
    ? 'timed out'
    : result.aborted
      ? 'cancelled'
      : result.signal
        ? `signal ${result.signal}`
        : `exit ${result.exitCode}`;
  return { llmContent: text, returnDisplay: `${output || '(no output)'}\n[${status}]` };
}
