/**
 * `--input-format stream-json` driven as scripts drive it, against the scripted model: the
 * README's host script (a prompt, a streamed answer, approvals answered yes and no, a second
 * turn that keeps the history), and a session driven line by line (control requests,
 * malformed lines, an interrupt that ends a running command, a resumed session).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Script, startModelServer } from '../../core/test/helpers/model-server.js';
import { processesMatching, waitUntil } from '../../core/test/helpers/processes.js';
import { docExample } from './helpers/doc-examples.js';
import {
  sent,
  sessionEnvironment,
  startSession as startStreamSession,
  streamProject,
  userTurn,
} from './helpers/stream-session.js';
import { CLI } from './run-cli.js';

const { project, children, place } = streamProject();
const environment = () => sessionEnvironment(place());
const startSession = (args: string[]) => startStreamSession(place(), args, children);

describe('toolhost --input-format stream-json', { timeout: 180_000 }, () => {
  it('the README host: approvals answered yes and no, two turns with the history kept', async () => {
    const notes = path.join(project.dirs.root, 'notes.txt');
    const ran = path.join(project.dirs.root, 'ran.txt');
    project.server = await startModelServer([
      {
        text: 'Writing the notes.',
        toolCalls: [
          { id: 'call_w', name: 'write_file', args: { file_path: notes, content: 'hi' } },
        ],
        chunkDelayMs: 10,
      },
      {
        toolCalls: [{ id: 'call_s', name: 'run_shell_command', args: { command: `touch ${ran}` } }],
      },
      { text: 'Notes written; no command run.', chunkDelayMs: 10 },
      { text: 'I wrote notes.txt.' },
    ]);
    const script = docExample('stream-json').code;
    const host = path.join(project.dirs.home, 'host.mjs');
    writeFileSync(host, script);
    // Run as a person runs it; the model server answers from this process meanwhile.
    const child = spawn(process.execPath, [host, 'write the notes', 'what did you do?'], {
      cwd: project.dirs.root,
      env: environment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    let errors = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, errors).toBe(0);

    expect(readFileSync(notes, 'utf8')).toBe('hi');
    expect(existsSync(ran)).toBe(false);
    expect(sent(project.server.requests[2])).toContain(
      'this host runs no commands; edit files instead',
    );
    expect(output).toContain('Writing the notes.');
    expect(output).toContain('Notes written; no command run.');
    expect(output).toContain('I wrote notes.txt.');
    expect(output.match(/\[turn success, session /g)).toHaveLength(2);
    // The second turn's request carries the first turn: its prompt and its answer.
    expect(project.server.requests).toHaveLength(4);
    const second = sent(project.server.requests[3]);
    expect(second).toContain('write the notes');
    expect(second).toContain('Notes written; no command run.');
    expect(second).toContain('what did you do?');
  });

  it('control requests, malformed lines, an interrupt that ends the command, a resumed session', async () => {
    const started = path.join(project.dirs.root, 'started.txt');
    const finished = path.join(project.dirs.root, 'finished.txt');
    const allowed = path.join(project.dirs.root, 'allowed.txt');
    const changed = path.join(project.dirs.root, 'changed.txt');
    const script: Script = (request, index) => {
      if (index === 0) {
        return {
          toolCalls: [
            { id: 'call_a', name: 'write_file', args: { file_path: allowed, content: 'a' } },
          ],
        };
      }
      if (index === 1) {
        return {
          toolCalls: [
            { id: 'call_c', name: 'write_file', args: { file_path: changed, content: 'c' } },
          ],
        };
      }
      if (index === 2) return { text: 'Writes tried.', chunkDelayMs: 5 };
      if (index === 3) {
        return {
          toolCalls: [
            {
              id: 'call_long',
              name: 'run_shell_command',
              args: { command: `touch ${started} && sleep 61.25 && touch ${finished}` },
            },
          ],
        };
      }
      const text = sent(request);
      if (text.includes('after resuming')) return { text: 'Resumed answer.' };
      if (text.includes('second turn')) {
        return { text: 'Second answer.', usage: { prompt_tokens: 100, completion_tokens: 7 } };
      }
      return { text: 'Unexpected request.' };
    };
    project.server = await startModelServer(script);
    const session = startSession(['--include-partial-messages']);

    session.send({
      type: 'control_request',
      request_id: 'init',
      request: { subtype: 'initialize' },
    });
    const init = await session.next((e) => e.type === 'control_response', 'initialize answer');
    expect(init.response).toMatchObject({
      subtype: 'success',
      request_id: 'init',
      response: { capabilities: { can_handle_can_use_tool: true } },
    });
    const sessionId = (init.response as { response: { session_id: string } }).response.session_id;
    expect(sessionId).toMatch(/[0-9a-f-]{36}/);

    session.sendRaw('this is not json\n');
    await session.untilStderr('line 2 was skipped: not JSON');
    session.send({ type: 'user', message: { role: 'user', content: [{ type: 'audio' }] } });
    await session.untilStderr('line 3 was skipped: content block 0 ("audio")');
    expect(session.stderr()).not.toMatch(/\n\s+at /);

    session.send({
      type: 'control_request',
      request_id: 'model',
      request: { subtype: 'set_model', model: 'x' },
    });
    const refused = await session.next(
      (e) =>
        e.type === 'control_response' &&
        (e.response as { request_id: string }).request_id === 'model',
      'set_model answer',
    );
    expect(refused.response).toMatchObject({ subtype: 'error' });
    expect(String((refused.response as { error: string }).error)).toContain('set_model');

    // Default mode: each write is asked about; the same input is allowed, a changed one is not run.
    session.send(userTurn('write turn'));
    const ask = await session.next(
      (e) =>
        e.type === 'control_request' &&
        (e.request as { subtype: string }).subtype === 'can_use_tool',
      'the first question',
    );
    expect(ask.request).toMatchObject({
      tool_name: 'write_file',
      tool_use_id: 'call_a',
      input: { file_path: allowed },
    });
    const askIndex = session.events.indexOf(ask);
    session.send({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: ask.request_id,
        response: { behavior: 'allow', updatedInput: (ask.request as { input: unknown }).input },
      },
    });
    const askAgain = await session.next(
      (e) => e.type === 'control_request',
      'the second question',
      askIndex + 1,
    );
    expect(askAgain.request).toMatchObject({ tool_name: 'write_file', tool_use_id: 'call_c' });
    session.send({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: askAgain.request_id,
        response: {
          behavior: 'allow',
          updatedInput: { file_path: allowed, content: 'overwritten' },
        },
      },
    });
    const writes = await session.next((e) => e.type === 'result', 'the write turn’s result');
    expect(writes).toMatchObject({ subtype: 'success', result: 'Writes tried.' });
    expect(readFileSync(allowed, 'utf8')).toBe('a');
    expect(existsSync(changed)).toBe(false);
    expect(sent(project.server.requests[2])).toContain(
      'make the call again with the input it needs',
    );
    // The answer streamed as it came (--include-partial-messages).
    expect(
      session.events.some(
        (e) =>
          e.type === 'stream_event' &&
          (e.event as { delta?: { text?: string } }).delta?.text?.includes('Writes'),
      ),
    ).toBe(true);

    session.send({
      type: 'control_request',
      request_id: 'mode',
      request: { subtype: 'set_permission_mode', mode: 'bypassPermissions' },
    });
    const mode = await session.next(
      (e) =>
        e.type === 'control_response' &&
        (e.response as { request_id: string }).request_id === 'mode',
      'set_permission_mode answer',
    );
    expect(mode.response).toMatchObject({ subtype: 'success', response: { mode: 'yolo' } });

    // The first turn runs a long command without asking (yolo); the interrupt ends it.
    session.send(userTurn('first turn: run the long command'));
    const turnStart = session.events.length;
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 20_000;
      const poll = setInterval(() => {
        if (existsSync(started)) resolve();
        else if (Date.now() > deadline)
          reject(new Error(`the command never started: ${session.stderr()}`));
        else return;
        clearInterval(poll);
      }, 50);
    });
    const interruptedAt = Date.now();
    session.send({
      type: 'control_request',
      request_id: 'stop',
      request: { subtype: 'interrupt' },
    });
    const result = await session.next((e) => e.type === 'result', 'interrupted result', turnStart);
    expect(Date.now() - interruptedAt).toBeLessThan(15_000);
    expect(result).toMatchObject({
      subtype: 'error_during_execution',
      is_error: true,
      session_id: sessionId,
    });
    expect(await waitUntil(() => processesMatching('sleep 61.25').length === 0)).toBe(true);
    expect(existsSync(finished)).toBe(false);

    // The session goes on: a second turn, with the first in its history.
    const secondStart = session.events.length;
    session.send(userTurn('second turn'));
    const second = await session.next((e) => e.type === 'result', 'second result', secondStart);
    expect(second).toMatchObject({ subtype: 'success', result: 'Second answer.' });
    // Its usage counts this turn only, not the turns before it.
    expect(second.usage).toMatchObject({ input_tokens: 100, output_tokens: 7 });
    expect(sent(project.server.requests.at(-1))).toContain('first turn: run the long command');
    session.end();
    expect(await session.exited).toBe(0);

    // A later session continues this one.
    const resumed = startSession(['-r', sessionId]);
    resumed.send(userTurn('after resuming'));
    const last = await resumed.next((e) => e.type === 'result', 'resumed result');
    expect(last).toMatchObject({
      subtype: 'success',
      result: 'Resumed answer.',
      session_id: sessionId,
    });
    const history = sent(project.server.requests.at(-1));
    expect(history).toContain('second turn');
    expect(history).toContain('Second answer.');
    resumed.end();
    expect(await resumed.exited).toBe(0);
  });

  it('without -o stream-json, or with a prompt argument, is a usage error', () => {
    for (const args of [
      ['--input-format', 'stream-json'],
      ['--input-format', 'stream-json', '-o', 'stream-json', '-p', 'hi'],
    ]) {
      let code = 0;
      let stderr = '';
      try {
        execFileSync(CLI, args, {
          cwd: project.dirs.root,
          env: environment(),
          encoding: 'utf8',
          input: '',
        });
      } catch (error) {
        const failed = error as { status: number; stderr: string };
        code = failed.status;
        stderr = failed.stderr;
      }
      expect(code).toBe(2);
      expect(stderr).toMatch(/-o stream-json|drop the prompt/);
    }
  });
});
