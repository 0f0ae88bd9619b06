/**
 * A session with the person's rules around a temporary workspace, for effect tests of
 * shell rules: the real scheduler and the real shell tool, with nobody to answer (a call
 * that would ask is refused), and git repositories made in the workspace with no user or
 * system config of their own.
 */
import { execFileSync } from 'node:child_process';
import { Config } from '../../src/config/config.js';
import type { ApprovalMode, Settings } from '../../src/config/settings.js';
import { outputOf, scriptedScheduler } from './scheduler.js';
import type { TempDirs } from './temp-workspace.js';

export interface RuleSession {
  dirs: TempDirs;
  root: string;
  /** Runs a line through the scheduler: its status and everything it sent back. */
  run(command: string): Promise<{ status: string; text: string }>;
  dispose(): Promise<void>;
}

export function ruleSession(
  dirs: TempDirs,
  permissions: Settings['permissions'],
  approvalMode: ApprovalMode = 'default',
  shell: NonNullable<Settings['tools']>['shell'] = {},
): RuleSession {
  const config = new Config({
    roots: [dirs.root],
    homeDir: dirs.home,
    settings: { permissions, tools: { approvalMode, shell } },
    // Read-only lines run unasked whether or not a sandbox works on this machine.
    parseOnlyAutoApproval: true,
  });
  const scheduled = scriptedScheduler(config, { answer: null });
  return {
    dirs,
    root: dirs.root,
    run: async (command) => {
      const done = await scheduled.call('run_shell_command', { command, is_background: false });
      return { status: done.status, text: `${outputOf(done)} ${JSON.stringify(done.response)}` };
    },
    dispose: () => config.dispose(),
  };
}

/** git with no config but the repository's own and a fixed identity. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
}
