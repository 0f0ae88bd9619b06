/**
 * How a `--input-format stream-json` session's turns end short of a yes: an interrupt
 * withdraws a waiting question (`control_cancel_request`), the end of input answers it no,
 * Ctrl+C ends the session (its running command's process group first); and `--json-schema`
 * checks each turn's answer.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { processesMatching, waitUntil } from '../../core/test/helpers/processes.js';
import { sent, startSession, streamProject, userTurn } from './helpers/stream-session.js';

const { project, children, place } = streamProject();

const isQuestion = (event: Record<string, unknown>) =>
  event.type === 'control_request' &&
  (event.request as { subtype?: string }).subtype === 'can_use_tool';

describe('stream-json questions left unanswered, and --json-schema per turn', {
  timeout: 120_000,
}, () => {
  it('an interrupt withdraws the waiting question; the call never runs', async () => {
    const target = path.join(project.dirs.root, 'never.txt');
    project.server = await startModelServer([
      {
        toolCalls: [
          { id: 'call_w', name: 'write_file', args: { file_path: target, content: 'x' } },
        ],
      },
      { text: 'Second turn answered.' },
    ]);
    const session = startSession(place(), [], children);
    session.send(userTurn('write it'));
    const question = await session.next(isQuestion, 'the question');
    session.send({
      type: 'control_request',
      request_id: 'stop',
      request: { subtype: 'interrupt' },
    });
    const withdrawn = await session.next(
      (e) => e.type === 'control_cancel_request',
      'the question withdrawn',
    );
    expect(withdrawn.request_id).toBe(question.request_id);
    const result = await session.next((e) => e.type === 'result', 'the result');
    expect(result).toMatchObject({ subtype: 'error_during_execution' });
    // An answer that comes too late changes nothing.
    session.send({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: question.request_id,
        response: { behavior: 'allow' },
      },
    });
    await session.untilStderr('which is not waiting');
    const from = session.events.length;
    session.send(userTurn('and now?'));
    await session.next((e) => e.type === 'result', 'the second result', from);
    expect(existsSync(target)).toBe(false);
    session.end();
    expect(await session.exited).toBe(0);
  });

  it('in yolo, a read an ask rule covers is put to the host; its no keeps the file unread', async () => {
    mkdirSync(path.join(project.dirs.home, '.toolhost'), { recursive: true });
    writeFileSync(
      path.join(project.dirs.home, '.toolhost', 'settings.json'),
      JSON.stringify({ permissions: { ask: ['Read(./notes.txt)'] } }),
    );
    const notes = path.join(project.dirs.root, 'notes.txt');
    writeFileSync(notes, 'ASKED-NOTES-TEXT\n');
    project.server = await startModelServer([
      { toolCalls: [{ id: 'call_r', name: 'read_file', args: { absolute_path: notes } }] },
      { text: 'Not read.' },
    ]);
    const session = startSession(place(), ['--approval-mode', 'yolo'], children);
    session.send(userTurn('read the notes'));
    const question = await session.next(isQuestion, 'the question');
    session.send({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: question.request_id,
        response: { behavior: 'deny', message: 'not now' },
      },
    });
    await session.next((e) => e.type === 'result', 'the result');
    expect(sent(project.server.requests[1])).not.toContain('ASKED-NOTES-TEXT');
    session.end();
    expect(await session.exited).toBe(0);
  });

  it('the end of input answers a waiting question no, and the session ends', async () => {
    const target = path.join(project.dirs.root, 'never.txt');
    project.server = await startModelServer([
      {
        toolCalls: [
          { id: 'call_w', name: 'write_file', args: { file_path: target, content: 'x' } },
        ],
      },
      { text: 'It was refused.' },
    ]);
    const session = startSession(place(), [], children);
    session.send(userTurn('write it'));
    await session.next(isQuestion, 'the question');
    session.end();
    const result = await session.next((e) => e.type === 'result', 'the result');
    expect(result).toMatchObject({ subtype: 'success', result: 'It was refused.' });
    expect(await session.exited).toBe(0);
    expect(existsSync(target)).toBe(false);
  });

  it('Ctrl+C ends the session with 130, its running command first', async () => {
    const started = path.join(project.dirs.root, 'started.txt');
    project.server = await startModelServer([
      {
        toolCalls: [
          {
            id: 'call_long',
            name: 'run_shell_command',
            args: { command: `touch ${started} && sleep 62.75` },
          },
        ],
      },
      { text: 'Not reached.' },
    ]);
    const session = startSession(place(), ['--yolo'], children);
    session.send(userTurn('run it'));
    const deadline = Date.now() + 20_000;
    while (!existsSync(started)) {
      if (Date.now() > deadline) throw new Error(`never started: ${session.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    session.signal('SIGINT');
    const result = await session.next((e) => e.type === 'result', 'the result');
    expect(result).toMatchObject({ subtype: 'error_during_execution' });
    expect(await session.exited).toBe(130);
    // The process group was signalled; wait for the command itself to be gone.
    expect(await waitUntil(() => processesMatching('sleep 62.75').length === 0)).toBe(true);
  });

  it('--json-schema: each turn’s answer is checked and given as structured_output', async () => {
    project.server = await startModelServer([
      { text: '{"count": "two"}' },
      { text: '{"count": 2}' },
    ]);
    const schema = JSON.stringify({
      type: 'object',
      properties: { count: { type: 'integer' } },
      required: ['count'],
    });
    const session = startSession(place(), ['--json-schema', schema], children);
    session.send(userTurn('count them'));
    const result = await session.next((e) => e.type === 'result', 'the result');
    expect(result).toMatchObject({ subtype: 'success', structured_output: { count: 2 } });
    session.end();
    expect(await session.exited).toBe(0);
  });
});
