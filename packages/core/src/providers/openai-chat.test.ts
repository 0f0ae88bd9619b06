import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode as decodePng } from 'fast-png';
import { describe, expect, it } from 'vitest';
import type { Part } from '../contract/content.js';
import { convertToFunctionResponse } from '../scheduler/function-response.js';
import { toOpenAIToolMessages, toOpenAITools, toOpenAIUserMessage } from './openai-chat.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name)).toString('base64');
const media = (mimeType: string, name: string, displayName = name): Part => ({
  inlineData: { mimeType, data: fixture(name), displayName },
});

describe('toOpenAITools', () => {
  it('turns declarations into function tools, plain by default', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(
      toOpenAITools([{ name: 'x', description: 'does x', parametersJsonSchema: schema }]),
    ).toEqual([
      { type: 'function', function: { name: 'x', description: 'does x', parameters: schema } },
    ]);
  });

  it('marks strict tools and gives a tool without parameters an empty object', () => {
    expect(toOpenAITools([{ name: 'y' }], { strict: true })).toEqual([
      {
        type: 'function',
        function: {
          name: 'y',
          parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
          strict: true,
        },
      },
    ]);
  });
});

describe('toOpenAIToolMessages', () => {
  it('puts all tool messages first, in call order, then one user message with the media', () => {
    const batch = [
      ...convertToFunctionResponse('read_file', 'r1', [
        { text: 'see picture' },
        media('image/png', 'pixel.png'),
      ]),
      ...convertToFunctionResponse('grep_search', 'g1', 'three matches'),
      ...convertToFunctionResponse('read_file', 'r2', [
        media('audio/wav', 'beep.wav'),
        media('application/pdf', 'page.pdf', 'report.pdf'),
      ]),
      ...convertToFunctionResponse('edit', 'e1', 'Error: Error: no match', { isError: true }),
    ];
    const messages = toOpenAIToolMessages(batch);
    expect(messages.map((message) => message.role)).toEqual([
      'tool',
      'tool',
      'tool',
      'tool',
      'user',
    ]);
    expect(
      messages.slice(0, 4).map((message) => 'tool_call_id' in message && message.tool_call_id),
    ).toEqual(['r1', 'g1', 'r2', 'e1']);
    expect(messages[0]?.content).toBe('see picture\n(pixel.png follows in the next user message.)');
    expect(messages[1]?.content).toBe('three matches');
    expect(messages[3]?.content).toBe('Error: no match');
    expect(messages[4]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'pixel.png from the read_file call r1:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${fixture('pixel.png')}` } },
        { type: 'text', text: 'beep.wav from the read_file call r2:' },
        { type: 'input_audio', input_audio: { data: fixture('beep.wav'), format: 'wav' } },
        { type: 'text', text: 'report.pdf from the read_file call r2:' },
        {
          type: 'file',
          file: {
            filename: 'report.pdf',
            file_data: `data:application/pdf;base64,${fixture('page.pdf')}`,
          },
        },
      ],
    });
  });

  it('converts a BMP to PNG with the same pixels and keeps the file name', () => {
    const messages = toOpenAIToolMessages(
      convertToFunctionResponse('read_file', 'b1', [media('image/bmp', 'colors-3x2.bmp')]),
    );
    const user = messages[1];
    expect(user?.role).toBe('user');
    const parts = user?.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts[0]?.text).toBe('colors-3x2.png from the read_file call b1:');
    const url = parts[1]?.image_url?.url ?? '';
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const png = decodePng(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64'));
    expect([png.width, png.height, png.channels]).toEqual([3, 2, 3]);
    expect([...png.data.slice(0, 9)]).toEqual([255, 0, 0, 0, 255, 0, 0, 0, 255]);
    expect([...png.data.slice(9, 18)]).toEqual([255, 255, 255, 0, 0, 0, 128, 64, 32]);
  });

  it('describes audio OpenAI cannot take instead of sending it as a file', () => {
    const messages = toOpenAIToolMessages(
      convertToFunctionResponse('read_file', 'o1', [media('audio/ogg', 'tone.ogg')]),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]?.content).toMatch(
      /\[Audio tone\.ogg \(audio\/ogg, 57 bytes\) from the read_file call o1 was left out: OpenAI Chat Completions takes audio only as audio\/wav/,
    );
  });

  it('decodes text blobs into the tool message', () => {
    const data = Buffer.from('name,count\nalpha,1\n').toString('base64');
    const messages = toOpenAIToolMessages(
      convertToFunctionResponse('mcp_tool', 't1', [
        { text: 'Resource file:///data.csv (text/csv) is attached.' },
        { inlineData: { mimeType: 'text/csv', data, displayName: 'data.csv' } },
      ]),
    );
    expect(messages).toEqual([
      {
        role: 'tool',
        tool_call_id: 't1',
        content:
          'Resource file:///data.csv (text/csv) is attached.\nFile data.csv (text/csv) from the mcp_tool call t1:\nname,count\nalpha,1\n',
      },
    ]);
  });

  it('replaces media the model cannot take with a placeholder', () => {
    const batch = convertToFunctionResponse('read_file', 'r1', [media('image/png', 'pixel.png')]);
    const textOnly = toOpenAIToolMessages(batch, { model: 'deepseek-chat' });
    expect(textOnly).toHaveLength(1);
    expect(textOnly[0]?.content).toContain(
      '[Image pixel.png (image/png, 69 bytes) from the read_file call r1 was left out: this model does not take images.]',
    );
    expect(toOpenAIToolMessages(batch, { model: 'gpt-4o' })).toHaveLength(2);
    expect(
      toOpenAIToolMessages(batch, { model: 'deepseek-chat', modalities: ['image'] }),
    ).toHaveLength(2);
  });

  it('serialises structured responses as JSON', () => {
    const parts = [
      { functionResponse: { id: 'x', name: 'y', response: { output: 'a', extra: 1 } } },
    ];
    expect(toOpenAIToolMessages(parts)[0]).toEqual({
      role: 'tool',
      tool_call_id: 'x',
      content: '{"output":"a","extra":1}',
    });
  });
});

describe('toOpenAIUserMessage', () => {
  it('keeps a text prompt a string', () => {
    expect(toOpenAIUserMessage([{ text: 'hello' }, { text: 'there' }])).toEqual({
      role: 'user',
      content: 'hello\nthere',
    });
  });

  it('sends attached images as data URLs and PDFs as files, in the prompt order', () => {
    const message = toOpenAIUserMessage([
      { text: 'what is this?' },
      { text: '--- pic.png (image/png) ---' },
      media('image/png', 'pixel.png'),
      media('application/pdf', 'page.pdf', 'report.pdf'),
      { text: 'end' },
    ]);
    expect(message).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?\n--- pic.png (image/png) ---' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${fixture('pixel.png')}` } },
        {
          type: 'file',
          file: {
            filename: 'report.pdf',
            file_data: `data:application/pdf;base64,${fixture('page.pdf')}`,
          },
        },
        { type: 'text', text: 'end' },
      ],
    });
  });

  it('says what it left out for a model that takes no images', () => {
    const message = toOpenAIUserMessage([{ text: 'look' }, media('image/png', 'pixel.png')], {
      modalities: [],
    });
    expect(typeof message.content).toBe('string');
    expect(message.content).toMatch(
      /^look\n\[Image pixel\.png \(image\/png, .*\) from the prompt was left out: this model does not take images\.\]$/,
    );
  });
});
