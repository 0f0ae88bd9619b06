/**
 * The minimal front end of docs/library.md ("The conversation core"), run as a person
 * would run it: against the built library, a scripted model server that asks to write a
 * file, and a person answering the approval on standard input. The file is written after
 * a yes and stays absent after a no; both runs end their turn.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { docExample, REPO } from './helpers/doc-examples.js';

let dirs: TempDirs;
let server: ModelServer;
let exampleDir: string;
beforeEach(async () => {
  dirs = makeTempDirs();
  // Inside the repository, so that '@toolhost/core/conversation' resolves as for a user.
  exampleDir = mkdtempSync(path.join(REPO, '.toolhost-test-example-'));
  writeFileSync(path.join(exampleDir, 'front-end.mjs'), docExample('conversation-front-end').code);
  server = await startModelServer((request) =>
    request.body.messages.at(-1)?.role === 'tool'
      ? { text: 'Done.' }
      : {
          toolCalls: [
            {
              name: 'write_file',
              args: { file_path: path.join(dirs.root, 'hello.txt'), content: 'hello\n' },
            },
          ],
        },
  );
});
afterEach(async () => {
  await server.close();
  rmSync(exampleDir, { recursive: true, force: true });
  dirs.cleanup();
});

/** Runs the example; the answer is typed once the question shows, as a person would. */
function run(answer: string): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const child = spawn(
    process.execPath,
    [path.join(exampleDir, 'front-end.mjs'), 'write hello.txt'],
    {
      cwd: dirs.root,
      env: {
        PATH: process.env.PATH,
        HOME: dirs.home,
        OPENAI_BASE_URL: server.baseUrl,
        OPENAI_API_KEY: 'test',
        OPENAI_MODEL: 'scripted-model',
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (stdout.includes('(y/n)') && child.stdin.writable) child.stdin.write(`${answer}\n`);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    }),
  );
}

describe('the minimal front end built on the conversation core', () => {
  it('asks before the write: no leaves the file absent, yes writes it', async () => {
    const declined = await run('n');
    expect(declined.stderr).toBe('');
    expect(declined.code).toBe(0);
    expect(declined.stdout).toContain('Allow write_file? (y/n)');
    expect(declined.stdout).toContain('cancelled: write_file');
    expect(declined.stdout).toContain('(success)');
    expect(existsSync(path.join(dirs.root, 'hello.txt'))).toBe(false);

    const allowed = await run('y');
    expect(allowed.stdout).toContain('success: write_file');
    expect(allowed.stdout).toContain('Done.');
    expect(readFileSync(path.join(dirs.root, 'hello.txt'), 'utf8')).toBe('hello\n');
  });
});
