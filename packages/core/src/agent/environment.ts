/** The facts about the machine and project a model needs to act well: date, OS, shell, folders, branch. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { Config } from '../config/config.js';

export interface EnvironmentFacts {
  date: string;
  platform: string;
  shell: string;
  cwd: string;
  roots: string[];
  gitBranch: string | undefined;
}

export function environmentFacts(config: Config, now = new Date()): EnvironmentFacts {
  return {
    date: now.toISOString().slice(0, 10),
    platform: `${os.type()} ${os.release()} (${process.platform}, ${process.arch})`,
    shell: process.env.SHELL ?? (process.platform === 'win32' ? 'cmd.exe' : '/bin/sh'),
    cwd: config.targetDir,
    roots: [...config.workspace.roots],
    gitBranch: gitBranch(config.targetDir),
  };
}

function gitBranch(cwd: string): string | undefined {
  try {
    const branch = execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
    return branch || undefined;
  } catch {
    return undefined;
  }
}

export function describeEnvironment(facts: EnvironmentFacts): string {
  return [
    `- Today's date: ${facts.date}`,
    `- Operating system: ${facts.platform}`,
    `- Shell for run_shell_command: ${facts.shell}`,
    `- Working folder (the project root): ${facts.cwd}`,
    `- Workspace folders you may touch: ${facts.roots.join(', ')}`,
    facts.gitBranch
      ? `- Git branch: ${facts.gitBranch}`
      : '- The project is not a git repository (or git is not installed).',
  ].join('\n');
}
