/**
 * The fields of `-o stream-json` that Qwen Code's and the Claude Agent SDK's readers use,
 * checked for their meaning on a scripted model: ids, stop reasons, usage totals, API time,
 * the init event's commands, subagents and version, and `--include-partial-messages`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Script, startModelServer } from '../../core/test/helpers/model-server.js';
import { modelProject } from './helpers/model-project.js';
import { runCliAsync } from './run-cli.js';

const project = modelProject();

type JsonEvent = Record<string, unknown> & { type: string };
interface Message {
  id: string;
  type: string;
  role: string;
  model: string;
  stop_reason: string | null;
  content: Array<Record<string, unknown>>;
  usage: Record<string, number>;
}

async function run(script: Script, args: string[]) {
  project.server = await startModelServer(script);
  const result = await runCliAsync(args, {
    cwd: project.dirs.root,
    home: project.dirs.home,
    env: {
      OPENAI_BASE_URL: project.server.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'scripted-model',
    },
  });
  const events = result.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JsonEvent);
  return { ...result, events };
}

const PACKAGE_VERSION = (
  JSON.parse(
    readFileSync(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../package.json'),
      'utf8',
    ),
  ) as { version: string }
).version;

describe('toolhost -p -o stream-json: the fields readers use', { timeout: 180_000 }, () => {
  it('ids, stop reasons, usage totals, API time and the init event’s commands, subagents and version', async () => {
    const agents = path.join(project.dirs.home, '.toolhost', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(
      path.join(agents, 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews a change.\n---\nReview the change.\n',
    );
    const commands = path.join(project.dirs.home, '.toolhost', 'commands');
    mkdirSync(commands, { recursive: true });
    writeFileSync(path.join(commands, 'ship.md'), 'Ship the change.\n');
    const target = path.join(project.dirs.root, 'made.txt');
    const { code, events, stderr } = await run(
      [
        {
          text: 'Writing it.',
          toolCalls: [
            { id: 'call_w', name: 'write_file', args: { file_path: target, content: 'x' } },
          ],
          usage: {
            prompt_tokens: 100,
            completion_tokens: 10,
            prompt_tokens_details: { cached_tokens: 60 },
          },
          chunkDelayMs: 15,
        },
        { text: 'Done.', usage: { prompt_tokens: 150, completion_tokens: 5 }, chunkDelayMs: 15 },
      ],
      ['-p', 'make it', '-o', 'stream-json', '--yolo'],
    );
    expect(code, stderr).toBe(0);
    expect(events.map((e) => e.type)).toEqual([
      'system',
      'assistant',
      'user',
      'assistant',
      'result',
    ]);

    const uuids = events.map((e) => e.uuid);
    for (const uuid of uuids) expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(uuids).size).toBe(events.length);
    const sessionId = events[0]!.session_id;
    expect(typeof sessionId).toBe('string');
    for (const event of events) expect(event.session_id).toBe(sessionId);

    const init = events[0]!;
    expect(init).toMatchObject({
      subtype: 'init',
      cwd: project.dirs.root,
      model: 'scripted-model',
      permission_mode: 'yolo',
      mcp_servers: [],
      toolhost_version: PACKAGE_VERSION,
      version: PACKAGE_VERSION,
    });
    expect(init.tools).toEqual(expect.arrayContaining(['write_file', 'task']));
    expect(init.slash_commands).toEqual(expect.arrayContaining(['help', 'agents', 'ship']));
    expect((init.slash_commands as string[]).some((name) => name.startsWith('/'))).toBe(false);
    expect(init.agents).toEqual(expect.arrayContaining(['general-purpose', 'reviewer']));

    const first = events[1]!.message as Message;
    const second = events[3]!.message as Message;
    expect(first).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'scripted-model',
      stop_reason: 'tool_use',
    });
    expect(second).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'end_turn' });
    expect(first.id).toMatch(/^msg_./);
    expect(second.id).toMatch(/^msg_./);
    expect(first.id).not.toBe(second.id);
    expect(first.usage).toEqual({
      input_tokens: 100,
      output_tokens: 10,
      total_tokens: 110,
      cache_read_input_tokens: 60,
      cache_creation_input_tokens: 0,
    });
    expect(second.usage).toMatchObject({ total_tokens: 155, cache_read_input_tokens: 0 });
    expect(events[2]!.message).toMatchObject({ role: 'user' });

    const result = events[4]!;
    expect(result).toMatchObject({
      subtype: 'success',
      is_error: false,
      num_turns: 2,
      usage: {
        input_tokens: 250,
        output_tokens: 15,
        total_tokens: 265,
        cache_read_input_tokens: 60,
        cache_creation_input_tokens: 0,
      },
    });
    const durationMs = result.duration_ms as number;
    const apiMs = result.duration_api_ms as number;
    // Each answer streams in several chunks 15 ms apart: the model time is well above zero.
    expect(apiMs).toBeGreaterThanOrEqual(30);
    expect(apiMs).toBeLessThanOrEqual(durationMs);
  });

  it('--include-partial-messages: the text and thinking as they stream, under the id of the message that follows', async () => {
    const reasoning = 'The user wants a greeting; say hello politely.';
    const text = 'Hello there, and welcome to the project.';
    const { code, events, stderr } = await run(
      [{ reasoning, text, usage: { prompt_tokens: 20, completion_tokens: 8 } }],
      ['-p', 'greet me', '-o', 'stream-json', '--include-partial-messages'],
    );
    expect(code, stderr).toBe(0);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('system');
    expect(types.at(-2)).toBe('assistant');
    expect(types.at(-1)).toBe('result');
    const streamed = events.filter((e) => e.type === 'stream_event');
    expect(streamed.length).toBe(events.length - 3);
    const sessionId = events[0]!.session_id;
    for (const event of streamed) {
      expect(event.session_id).toBe(sessionId);
      expect(event.parent_tool_use_id).toBe(null);
    }
    expect(new Set(events.map((e) => e.uuid)).size).toBe(events.length);
    const inner = streamed.map((e) => e.event as Record<string, unknown> & { type: string });
    const assistant = events.at(-2)!.message as Message;
    expect(inner[0]).toMatchObject({
      type: 'message_start',
      message: { id: assistant.id, type: 'message', role: 'assistant', model: 'scripted-model' },
    });
    expect(inner.at(-1)).toEqual({ type: 'message_stop' });
    expect(inner.at(-2)).toMatchObject({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn' },
      usage: { input_tokens: 20, output_tokens: 8, total_tokens: 28 },
    });
    // Thinking first (block 0), then the text (block 1), each opened and closed once.
    const blocks = inner.filter((e) => e.type === 'content_block_start');
    expect(blocks).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    ]);
    expect(inner.filter((e) => e.type === 'content_block_stop').map((e) => e.index)).toEqual([
      0, 1,
    ]);
    const deltas = inner.filter((e) => e.type === 'content_block_delta') as unknown as Array<{
      index: number;
      delta: { type: string; text?: string; thinking?: string };
    }>;
    // The scripted model sends the text in several pieces: more than one delta each.
    const thinkingDeltas = deltas.filter((d) => d.index === 0);
    const textDeltas = deltas.filter((d) => d.index === 1);
    expect(thinkingDeltas.length).toBeGreaterThan(1);
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(thinkingDeltas.map((d) => d.delta.thinking).join('')).toBe(reasoning);
    expect(textDeltas.map((d) => d.delta.text).join('')).toBe(text);
    expect(textDeltas.every((d) => d.delta.type === 'text_delta')).toBe(true);
    expect(thinkingDeltas.every((d) => d.delta.type === 'thinking_delta')).toBe(true);
  });

  it("--include-partial-messages: a subagent's answer streams under its task call, with its own message id", async () => {
    const subText = 'The subagent looked and found nothing.';
    const { code, events, stderr } = await run(
      [
        {
          toolCalls: [
            {
              id: 'call_task',
              name: 'task',
              args: {
                description: 'look',
                prompt: 'look around',
                subagent_type: 'general-purpose',
              },
            },
          ],
        },
        { text: subText },
        { text: 'Nothing found.' },
      ],
      ['-p', 'delegate', '-o', 'stream-json', '--include-partial-messages'],
    );
    expect(code, stderr).toBe(0);
    const assistants = events.filter((e) => e.type === 'assistant');
    expect(assistants.map((e) => e.parent_tool_use_id)).toEqual([null, 'call_task', null]);
    const ids = assistants.map((e) => (e.message as Message).id);
    expect(new Set(ids).size).toBe(3);
    const starts = events.filter(
      (e) => e.type === 'stream_event' && (e.event as { type: string }).type === 'message_start',
    );
    // Each assistant event is announced by a message_start with its id and its parent.
    expect(
      starts.map((e) => [
        (e.event as { message: { id: string } }).message.id,
        e.parent_tool_use_id,
      ]),
    ).toEqual(assistants.map((e) => [(e.message as Message).id, e.parent_tool_use_id]));
    const subDeltas = events.filter(
      (e) =>
        e.type === 'stream_event' &&
        e.parent_tool_use_id === 'call_task' &&
        (e.event as { type: string }).type === 'content_block_delta',
    );
    expect(subDeltas.map((e) => (e.event as { delta: { text: string } }).delta.text).join('')).toBe(
      subText,
    );
    // The main agent's task call is a tool_use block whose input arrives as JSON.
    const mainEvents = events
      .filter((e) => e.type === 'stream_event' && e.parent_tool_use_id === null)
      .map((e) => e.event as Record<string, unknown> & { type: string });
    const toolStart = mainEvents.find(
      (e) =>
        e.type === 'content_block_start' &&
        (e.content_block as { type: string }).type === 'tool_use',
    );
    expect(toolStart?.content_block).toEqual({
      type: 'tool_use',
      id: 'call_task',
      name: 'task',
      input: {},
    });
    const inputJson = mainEvents
      .filter(
        (e) =>
          e.type === 'content_block_delta' &&
          e.index === toolStart?.index &&
          (e.delta as { type: string }).type === 'input_json_delta',
      )
      .map((e) => (e.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(inputJson)).toEqual(
      (assistants[0]!.message as Message).content.find((block) => block.type === 'tool_use')?.input,
    );
    expect(JSON.parse(inputJson)).toMatchObject({ subagent_type: 'general-purpose' });
  });

  it('--include-partial-messages: a stream that stalls and is tried again ends its partial message; the answer streams anew', async () => {
    mkdirSync(path.join(project.dirs.home, '.toolhost'), { recursive: true });
    writeFileSync(
      path.join(project.dirs.home, '.toolhost', 'settings.json'),
      JSON.stringify({ model: { timeout: 1500 } }),
    );
    const { code, events, stderr } = await run(
      [{ stallAfterText: 'Half an ans' }, { text: 'The whole answer.' }],
      ['-p', 'answer', '-o', 'stream-json', '--include-partial-messages'],
    );
    expect(code, stderr).toBe(0);
    const inner = events
      .filter((e) => e.type === 'stream_event')
      .map((e) => e.event as Record<string, unknown> & { type: string });
    const starts = inner.filter((e) => e.type === 'message_start');
    expect(starts).toHaveLength(2);
    // The dropped attempt's message ends before the second starts; the text of the second is the answer.
    const secondStart = inner.indexOf(starts[1]!);
    expect(inner[secondStart - 1]).toEqual({ type: 'message_stop' });
    const textAfter = inner
      .slice(secondStart)
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => (e.delta as { text: string }).text)
      .join('');
    expect(textAfter).toBe('The whole answer.');
    const assistant = events.find((e) => e.type === 'assistant')!.message as Message;
    expect((starts[1]!.message as { id: string }).id).toBe(assistant.id);
    expect((starts[0]!.message as { id: string }).id).not.toBe(assistant.id);
  });

  it('--include-partial-messages without -o stream-json is a usage error; without the flag no stream events', async () => {
    let outcome = await run(
      [{ text: 'unused' }],
      ['-p', 'hi', '-o', 'json', '--include-partial-messages'],
    );
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/--include-partial-messages .*needs -o stream-json/);
    expect(project.server!.requests).toHaveLength(0);
    await project.server!.close();
    outcome = await run([{ text: 'Hello there, and welcome.' }], ['-p', 'hi', '-o', 'stream-json']);
    expect(outcome.code).toBe(0);
    expect(outcome.events.map((e) => e.type)).toEqual(['system', 'assistant', 'result']);
  });
});
