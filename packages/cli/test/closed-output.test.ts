/**
 * A reader that stops reading (`toolhost call ... | head -2`) closes the command's output.
 * The installed command then ends quietly, as a program killed by SIGPIPE would (exit 141),
 * with no stack trace and nothing left running. The read end of the pipe is closed before
 * the command writes anything, so its first write always meets a closed pipe.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { modelProject } from './helpers/model-project.js';
import { CLI } from './run-cli.js';

const project = modelProject((dirs) => {
  writeFileSync(path.join(dirs.root, 'notes.txt'), 'remember the milk\n'.repeat(500));
});

/** Runs the command with its stdout closed by the reader at once; its exit and stderr. */
function runWithClosedOutput(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(CLI, args, {
    cwd: project.dirs.root,
    env: {
      PATH: process.env.PATH,
      HOME: project.dirs.home,
      TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(project.dirs.home, 'no-system-settings.json'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
}

describe('a closed standard output', { timeout: 60_000 }, () => {
  it.each([
    ['tools --json', () => ['tools', '--json']],
    [
      'call read_file',
      () => ['call', 'read_file', `{"absolute_path":"${project.dirs.root}/notes.txt"}`],
    ],
    [
      'call --json',
      () => ['call', '--json', 'read_file', `{"absolute_path":"${project.dirs.root}/notes.txt"}`],
    ],
  ])('ends "%s" quietly with the exit code of SIGPIPE', async (_name, args) => {
    const { code, stderr } = await runWithClosedOutput(args());
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });

  it('ends a headless stream-json run quietly', async () => {
    project.server = await startModelServer(() => ({ text: 'hello there' }));
    const { code, stderr } = await runWithClosedOutput(['-p', 'hi', '-o', 'stream-json'], {
      OPENAI_BASE_URL: project.server.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'scripted-model',
    });
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(code).toBe(141);
  });
});
