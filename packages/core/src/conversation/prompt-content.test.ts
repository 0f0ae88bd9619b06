import { describe, expect, it } from 'vitest';
import { withNoteBefore } from './prompt-content.js';

describe('a note before a prompt', () => {
  it('goes before the text, and into the first text part of a prompt with attachments', () => {
    expect(withNoteBefore('[note]', 'do it')).toBe('[note]\n\ndo it');
    const image = { inlineData: { mimeType: 'image/png', data: 'AAAA' } };
    expect(withNoteBefore('[note]', [{ text: 'look @a.png\n' }, image])).toEqual([
      { text: '[note]\n\nlook @a.png\n' },
      image,
    ]);
    expect(withNoteBefore('[note]', [image])).toEqual([{ text: '[note]' }, image]);
  });
});
