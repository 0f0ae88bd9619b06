/**
 * The OpenAI Chat Completions adapter through the real `openai` SDK: real tools run by the
 * scheduler in a temporary workspace, their batch converted at once, sent to a recording
 * server on 127.0.0.1, and what went over the wire checked.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOpenAIToolMessages, toOpenAITools } from '../src/providers/openai-chat.js';
import { CoreToolScheduler } from '../src/scheduler/core-tool-scheduler.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import {
  type RecordingApiServer,
  startRecordingApiServer,
} from './helpers/recording-api-server.js';
import { FIXTURES, makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let server: RecordingApiServer;
let workspace: TempWorkspace;

beforeAll(async () => {
  server = await startRecordingApiServer();
  workspace = makeWorkspace();
  for (const name of ['pixel.png', 'colors-3x2.bmp', 'tone.ogg', 'page.pdf'])
    copyFileSync(path.join(FIXTURES, name), workspace.p(name));
  workspace.write('notes.txt', 'alpha\nbeta\n');
});
afterAll(async () => {
  await server.close();
  workspace.cleanup();
});

describe('OpenAI Chat Completions on the wire', () => {
  it('sends strict tools and one turn of results as a valid message sequence', async () => {
    const registry = createToolRegistry(workspace.config);
    const declarations = registry.getFunctionDeclarations();
    const tools = toOpenAITools(declarations, { strict: true });
    const scheduler = new CoreToolScheduler({ config: workspace.config, toolRegistry: registry });
    const calls = [
      { id: 'call_png', name: 'read_file', args: { absolute_path: workspace.p('pixel.png') } },
      { id: 'call_bmp', name: 'read_file', args: { absolute_path: workspace.p('colors-3x2.bmp') } },
      { id: 'call_ogg', name: 'read_file', args: { absolute_path: workspace.p('tone.ogg') } },
      // A strict model sends null for the optional parameters it leaves out.
      {
        id: 'call_txt',
        name: 'read_file',
        args: { absolute_path: workspace.p('notes.txt'), offset: null, limit: null },
      },
      { id: 'call_pdf', name: 'read_file', args: { absolute_path: workspace.p('page.pdf') } },
      { id: 'call_bad', name: 'read_file', args: { absolute_path: workspace.p('missing.txt') } },
    ];
    const completed = await scheduler.schedule(calls, new AbortController().signal);
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Look at these files.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        })),
      },
      ...toOpenAIToolMessages(completed, { model: 'gpt-4o' }),
    ];
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: 'gpt-4o', messages, tools });
    expect(reply.choices[0]?.message.content).toBe('done');

    const body = server.lastBody() as {
      tools: { type: string; function: { name: string; strict?: boolean; description?: string } }[];
      messages: { role: string; tool_call_id?: string; content: unknown }[];
    };
    expect(body.tools.map((tool) => tool.function.name)).toEqual(
      declarations.map((declaration) => declaration.name),
    );
    expect(body.tools.every((tool) => (tool.function.description ?? '').length <= 1024)).toBe(true);
    expect(body.tools.filter((tool) => tool.function.strict === true).length).toBeGreaterThan(8);

    expect(body.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'tool',
      'tool',
      'tool',
      'tool',
      'user',
    ]);
    expect(body.messages.slice(2, 8).map((message) => message.tool_call_id)).toEqual(
      calls.map((call) => call.id),
    );
    const toolTexts = body.messages.slice(2, 8).map((message) => String(message.content));
    expect(toolTexts[2]).toContain(
      'tone.ogg (audio/ogg, 57 bytes) from the read_file call call_ogg was left out',
    );
    expect(toolTexts[3]).toContain('alpha');
    expect(toolTexts[5]).toMatch(/^Error: (?!Error)/);
    // No base64 travels as text.
    for (const text of toolTexts) expect(text).not.toMatch(/[A-Za-z0-9+/]{80,}/);

    const media = body.messages[8]?.content as {
      type: string;
      text?: string;
      image_url?: { url: string };
      file?: { filename: string };
    }[];
    expect(media.map((part) => part.type)).toEqual([
      'text',
      'image_url',
      'text',
      'image_url',
      'text',
      'file',
    ]);
    expect(media[0]?.text).toBe('pixel.png from the read_file call call_png:');
    expect(media[2]?.text).toBe('colors-3x2.png from the read_file call call_bmp:');
    expect(media[3]?.image_url?.url).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(media[5]?.file?.filename).toBe('page.pdf');
  });
});
