import { describe, expect, it } from 'vitest';
import { checkAnswer, retryPrompt } from './structured-output.js';

const SCHEMA = {
  type: 'object',
  properties: { files: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['files'],
};

describe('checkAnswer', () => {
  it('takes the JSON value, with or without a Markdown fence around it', () => {
    expect(checkAnswer(SCHEMA, '{"files": 2}')).toEqual({ ok: true, value: { files: 2 } });
    expect(checkAnswer(SCHEMA, '```json\n{"files": 2, "tags": ["a"]}\n```')).toEqual({
      ok: true,
      value: { files: 2, tags: ['a'] },
    });
  });

  it('names every problem the way the model can fix it', () => {
    const check = checkAnswer(SCHEMA, '{"tags": [1]}');
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems).toContain('files is required');
    expect(check.problems).toContain('tags[0] must be string');
    expect(retryPrompt(check.problems)).toContain('Answer again with only the corrected JSON');
  });

  it('says when the answer is not JSON, empty, or of the wrong type', () => {
    expect(checkAnswer(SCHEMA, 'Two files.')).toMatchObject({
      ok: false,
      problems: expect.stringMatching(/^the answer is not valid JSON/),
    });
    expect(checkAnswer(SCHEMA, '   ')).toMatchObject({
      ok: false,
      problems: expect.stringContaining('empty'),
    });
    expect(checkAnswer(SCHEMA, '[1, 2]')).toEqual({
      ok: false,
      problems: 'the answer must be of type "object"',
    });
  });
});
