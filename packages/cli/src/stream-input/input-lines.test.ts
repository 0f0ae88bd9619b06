import { describe, expect, it } from 'vitest';
import { readInputLine } from './input-lines.js';

describe('readInputLine', () => {
  it('reads a user turn as text or as text and image blocks', () => {
    expect(readInputLine('{"type":"user","message":{"role":"user","content":"hello"}}')).toEqual({
      kind: 'user',
      content: 'hello',
    });
    const blocks = readInputLine(
      JSON.stringify({
        type: 'user',
        session_id: '',
        parent_tool_use_id: null,
        message: {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
          ],
        },
      }),
    );
    expect(blocks).toEqual({
      kind: 'user',
      content: [{ text: 'what is this?' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }],
    });
  });

  it('reads control requests and both kinds of control responses', () => {
    expect(
      readInputLine(
        '{"type":"control_request","request_id":"r1","request":{"subtype":"interrupt"}}',
      ),
    ).toEqual({ kind: 'control_request', requestId: 'r1', request: { subtype: 'interrupt' } });
    expect(
      readInputLine(
        '{"type":"control_response","response":{"subtype":"success","request_id":"q","response":{"behavior":"deny","message":"no"}}}',
      ),
    ).toEqual({
      kind: 'control_response',
      requestId: 'q',
      response: { behavior: 'deny', message: 'no' },
    });
    expect(
      readInputLine(
        '{"type":"control_response","response":{"subtype":"error","request_id":"q","error":"host failed"}}',
      ),
    ).toEqual({
      kind: 'control_response',
      requestId: 'q',
      response: undefined,
      error: 'host failed',
    });
  });

  it('says what is wrong with a line it cannot use', () => {
    const problem = (line: string) => {
      const read = readInputLine(line);
      return read.kind === 'invalid' ? read.problem : `read as ${read.kind}`;
    };
    expect(problem('{"type":"user"')).toMatch(/^not JSON/);
    expect(problem('[1]')).toMatch(/^not a JSON object/);
    expect(problem('{"type":"assistant"}')).toMatch(/unknown "type" "assistant"/);
    expect(problem('{"type":"user","message":{"role":"user","content":"  "}}')).toBe(
      'the user message is empty',
    );
    expect(problem('{"type":"user","message":{"content":[{"type":"tool_result"}]}}')).toMatch(
      /content block 0 \("tool_result"\)/,
    );
    expect(problem('{"type":"control_request","request_id":"r","request":{}}')).toMatch(
      /no "subtype"/,
    );
    expect(problem('{"type":"control_response","response":{"subtype":"success"}}')).toMatch(
      /needs "response"/,
    );
  });
});
