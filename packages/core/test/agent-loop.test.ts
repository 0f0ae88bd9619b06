import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-events.js';
import { type AgentHarness, startAgentHarness } from './helpers/agent-harness.js';
import type { Script } from './helpers/model-server.js';
import { processesMatching, uniqueSleep, waitUntil } from './helpers/processes.js';
import { FIXTURES } from './helpers/temp-workspace.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(script: Script, options?: Parameters<typeof startAgentHarness>[1]) {
  harness = await startAgentHarness(script, options);
  return harness;
}

const never = () => new AbortController().signal;
type Message = { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[] };
const messagesOf = (h: AgentHarness, request: number) =>
  h.server.requests[request]!.body.messages as Message[];

describe('AgentLoop', () => {
  it('runs parallel calls as one batch with the real tools and answers with their results', async () => {
    const h = await start((_request, index) => {
      if (index === 0) {
        return {
          reasoning: 'I should read both notes.',
          toolCalls: [
            { id: 'c1', name: 'read_file', args: { absolute_path: h.ws.p('one.txt') } },
            { id: 'c2', name: 'read_file', args: { absolute_path: h.ws.p('two.txt') } },
          ],
          usage: { prompt_tokens: 500, completion_tokens: 30 },
        };
      }
      return { text: 'Both notes say hello.', usage: { prompt_tokens: 700, completion_tokens: 8 } };
    });
    h.ws.write('one.txt', 'first note: hello\n');
    h.ws.write('two.txt', 'second note: hello again\n');
    const result = await h.loop().run('What do the notes say?', never());

    expect(result).toMatchObject({
      status: 'success',
      text: 'Both notes say hello.',
      turns: 2,
      toolCalls: 2,
    });
    expect(result.usage).toEqual({ inputTokens: 1200, outputTokens: 38 });
    const first = h.server.requests[0]!.body;
    expect(first.messages[0]).toMatchObject({ role: 'system', content: 'You are a test agent.' });
    expect(first.tools!.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['read_file', 'edit', 'run_shell_command']),
    );
    const second = messagesOf(h, 1);
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(second[2]!.tool_calls).toHaveLength(2);
    expect(second[2]!.content).toBeNull(); // reasoning never goes into the answer
    expect(second[3]).toMatchObject({ tool_call_id: 'c1' });
    expect(String(second[3]!.content)).toContain('first note: hello');
    expect(String(second[4]!.content)).toContain('second note: hello again');
    const thinking = h.events
      .filter((e) => e.type === 'thinking')
      .map((e) => (e as { text: string }).text);
    expect(thinking.join('')).toBe('I should read both notes.');
    const results = h.events.find((e) => e.type === 'tool_results') as Extract<
      AgentEvent,
      { type: 'tool_results' }
    >;
    expect(results.results.map((r) => r.status)).toEqual(['success', 'success']);
  });

  it('answers malformed arguments with an error that quotes them, and goes on', async () => {
    const h = await start([
      { toolCalls: [{ id: 'bad', name: 'read_file', args: '{"absolute_path": "/x' }] },
      { text: 'Sorry, fixed.' },
    ]);
    const result = await h.loop().run('read it', never());
    expect(result.status).toBe('success');
    const tool = messagesOf(h, 1)[3]!;
    expect(tool.tool_call_id).toBe('bad');
    expect(String(tool.content)).toMatch(/not a valid JSON object/);
    expect(String(tool.content)).toContain('{"absolute_path": "/x');
  });

  it('refuses a call that needs approval when nobody can answer, and lists the denial', async () => {
    const h = await start((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              {
                id: 'w1',
                name: 'write_file',
                args: { file_path: h.ws.p('canary.txt'), content: 'x' },
              },
            ],
          }
        : { text: 'I could not write it.' },
    );
    const result = await h.loop().run('write a file', never());
    expect(existsSync(h.ws.p('canary.txt'))).toBe(false);
    expect(result.permissionDenials).toEqual([
      {
        toolName: 'write_file',
        toolUseId: 'w1',
        toolInput: { file_path: h.ws.p('canary.txt'), content: 'x' },
      },
    ]);
    expect(String(messagesOf(h, 1)[3]!.content)).toMatch(/approval/);
  });

  it('sends the media of a batch in one user message after all tool messages', async () => {
    const h = await start((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              {
                id: 'img',
                name: 'read_file',
                args: { absolute_path: path.join(h.ws.root, 'pixel.png') },
              },
              { id: 'txt', name: 'read_file', args: { absolute_path: h.ws.p('a.txt') } },
            ],
          }
        : { text: 'A pixel.' },
    );
    h.ws.write('pixel.png', readFileSync(path.join(FIXTURES, 'pixel.png')));
    h.ws.write('a.txt', 'alpha\n');
    await h.loop().run('look', never());
    const roles = messagesOf(h, 1).map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(JSON.stringify(messagesOf(h, 1)[5]!.content)).toContain('data:image/png;base64,');
  });

  it('stops at the turn limit and at the tool-call budget', async () => {
    const call = (i: number) => ({
      toolCalls: [{ id: `g${i}`, name: 'glob', args: { pattern: `*.${i}` } }],
    });
    let h = await start((_r, index) => call(index));
    let result = await h.loop({ limits: { maxTurns: 3 } }).run('go', never());
    expect(result).toMatchObject({ status: 'max_turns', turns: 3 });
    await h.close();
    harness = undefined;

    h = await start((_r, index) => ({
      toolCalls: [0, 1, 2].map((n) => ({
        id: `g${index}-${n}`,
        name: 'glob',
        args: { pattern: `*.${index}${n}` },
      })),
    }));
    result = await h.loop({ limits: { maxToolCalls: 4 } }).run('go', never());
    expect(result).toMatchObject({ status: 'max_tool_calls', toolCalls: 4, turns: 2 });
    const last = h.events.filter((e) => e.type === 'tool_results').at(-1) as Extract<
      AgentEvent,
      { type: 'tool_results' }
    >;
    expect(last.results.map((r) => r.status)).toEqual(['success', 'error', 'error']);
  });

  it('detects the same call repeated and the same line repeated in an answer', async () => {
    let h = await start(() => ({ toolCalls: [{ name: 'glob', args: { pattern: '*.md' } }] }));
    let result = await h.loop().run('go', never());
    expect(result.status).toBe('loop_detected');
    expect(result.message).toMatch(/glob with the same arguments 5 times/);
    expect(h.server.requests).toHaveLength(5);
    await h.close();
    harness = undefined;

    h = await start([{ text: 'I will now check the file again.\n'.repeat(40) }]);
    result = await h.loop().run('go', never());
    expect(result.status).toBe('loop_detected');
    expect(result.message).toMatch(/repeated the line/);
  });

  it('asks the model to continue an answer cut by the output limit', async () => {
    const h = await start([
      { text: 'The first half', finishReason: 'length' },
      { text: ' and the second half.' },
    ]);
    const result = await h.loop().run('go', never());
    expect(result).toMatchObject({
      status: 'success',
      text: 'The first half and the second half.',
    });
    expect(String(messagesOf(h, 1).at(-1)!.content)).toMatch(/cut off/);
  });

  it('cancels a running command: its process group ends and the run says cancelled', async () => {
    const seconds = uniqueSleep();
    const h = await start(
      [
        {
          toolCalls: [
            {
              name: 'run_shell_command',
              args: { command: `sleep ${seconds}`, is_background: false },
            },
          ],
        },
      ],
      { config: { approvalMode: 'yolo' } },
    );
    const controller = new AbortController();
    const running = h.loop().run('sleep', controller.signal);
    expect(await waitUntil(() => processesMatching(`sleep ${seconds}`).length > 0, 10_000)).toBe(
      true,
    );
    controller.abort();
    const result = await running;
    expect(result.status).toBe('cancelled');
    expect(await waitUntil(() => processesMatching(`sleep ${seconds}`).length === 0, 5000)).toBe(
      true,
    );
  });

  it('stops a run at the wall-time limit', async () => {
    const h = await start([{ hang: true }]);
    const result = await h.loop({ limits: { maxWallTimeMs: 200 } }).run('go', never());
    expect(result.status).toBe('max_wall_time');
  });

  it('works against a server that does not stream', async () => {
    const h = await start(
      (_r, index) =>
        index === 0
          ? { toolCalls: [{ name: 'list_directory', args: { path: h.ws.root } }] }
          : { text: 'Listed.' },
      { stream: false },
    );
    h.ws.write('x.txt', 'x');
    const result = await h.loop().run('list', never());
    expect(result.text).toBe('Listed.');
    expect(String(messagesOf(h, 1)[3]!.content)).toContain('x.txt');
  });

  it('ends with a clear error when the endpoint stays unusable', async () => {
    const h = await start(() => ({ status: 500, message: 'down for maintenance' }));
    const result = await h.loop().run('go', never());
    expect(result.status).toBe('error');
    expect(result.message).toContain('500');
    expect(result.message).toContain('down for maintenance');
    expect(h.server.requests).toHaveLength(3);
  });
});
