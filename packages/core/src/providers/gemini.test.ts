import { describe, expect, it } from 'vitest';
import { convertToFunctionResponse } from '../scheduler/function-response.js';
import { toolNameMap } from './declarations.js';
import { toGeminiFunctionResponses, toGeminiTools } from './gemini.js';

describe('Gemini adapter', () => {
  const declarations = [
    { name: '2fa_code', description: 'Makes a code.', parametersJsonSchema: { type: 'object' } },
  ];

  it('declares names Gemini accepts and answers under the same names', () => {
    const [tool] = toGeminiTools(declarations);
    expect(tool?.functionDeclarations).toEqual([
      {
        name: '_2fa_code',
        description: 'Makes a code.',
        parametersJsonSchema: { type: 'object', properties: {} },
      },
    ]);
    const names = toolNameMap(declarations, 'gemini');
    expect(names.toTool('_2fa_code')).toBe('2fa_code');
    const content = toGeminiFunctionResponses(
      convertToFunctionResponse('2fa_code', 'c1', '123456'),
      { names },
    );
    expect(content).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'c1', name: '_2fa_code', response: { output: '123456' } } },
      ],
    });
  });

  it('keeps a failure under error, with notes for media left out', () => {
    const content = toGeminiFunctionResponses(
      convertToFunctionResponse(
        'read_file',
        'c2',
        [{ text: 'Error: no' }, { inlineData: { mimeType: 'image/tiff', data: 'AAAA' } }],
        { isError: true },
      ),
    );
    const response = content.parts[0]?.functionResponse?.response;
    expect(response?.error).toMatch(
      /^no\n\[Image read_file-1\.tiff \(image\/tiff, 3 bytes\) from the read_file call c2 was left out: Gemini does not take image\/tiff images/,
    );
  });
});
