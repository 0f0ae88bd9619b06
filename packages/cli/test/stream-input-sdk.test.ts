/**
 * `--input-format stream-json` started the way the SDKs start their CLI: Qwen Code's SDK
 * (`--channel=SDK --session-id <uuid>`, an `initialize` with `hooks: null`) and the Claude
 * Agent SDK (`--verbose --permission-prompt-tool=stdio`, `mcp_status`, a deny that
 * interrupts the turn). Both SDKs were run against toolhost by hand; these tests keep the
 * command lines and messages they send working.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { startSession, streamProject, userTurn } from './helpers/stream-session.js';

const { project, children, place } = streamProject();

const answerTo = (requestId: string) => (event: Record<string, unknown>) =>
  event.type === 'control_response' &&
  (event.response as { request_id?: string }).request_id === requestId;

describe('toolhost started as the SDKs start their CLI', { timeout: 120_000 }, () => {
  it("Qwen Code's SDK: --channel=SDK and --session-id name the new session", async () => {
    project.server = await startModelServer([{ text: 'Hello.' }]);
    const id = randomUUID();
    const args = ['--input-format', 'stream-json', '--output-format', 'stream-json'];
    const session = startSession(
      place(),
      [...args, '--channel=SDK', '--session-id', id],
      children,
      true,
    );
    session.send({
      type: 'control_request',
      request_id: 'init',
      request: { subtype: 'initialize', hooks: null },
    });
    const init = await session.next(answerTo('init'), 'the initialize answer');
    expect(init.response).toMatchObject({ subtype: 'success', response: { session_id: id } });
    session.send({ ...userTurn('hi'), session_id: '', parent_tool_use_id: null });
    const result = await session.next((e) => e.type === 'result', 'the result');
    expect(result).toMatchObject({ subtype: 'success', result: 'Hello.', session_id: id });
    session.end();
    expect(await session.exited).toBe(0);

    // The id is taken now: a new session cannot have it too.
    const again = startSession(place(), [...args, '--session-id', id], children, true);
    again.end();
    expect(await again.exited).toBe(2);
    expect(again.stderr()).toContain(`continue it with -r ${id}`);
  });

  it('the Claude Agent SDK: its flags (its permission mode too), mcp_status, and a deny that interrupts the turn', async () => {
    const target = path.join(project.dirs.root, 'denied.txt');
    project.server = await startModelServer([
      {
        toolCalls: [
          { id: 'call_touch', name: 'run_shell_command', args: { command: `touch ${target}` } },
        ],
      },
      { text: 'Not reached.' },
    ]);
    const session = startSession(
      place(),
      [
        '--output-format',
        'stream-json',
        '--verbose',
        '--input-format',
        'stream-json',
        '--permission-prompt-tool=stdio',
        '--permission-mode',
        'acceptEdits',
        '--max-turns',
        '4',
      ],
      children,
      true,
    );
    session.send({
      type: 'control_request',
      request_id: 'init',
      request: { subtype: 'initialize' },
    });
    expect((await session.next(answerTo('init'), 'the initialize answer')).response).toMatchObject({
      subtype: 'success',
    });
    session.send({
      type: 'control_request',
      request_id: 'mcp',
      request: { subtype: 'mcp_status' },
    });
    expect((await session.next(answerTo('mcp'), 'the mcp_status answer')).response).toMatchObject({
      subtype: 'success',
      response: { mcpServers: [] },
    });

    session.send(userTurn('touch it'));
    const ask = await session.next((e) => e.type === 'control_request', 'the question');
    const init = session.events.find((e) => e.type === 'system');
    expect(init).toMatchObject({ subtype: 'init', permission_mode: 'auto-edit' });
    session.send({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: ask.request_id,
        response: { behavior: 'deny', message: 'not now', interrupt: true },
      },
    });
    const result = await session.next((e) => e.type === 'result', 'the result');
    expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(existsSync(target)).toBe(false);
    // The turn ended there: the model was not asked again.
    expect(project.server.requests).toHaveLength(1);
    session.end();
    // The session ended as asked, whatever its turns did.
    expect(await session.exited).toBe(0);
  });
});
