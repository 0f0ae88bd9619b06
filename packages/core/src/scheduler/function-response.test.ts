import { describe, expect, it } from 'vitest';
import { convertToFunctionResponse, createErrorResponse } from './function-response.js';

describe('convertToFunctionResponse', () => {
  it('wraps plain text', () => {
    expect(convertToFunctionResponse('read_file', 'c1', 'hello')).toEqual([
      { functionResponse: { id: 'c1', name: 'read_file', response: { output: 'hello' } } },
    ]);
  });

  it('joins every text part and keeps every media part after the response', () => {
    const image = { inlineData: { mimeType: 'image/png', data: 'AAA' } };
    const pdf = { inlineData: { mimeType: 'application/pdf', data: 'BBB' } };
    const link = { fileData: { mimeType: 'text/plain', fileUri: 'file:///x' } };
    const parts = convertToFunctionResponse('t', 'c', ['one', image, { text: 'two' }, pdf, link]);
    expect(parts).toEqual([
      { functionResponse: { id: 'c', name: 't', response: { output: 'one\ntwo' } } },
      image,
      pdf,
      link,
    ]);
  });

  it('describes media-only results in the response', () => {
    const [response] = convertToFunctionResponse('t', 'c', [
      { inlineData: { mimeType: 'image/gif', data: 'A' } },
    ]);
    expect(response?.functionResponse?.response?.output).toContain('image/gif');
  });

  it('puts an error result under error, without the Error: prefix adapters add once', () => {
    expect(convertToFunctionResponse('t', 'c', 'Error: Error: nope', { isError: true })[0]).toEqual(
      {
        functionResponse: { id: 'c', name: 't', response: { error: 'nope' } },
      },
    );
  });

  it('keeps a response a tool built itself, under the scheduler id and name', () => {
    const parts = convertToFunctionResponse('t', 'c', [
      { functionResponse: { name: 'other', response: { structured: { a: 1 } } } },
    ]);
    expect(parts).toEqual([
      { functionResponse: { id: 'c', name: 't', response: { structured: { a: 1 } } } },
    ]);
  });
});

describe('createErrorResponse', () => {
  it('carries the message', () => {
    expect(createErrorResponse('t', 'c', 'bad')).toEqual([
      { functionResponse: { id: 'c', name: 't', response: { error: 'bad' } } },
    ]);
  });
});
