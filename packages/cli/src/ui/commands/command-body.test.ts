import { describe, expect, it } from 'vitest';
import { expandCommandBody, splitShellBlocks, splitWords } from './command-body.js';

describe('command body expansion', () => {
  it('replaces $ARGUMENTS, {{args}} and positional words', () => {
    expect(expandCommandBody('Review $ARGUMENTS now', 'src/a.ts')).toBe('Review src/a.ts now');
    expect(expandCommandBody('Search {{args}}', 'TODO')).toBe('Search TODO');
    expect(expandCommandBody('from $1 to $2 ($3)', "'a b' c")).toBe('from a b to c ()');
  });

  it('adds the arguments after the body when it has no placeholder', () => {
    expect(expandCommandBody('Explain the code.', 'only the parser')).toBe(
      'Explain the code.\n\nonly the parser',
    );
    expect(expandCommandBody('Explain the code.', '')).toBe('Explain the code.');
  });

  it('splits words like a shell', () => {
    expect(splitWords(`one "two three" 'four\\' five\\ six`)).toEqual([
      'one',
      'two three',
      'four\\',
      'five six',
    ]);
  });
});

describe('command body blocks', () => {
  it('makes @{path} an @ reference', () => {
    expect(expandCommandBody('Read @{docs/my notes.md} and @{src}', '')).toBe(
      'Read @docs/my\\ notes.md and @src',
    );
  });

  it('finds !{} blocks with balanced braces', () => {
    expect(splitShellBlocks('a !{echo {x}} b !{ls} c')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'shell', text: 'echo {x}' },
      { kind: 'text', text: ' b ' },
      { kind: 'shell', text: 'ls' },
      { kind: 'text', text: ' c' },
    ]);
    expect(splitShellBlocks('no block !{unclosed')).toEqual([
      { kind: 'text', text: 'no block !{unclosed' },
    ]);
  });
});
