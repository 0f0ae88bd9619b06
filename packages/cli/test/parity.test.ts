/**
 * Parity of the four front ends: the same scripted conversation through `-p`, stream-json,
 * ACP (the SDK's client) and the terminal in tmux: a write, an edit, a shell command a
 * deny rule refuses, a command whose question is answered no, a command cancelled while it
 * runs, then the session resumed. Each must leave the same files, the same calls run and
 * refused (read back from the session file), and the same checkpoints.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listCheckpoints, listSessions, loadSession } from '@toolhost/core/conversation';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ModelServer,
  type RecordedRequest,
  type ScriptStep,
  startModelServer,
} from '../../core/test/helpers/model-server.js';
import { processesMatching, uniqueSleep, waitUntil } from '../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { newSession, pick, prompt, startEditor } from './helpers/acp-editor.js';
import {
  type SessionPlace,
  sessionEnvironment,
  startSession,
  userTurn,
} from './helpers/stream-session.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { idle, openApp, send } from './helpers/tui-app.js';
import { CLI } from './run-cli.js';

const FLAGS = ['--approval-mode', 'auto-edit'];
const PROMPTS = ['write notes', 'edit notes', 'clean build', 'make asked', 'wait long'] as const;

/** The model's part: each prompt's calls in order, then a short answer. */
function script(root: () => string, sleep: string) {
  const notes = () => path.join(root(), 'notes.txt');
  const calls: Record<string, ScriptStep[]> = {
    'write notes': [
      { toolCalls: [{ name: 'write_file', args: { file_path: notes(), content: 'one\n' } }] },
    ],
    'edit notes': [
      { toolCalls: [{ name: 'read_file', args: { absolute_path: notes() } }] },
      {
        toolCalls: [
          { name: 'edit', args: { file_path: notes(), old_string: 'one', new_string: 'two' } },
        ],
      },
    ],
    'clean build': [
      { toolCalls: [{ name: 'run_shell_command', args: { command: 'rm -rf build' } }] },
    ],
    'make asked': [
      { toolCalls: [{ name: 'run_shell_command', args: { command: 'mkdir asked' } }] },
    ],
    'wait long': [
      {
        toolCalls: [
          { name: 'run_shell_command', args: { command: `sleep ${sleep} && touch late.txt` } },
        ],
      },
    ],
  };
  return (request: RecordedRequest): ScriptStep => {
    const messages = request.body.messages;
    const lastPrompt = messages.findLastIndex(
      (message) => message.role === 'user' && typeof message.content === 'string',
    );
    const text = String(messages[lastPrompt]?.content ?? '');
    if (text.includes('recall'))
      return {
        text: JSON.stringify(messages).includes('write notes')
          ? 'I remember.'
          : 'Nothing to recall.',
      };
    const step = Object.keys(calls).find((name) => text.includes(name));
    const answered = messages.slice(lastPrompt).filter((m) => m.role === 'assistant').length;
    return (step ? calls[step]?.[answered] : undefined) ?? { text: `Done: ${step ?? 'nothing'}.` };
  };
}

interface Run {
  dirs: TempDirs;
  server: ModelServer;
  sleep: string;
  place: SessionPlace;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The project every front end starts from: a build folder, and the person's rules. */
function placeProject(dirs: { root: string; home: string }): void {
  mkdirSync(path.join(dirs.root, 'build'));
  writeFileSync(path.join(dirs.root, 'build', 'out.txt'), 'built\n');
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({
      permissions: { allow: ['Bash(sleep:*)', 'Bash(touch:*)'], deny: ['Bash(rm:*)'] },
    }),
  );
}

async function prepare(): Promise<Run> {
  const dirs = makeTempDirs();
  const sleep = uniqueSleep();
  const server = await startModelServer(script(() => dirs.root, sleep));
  cleanups.push(
    () => dirs.cleanup(),
    () => server.close(),
  );
  placeProject(dirs);
  return {
    dirs,
    server,
    sleep,
    place: { root: dirs.root, home: dirs.home, baseUrl: server.baseUrl },
  };
}

/** Waits for the long command to run, then for it to be gone after `cancel`. */
async function cancelWhileRunning(run: Run, cancel: () => void): Promise<void> {
  expect(await waitUntil(() => processesMatching(`sleep ${run.sleep}`).length > 0, 20_000)).toBe(
    true,
  );
  cancel();
  expect(await waitUntil(() => processesMatching(`sleep ${run.sleep}`).length === 0, 20_000)).toBe(
    true,
  );
}

/** What a front end left behind: files, the calls run and refused, the checkpoints. */
function outcome(run: Run) {
  const { root, home } = run.dirs;
  const userDir = path.join(home, '.toolhost');
  const projectRoot = realpathSync(root);
  const [session] = listSessions(userDir, projectRoot);
  const history = session ? loadSession(session.file).history : [];
  const calls: string[] = [];
  for (const message of history) {
    if (message.role !== 'tool') continue;
    const call = history
      .flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))
      .find((c) => c.id === message.tool_call_id);
    const content =
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
    const name = call?.type === 'function' ? call.function.name : '?';
    calls.push(`${content.startsWith('Error') ? 'not run' : 'ran'}: ${name}`);
  }
  const checkpoints = listCheckpoints({ userDir, projectRoot }, {})
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((checkpoint) => checkpoint.toolCalls.map((call) => call.name).join(','));
  return {
    notes: readFileSync(path.join(root, 'notes.txt'), 'utf8'),
    build: existsSync(path.join(root, 'build', 'out.txt')),
    asked: existsSync(path.join(root, 'asked')),
    late: existsSync(path.join(root, 'late.txt')),
    calls,
    checkpoints,
    sessions: listSessions(userDir, projectRoot).length,
    recalled: JSON.stringify(run.server.requests.at(-1)?.body.messages ?? []).includes(
      'write notes',
    ),
  };
}

