import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import {
  killMatching,
  processesMatching,
  uniqueSleep,
  waitUntil,
} from '../../core/test/helpers/processes.js';
import { modelProject } from './helpers/model-project.js';
import { runCliAsync, startInstalledCli } from './run-cli.js';

let root: string;
let home: string;
const project = modelProject((dirs) => {
  ({ root, home } = dirs);
});
/** Commands a test started that a kill -9 of toolhost leaves running. */
const leftovers: string[] = [];
afterEach(() => {
  for (const marker of leftovers.splice(0)) killMatching(marker);
});

type Message = { role: string; content?: unknown; tool_calls?: unknown[] };

describe('sessions', { timeout: 240_000 }, () => {
  it('a session killed with -9 mid-call resumes from its last complete exchange (-c, -r, toolhost sessions)', async () => {
    writeFileSync(path.join(root, 'notes.txt'), 'remember: the build uses make\n');
    const seconds = uniqueSleep();
    leftovers.push(`sleep ${seconds}`);
    project.server = await startModelServer((request) => {
      const messages = request.body.messages as Message[];
      const last = messages.at(-1)!;
      const text = JSON.stringify(last.content);
      if (last.role === 'user' && text.includes('first task')) {
        return {
          toolCalls: [
            { id: 'r1', name: 'read_file', args: { absolute_path: path.join(root, 'notes.txt') } },
          ],
        };
      }
      if (last.role === 'tool' && text.includes('the build uses make')) {
        return {
          toolCalls: [
            {
              id: 's1',
              name: 'run_shell_command',
              args: { command: `sleep ${seconds}`, is_background: false },
            },
          ],
        };
      }
      return { text: `Answer to ${messages.length} messages.` };
    });
    const env = {
      OPENAI_BASE_URL: project.server.baseUrl,
      OPENAI_API_KEY: 'k',
      OPENAI_MODEL: 'scripted-model',
    };

    const first = startInstalledCli(['-p', 'first task', '--yolo', '-o', 'stream-json'], {
      cwd: root,
      home,
      env,
    });
    expect(await waitUntil(() => processesMatching(`sleep ${seconds}`).length > 0, 90_000)).toBe(
      true,
    );
    first.child.kill('SIGKILL');
    await first.done;
    // kill -9 leaves the command running: end it here (the point is the session file).
    killMatching(`sleep ${seconds}`);
    const sessionId = (JSON.parse(first.stdout().split('\n')[0]!) as { session_id: string })
      .session_id;
    const sessions = path.join(home, '.toolhost', 'sessions');
    expect(readdirSync(sessions)).toEqual([expect.stringMatching(/^project-[0-9a-f]{16}$/)]);
    expect(readdirSync(path.join(sessions, readdirSync(sessions)[0]!))).toEqual([
      `${sessionId}.jsonl`,
    ]);

    const listed = await runCliAsync(['sessions'], { cwd: root, home });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(sessionId);
    expect(listed.stdout).toContain('first task');

    const resumed = await runCliAsync(['-c', '-p', 'continue please', '-o', 'json'], {
      cwd: root,
      home,
      env,
    });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(
      /up to its last complete exchange \(\d+ messages? of an unfinished exchange left out\)/,
    );
    const events = JSON.parse(resumed.stdout) as { type: string; session_id: string }[];
    expect(events[0]!.session_id).toBe(sessionId);
    const sent = project.server.requests.at(-1)!.body.messages as Message[];
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(sent[1]!.content).toBe('first task');
    expect(sent[4]!.content).toBe('continue please');

    const again = await runCliAsync(['-r', sessionId.slice(0, 8), '-p', 'third'], {
      cwd: root,
      home,
      env,
    });
    expect(again.code).toBe(0);
    const third = project.server.requests.at(-1)!.body.messages as Message[];
    expect(third.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
      'user',
    ]);

    const missing = await runCliAsync(['-r', 'no-such-id', '-p', 'x'], { cwd: root, home, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No session "no-such-id"/);
    const json = JSON.parse(
      (await runCliAsync(['sessions', '--json'], { cwd: root, home })).stdout,
    ) as {
      session_id: string;
      messages: number;
    }[];
    expect(json).toEqual([expect.objectContaining({ session_id: sessionId, messages: 7 })]);
  });

  it('two projects whose names differ only in punctuation keep their own sessions (-c never continues the other)', async () => {
    const first = path.join(project.dirs.base, 'acme_api');
    const second = path.join(project.dirs.base, 'acme-api');
    mkdirSync(first);
    mkdirSync(second);
    project.server = await startModelServer(() => ({ text: 'noted' }));
    const env = {
      OPENAI_BASE_URL: project.server.baseUrl,
      OPENAI_API_KEY: 'k',
      OPENAI_MODEL: 'scripted-model',
    };
    const recorded = await runCliAsync(['-p', 'the acme_api secret is 4242'], {
      cwd: first,
      home,
      env,
    });
    expect(recorded.code).toBe(0);
    expect(project.server.requests).toHaveLength(1);

    const other = await runCliAsync(['-c', '-p', 'hi'], { cwd: second, home, env });
    expect(other.stderr).toMatch(/no earlier session in .*acme-api/);
    expect(other.code).toBe(2);
    expect(JSON.stringify(project.server.requests.slice(1).map((r) => r.body))).not.toContain(
      '4242',
    );

    // The first project still continues its own conversation.
    const own = await runCliAsync(['-c', '-p', 'and again'], { cwd: first, home, env });
    expect(own.code).toBe(0);
    expect(JSON.stringify(project.server.requests.at(-1)!.body)).toContain('4242');
  });

  it('sessions stored under the old shared folder name stay with the project that recorded them', async () => {
    const first = path.join(project.dirs.base, 'acme_api');
    const second = path.join(project.dirs.base, 'acme-api');
    mkdirSync(first);
    mkdirSync(second);
    // Both projects' old folder name: the path with its punctuation made dashes.
    const legacy = path.join(home, '.toolhost', 'sessions', first.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(legacy, { recursive: true });
    const session = (id: string, cwd: string, prompt: string) =>
      writeFileSync(
        path.join(legacy, `${id}.jsonl`),
        [
          {
            type: 'session',
            version: 1,
            sessionId: id,
            cwd,
            model: 'm',
            at: '2026-01-01T00:00:00Z',
          },
          {
            type: 'message',
            at: '2026-01-01T00:00:01Z',
            message: { role: 'user', content: prompt },
          },
          {
            type: 'message',
            at: '2026-01-01T00:00:02Z',
            message: { role: 'assistant', content: 'ok' },
          },
        ]
          .map((record) => JSON.stringify(record))
          .join('\n') + '\n',
      );
    session('aaaa-1111', first, 'the acme_api secret is 4242');
    project.server = await startModelServer(() => ({ text: 'noted' }));
    const env = {
      OPENAI_BASE_URL: project.server.baseUrl,
      OPENAI_API_KEY: 'k',
      OPENAI_MODEL: 'scripted-model',
    };
    const other = await runCliAsync(['-c', '-p', 'hi'], { cwd: second, home, env });
    expect(other.code).toBe(2);
    expect(project.server.requests).toHaveLength(0);

    const listed = await runCliAsync(['sessions'], { cwd: first, home });
    expect(listed.stdout).toContain('aaaa-1111');
    const own = await runCliAsync(['-c', '-p', 'and again'], { cwd: first, home, env });
    expect(own.code).toBe(0);
    expect(JSON.stringify(project.server.requests.at(-1)!.body)).toContain('4242');
  });
});
