import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter } from './think-tags.js';

function split(chunks: string[]) {
  const splitter = new ThinkTagSplitter();
  let thinking = '';
  let text = '';
  for (const chunk of [...chunks.map((c) => splitter.push(c)), splitter.flush()]) {
    thinking += chunk.thinking;
    text += chunk.text;
  }
  return { thinking, text };
}

describe('ThinkTagSplitter', () => {
  it('separates <think> blocks whatever the chunk boundaries', () => {
    expect(split(['<thi', 'nk>plan it', ' out</th', 'ink>\n\nThe answer.'])).toEqual({
      thinking: 'plan it out',
      text: 'The answer.',
    });
  });

  it('leaves answers without a leading think block alone', () => {
    expect(split(['Use <think> tags', ' like this.'])).toEqual({
      thinking: '',
      text: 'Use <think> tags like this.',
    });
    expect(split(['<', 'b>bold</b>'])).toEqual({ thinking: '', text: '<b>bold</b>' });
  });
});
