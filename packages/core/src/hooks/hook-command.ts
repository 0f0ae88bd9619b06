/**
 * Runs one command hook: the shell (bash, else sh) with the event as JSON on standard
 * input, in the project folder, with the person's environment and the project folder under
 * the names Qwen Code's and Claude Code's hooks read. On timeout or cancellation its whole
 * process group is ended (utils/run-process.ts).
 */
import type { CommandHookSettings } from '../contract/settings-types.js';
import { shellProgram } from '../shell/shell-execution.js';
import { type ProcessResult, runProcess } from '../utils/run-process.js';

export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
const MAX_HOOK_OUTPUT = 1024 * 1024;

/** `timeout` in milliseconds; below 1000 it is taken as seconds (Claude Code writes seconds). */
export function hookTimeoutMs(hook: CommandHookSettings): number {
  const timeout = hook.timeout;
  if (timeout === undefined || timeout <= 0) return DEFAULT_HOOK_TIMEOUT_MS;
  return timeout < 1000 ? timeout * 1000 : timeout;
}

export function runHookCommand(
  hook: CommandHookSettings,
  input: object,
  projectDir: string,
  signal?: AbortSignal,
): Promise<ProcessResult> {
  const shell = shellProgram();
  return runProcess(shell.file, shell.args(hook.command), {
    cwd: projectDir,
    input: JSON.stringify(input),
    timeoutMs: hookTimeoutMs(hook),
    maxBytes: MAX_HOOK_OUTPUT,
    env: {
      ...process.env,
      TOOLHOST_PROJECT_DIR: projectDir,
      QWEN_PROJECT_DIR: projectDir,
      CLAUDE_PROJECT_DIR: projectDir,
    },
    ...(signal ? { signal } : {}),
  });
}
