/**
 * Runs real command lines through the real scheduler and run_shell_command, each in a
 * fresh folder of one shared workspace, so policy tests can prove their result by what
 * happened on disk (a canary file created or kept), not by the decision alone.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Config } from '../../src/config/config.js';
import type { Settings } from '../../src/config/settings.js';
import {
  type ToolCallConfirmationDetails,
  ToolConfirmationOutcome,
} from '../../src/tools/tools.js';
import { outputOf, scriptedScheduler } from './scheduler.js';
import type { TempWorkspace } from './temp-workspace.js';

export type Mode = 'default' | 'yolo';

export interface PolicyRun {
  status: string;
  errorType?: string;
  message: string;
  /** What the person was asked, if anything. */
  asked: ToolCallConfirmationDetails[];
}

let counter = 0;

/** A new empty folder inside the workspace, with `setup` run in it. */
export function caseFolder(ws: TempWorkspace, setup?: (dir: string) => void): string {
  const dir = path.join(ws.root, `case-${++counter}`);
  mkdirSync(dir);
  setup?.(dir);
  return dir;
}

/**
 * Schedules one run_shell_command call. The person, when asked, answers `answer`
 * (default: cancel, so nothing that asks can run).
 */
export async function runThroughScheduler(
  ws: TempWorkspace,
  command: string,
  options: {
    mode: Mode;
    settings?: Settings;
    directory: string;
    answer?: ToolConfirmationOutcome;
  },
): Promise<PolicyRun> {
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: options.settings ?? {},
    approvalMode: options.mode,
  });
  const { call, asked } = scriptedScheduler(config, {
    answer: options.answer ?? ToolConfirmationOutcome.Cancel,
  });
  try {
    const done = await call('run_shell_command', {
      command,
      is_background: false,
      directory: options.directory,
      timeout: 20_000,
    });
    return {
      status: done.status,
      errorType: done.response.error?.type,
      message: done.response.error?.message ?? outputOf(done),
      asked,
    };
  } finally {
    await config.dispose();
  }
}
