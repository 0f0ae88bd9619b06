/** The runtime helpers of the content types; the types themselves: content.test-d.ts. */
import { describe, expect, it } from 'vitest';
import { partsToText, toParts } from './content.js';

describe('content helpers', () => {
  it('normalises a PartListUnion to parts', () => {
    expect(toParts('x')).toEqual([{ text: 'x' }]);
    expect(toParts(['x', { text: 'y' }])).toEqual([{ text: 'x' }, { text: 'y' }]);
    expect(toParts({ text: 'z' })).toEqual([{ text: 'z' }]);
  });

  it('joins the text parts', () => {
    expect(partsToText(['a', { inlineData: { data: 'x' } }, { text: 'b' }])).toBe('a\nb');
  });
});
