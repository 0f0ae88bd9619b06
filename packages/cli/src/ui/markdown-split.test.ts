import { describe, expect, it } from 'vitest';
import { splitFinishedBlocks } from './markdown-split.js';

describe('splitFinishedBlocks', () => {
  it('moves finished paragraphs out and keeps the one still arriving', () => {
    const { finished, rest } = splitFinishedBlocks('First paragraph.\n\nSecond one is still');
    expect(finished).toBe('First paragraph.');
    expect(rest).toBe('Second one is still');
  });

  it('never cuts inside a code block, even at a blank line', () => {
    const text = 'Intro.\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter the code';
    const { finished, rest } = splitFinishedBlocks(text);
    expect(finished).toBe('Intro.\n\n```js\nconst a = 1;\n\nconst b = 2;\n```');
    expect(rest).toBe('After the code');
    const open = splitFinishedBlocks('Intro.\n\n```js\nconst a = 1;\n\nconst b');
    expect(open.finished).toBe('Intro.');
    expect(open.rest).toBe('```js\nconst a = 1;\n\nconst b');
  });

  it('keeps a list, a table or a quote whole across blank lines', () => {
    for (const next of ['- two', '2. two', '  continued', '| a | b |', '> more']) {
      const text = `Intro.\n\n- one\n\n${next}\n\nTail text here`;
      const { finished } = splitFinishedBlocks(text);
      expect(finished).toBe(`Intro.\n\n- one\n\n${next}`);
    }
  });

  it('waits for enough of the next line to know it does not continue a list', () => {
    expect(splitFinishedBlocks('- one\n\n1').finished).toBe('');
    expect(splitFinishedBlocks('- one\n\nNext paragraph').finished).toBe('- one');
  });

  it('keeps everything when there is no finished block', () => {
    expect(splitFinishedBlocks('just one line')).toEqual({ finished: '', rest: 'just one line' });
    expect(splitFinishedBlocks('')).toEqual({ finished: '', rest: '' });
  });
});
