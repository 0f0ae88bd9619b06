/**
 * toolhost's content types must be structurally those of the Gemini API. The assignments
 * below are checked by `tsc` (npm run typecheck runs over tests): if a field's name or type
 * drifts from @google/genai's, this file stops compiling.
 */
import type * as genai from '@google/genai';
import { describe, expect, it } from 'vitest';
import type * as ours from './content.js';
import { partsToText, toParts } from './content.js';

// Ours → Gemini's: what toolhost produces can be sent to the Gemini API.
const toGeminiPart = (part: ours.Part): genai.Part => part;
const toGeminiList = (list: ours.PartListUnion): genai.PartListUnion => list;
const toGeminiDeclaration = (declaration: ours.FunctionDeclaration): genai.FunctionDeclaration => ({
  ...declaration,
  parameters: declaration.parameters as genai.Schema | undefined,
});
const toGeminiCall = (call: ours.FunctionCall): genai.FunctionCall => call;
const toGeminiResponse = (response: ours.FunctionResponse): genai.FunctionResponse => response;
// Gemini's → ours: what the Gemini API returns can be handed to the scheduler.
const fromGeminiCall = (call: genai.FunctionCall): ours.FunctionCall => call;
const fromGeminiList = (list: genai.PartListUnion): ours.PartListUnion =>
  list as ours.PartListUnion;
const fromGeminiBlob = (blob: genai.Blob): ours.Blob => blob;

describe('content types', () => {
  it('pass to and from the Gemini API types unchanged', () => {
    const part: ours.Part = { inlineData: { mimeType: 'image/png', data: 'AAAA' } };
    expect(toGeminiPart(part)).toBe(part);
    expect(toGeminiList(['a', part])).toEqual(['a', part]);
    expect(toGeminiCall({ id: '1', name: 'read_file', args: { absolute_path: '/x' } }).name).toBe(
      'read_file',
    );
    expect(
      toGeminiResponse({ id: '1', name: 'read_file', response: { output: 'x' } }).response,
    ).toEqual({
      output: 'x',
    });
    expect(
      toGeminiDeclaration({ name: 'n', description: 'd', parametersJsonSchema: { type: 'object' } })
        .name,
    ).toBe('n');
    expect(fromGeminiCall({ name: 'glob', args: {} }).name).toBe('glob');
    expect(fromGeminiList('text')).toBe('text');
    expect(fromGeminiBlob({ mimeType: 'a/b' }).mimeType).toBe('a/b');
  });

  it('normalises a PartListUnion to parts', () => {
    expect(toParts('x')).toEqual([{ text: 'x' }]);
    expect(toParts(['x', { text: 'y' }])).toEqual([{ text: 'x' }, { text: 'y' }]);
    expect(toParts({ text: 'z' })).toEqual([{ text: 'z' }]);
  });

  it('joins the text parts', () => {
    expect(partsToText(['a', { inlineData: { data: 'x' } }, { text: 'b' }])).toBe('a\nb');
  });
});