const EXPECTED = {
  notes: 'two\n',
  build: true,
  asked: false,
  late: false,
  calls: [
    'ran: write_file',
    'ran: read_file',
    'ran: edit',
    'not run: run_shell_command',
    'not run: run_shell_command',
    'not run: run_shell_command',
  ],
  // The refused and declined commands got none; the cancelled one ran, so it has one.
  checkpoints: ['write_file', 'edit', 'run_shell_command'],
  sessions: 1,
  recalled: true,
};

/** One `-p` run to its end; the exit code. */
function headless(run: Run, args: string[]): Promise<number | null> {
  const child = spawn(CLI, [...FLAGS, ...args], {
    cwd: run.dirs.root,
    env: sessionEnvironment(run.place),
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  return new Promise((resolve) => child.on('close', resolve));
}

describe('the same conversation through every front end', { timeout: 240_000 }, () => {
  it('headless -p, one run a prompt, continued with -c', async () => {
    const run = await prepare();
    for (const [index, text] of PROMPTS.entries()) {
      const continued = index === 0 ? [] : ['-c'];
      if (text === 'wait long') {
        const child = spawn(CLI, [...FLAGS, ...continued, '-p', text], {
          cwd: run.dirs.root,
          env: sessionEnvironment(run.place),
          stdio: ['ignore', 'ignore', 'ignore'],
        });
        const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
        await cancelWhileRunning(run, () => child.kill('SIGINT'));
        expect(await closed).toBe(130);
      } else {
        await headless(run, [...continued, '-p', text]);
      }
    }
    await headless(run, ['-c', '-p', 'recall']);
    expect(outcome(run)).toEqual(EXPECTED);
  });

  it('stream-json, the host answering the question no and interrupting the command', async () => {
    const run = await prepare();
    const children: ChildProcess[] = [];
    cleanups.push(() => {
      for (const child of children) child.kill('SIGKILL');
    });
    const session = startSession(run.place, FLAGS, children);
    for (const text of PROMPTS) {
      const from = session.events.length;
      session.send(userTurn(text));
      if (text === 'make asked') {
        const question = await session.next(
          (e) => e.type === 'control_request',
          'a question',
          from,
        );
        session.send({
          type: 'control_response',
          response: {
            subtype: 'success',
            request_id: question.request_id,
            response: { behavior: 'deny', message: 'no' },
          },
        });
      }
      if (text === 'wait long')
        await cancelWhileRunning(run, () =>
          session.send({
            type: 'control_request',
            request_id: 'stop',
            request: { subtype: 'interrupt' },
          }),
        );
      await session.next((e) => e.type === 'result', `the result of "${text}"`, from);
    }
    session.end();
    expect(await session.exited).toBe(0);
    const resumed = startSession(run.place, [...FLAGS, '-c'], children);
    resumed.send(userTurn('recall'));
    await resumed.next((e) => e.type === 'result', 'the result of recall');
    resumed.end();
    await resumed.exited;
    expect(outcome(run)).toEqual(EXPECTED);
  });

  it('ACP, the editor rejecting the question and cancelling the command, then loading the session', async () => {
    const run = await prepare();
    const env = sessionEnvironment(run.place);
    const editor = startEditor({
      cwd: run.dirs.root,
      home: run.dirs.home,
      env,
      flags: FLAGS,
      answer: pick('reject_once'),
    });
    cleanups.push(() => void editor.close());
    const { sessionId } = await newSession(editor);
    for (const text of PROMPTS) {
      const answered = prompt(editor, sessionId, text);
      if (text === 'wait long')
        await cancelWhileRunning(
          run,
          () => void editor.connection.agent.notify('session/cancel', { sessionId }),
        );
      await answered;
    }
    await editor.close();
    const again = startEditor({ cwd: run.dirs.root, home: run.dirs.home, env, flags: FLAGS });
    cleanups.push(() => void again.close());
    await newSession(again);
    await again.connection.agent.request('session/load', {
      sessionId,
      cwd: run.dirs.root,
      mcpServers: [],
    });
    await prompt(again, sessionId, 'recall');
    await again.close();
    expect(outcome(run)).toEqual(EXPECTED);
  });

  it.skipIf(!hasTmux)(
    `the terminal in tmux, n to the question, Esc to the command${tmuxSkipReason}`,
    async () => {
      const sleep = uniqueSleep();
      let root = '';
      const app = await openApp((request) => script(() => root, sleep)(request), {
        args: FLAGS,
        prepare: (dirs) => {
          root = dirs.root;
          placeProject(dirs);
        },
      });
      cleanups.push(() => app.close());
      const run: Run = {
        dirs: app.dirs,
        server: app.server,
        sleep,
        place: { root: app.dirs.root, home: app.dirs.home, baseUrl: app.server.baseUrl },
      };
      for (const text of PROMPTS) {
        send(app.terminal, text);
        if (text === 'make asked') {
          await app.terminal.waitFor('(n)');
          app.terminal.press('n');
        }
        if (text === 'wait long') await cancelWhileRunning(run, () => app.terminal.press('Escape'));
        await app.terminal.waitFor(text === 'wait long' ? 'Cancelled' : `Done: ${text}.`);
        await idle(app.terminal);
      }
      app.terminal.press('C-d');
      expect(await app.terminal.waitForExit()).toBe(0);
      const again = app.restart([...FLAGS, '-c']);
      await again.waitFor('Ask anything');
      send(again, 'recall');
      await again.waitFor('I remember.');
      again.press('C-d');
      await again.waitForExit();
      expect(outcome(run)).toEqual(EXPECTED);
    },
  );
});
