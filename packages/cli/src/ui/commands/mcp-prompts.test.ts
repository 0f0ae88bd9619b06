import { describe, expect, it } from 'vitest';
import { promptArguments } from './mcp-prompts.js';

const prompt = {
  name: 'review',
  arguments: [
    { name: 'file', required: true },
    { name: 'focus', required: false },
  ],
};

describe('MCP prompt arguments', () => {
  it('takes --name value, name=value, or words in the declared order', () => {
    expect(promptArguments(prompt, '--file a.ts --focus speed')).toEqual({
      file: 'a.ts',
      focus: 'speed',
    });
    expect(promptArguments(prompt, 'focus=speed a.ts')).toEqual({ file: 'a.ts', focus: 'speed' });
    expect(promptArguments(prompt, 'a.ts error handling')).toEqual({
      file: 'a.ts',
      focus: 'error handling',
    });
    expect(promptArguments(prompt, '"my file.ts"')).toEqual({ file: 'my file.ts' });
  });

  it('names what is missing or unknown', () => {
    expect(promptArguments(prompt, '')).toMatch(/^Prompt review needs file/);
    expect(promptArguments(prompt, '--colour red a.ts')).toBe(
      'Prompt review has no argument colour; it takes file, focus.',
    );
    expect(promptArguments({ name: 'bare', arguments: [] }, 'extra')).toBe(
      'Prompt bare takes no more arguments (got "extra").',
    );
  });
});
