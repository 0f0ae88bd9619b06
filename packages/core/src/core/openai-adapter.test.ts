import { describe, expect, it } from 'vitest';
import { convertToFunctionResponse } from './function-response.js';
import { toOpenAIToolMessages, toOpenAITools } from './openai-adapter.js';

describe('toOpenAITools', () => {
  it('turns declarations into function tools', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(
      toOpenAITools([{ name: 'x', description: 'does x', parametersJsonSchema: schema }]),
    ).toEqual([
      { type: 'function', function: { name: 'x', description: 'does x', parameters: schema } },
    ]);
  });

  it('gives an empty object schema to a tool without parameters', () => {
    expect(toOpenAITools([{ name: 'y' }])[0]?.function.parameters).toEqual({
      type: 'object',
      properties: {},
    });
  });
});

describe('toOpenAIToolMessages', () => {
  it('makes one tool message per response, with plain text output', () => {
    const parts = [
      ...convertToFunctionResponse('a', 'id-a', 'alpha'),
      ...convertToFunctionResponse('b', 'id-b', 'nope', { isError: true }),
    ];
    expect(toOpenAIToolMessages(parts)).toEqual([
      { role: 'tool', tool_call_id: 'id-a', content: 'alpha' },
      { role: 'tool', tool_call_id: 'id-b', content: 'Error: nope' },
    ]);
  });

  it('puts images, audio and PDFs in a user message after the tool messages', () => {
    const parts = [
      ...convertToFunctionResponse('read_file', 'r1', [
        { text: 'see picture' },
        { inlineData: { mimeType: 'image/png', data: 'PNG' } },
      ]),
      ...convertToFunctionResponse('read_file', 'r2', [
        { inlineData: { mimeType: 'audio/mpeg', data: 'MP3' } },
        { inlineData: { mimeType: 'application/pdf', data: 'PDF', displayName: 'doc.pdf' } },
      ]),
    ];
    const messages = toOpenAIToolMessages(parts);
    expect(messages.slice(0, 2).map((m) => m.role)).toEqual(['tool', 'tool']);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Attachment from the read_file call r1:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,PNG' } },
        { type: 'text', text: 'Attachment from the read_file call r2:' },
        { type: 'input_audio', input_audio: { data: 'MP3', format: 'mp3' } },
        { type: 'text', text: 'Attachment from the read_file call r2:' },
        {
          type: 'file',
          file: { filename: 'doc.pdf', file_data: 'data:application/pdf;base64,PDF' },
        },
      ],
    });
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
