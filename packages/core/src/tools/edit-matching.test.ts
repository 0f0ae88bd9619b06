import { describe, expect, it } from 'vitest';
import { applyReplacements, planReplacements } from './edit-matching.js';

function edit(content: string, oldString: string, newString: string, expected = 1) {
  const outcome = planReplacements(content, oldString, newString, expected);
  if (outcome.kind !== 'matched') return outcome;
  return { strategy: outcome.strategy, result: applyReplacements(content, outcome.replacements) };
}

describe('planReplacements: exact', () => {
  it('replaces the single occurrence', () => {
    expect(edit('a\nb\nc\n', 'b', 'B')).toEqual({ strategy: 'exact', result: 'a\nB\nc\n' });
  });

  it('inserts $ patterns literally', () => {
    expect(edit('x = 1;', '1', "$& $1 $$ $' $`")).toEqual({
      strategy: 'exact',
      result: "x = $& $1 $$ $' $`;",
    });
  });

  it('reports every occurrence when the count differs, with line numbers', () => {
    expect(planReplacements('foo\nbar\nfoo\nfoo\n', 'foo', 'x', 1)).toEqual({
      kind: 'count_mismatch',
      strategy: 'exact',
      found: 3,
      lines: [1, 3, 4],
    });
  });

  it('replaces all when the expected count matches', () => {
    expect(edit('foo foo foo', 'foo', 'bar', 3)).toEqual({
      strategy: 'exact',
      result: 'bar bar bar',
    });
  });

  it('matches LF text in a CRLF file and writes CRLF', () => {
    expect(edit('a\r\nb\r\nc\r\n', 'a\nb\n', 'A\nB\n')).toEqual({
      strategy: 'exact',
      result: 'A\r\nB\r\nc\r\n',
    });
  });
});

describe('planReplacements: recoveries', () => {
  it('treats curly quotes and dashes as plain, keeping the file’s forms in unchanged text', () => {
    const content = 'const title = “Don’t panic” – said Ford;\n';
    const outcome = edit(
      content,
      'const title = "Don\'t panic" - said Ford;',
      'const title = "Don\'t panic" - said Arthur;',
    );
    expect(outcome).toEqual({
      strategy: 'unicode',
      result: 'const title = “Don’t panic” – said Arthur;\n',
    });
  });

  it('treats a non-breaking space as a space', () => {
    expect(edit('price:\u00a0100', 'price: 100', 'price: 200')).toMatchObject({
      strategy: 'unicode',
    });
  });

  it('ignores trailing whitespace, keeping unchanged lines as they are in the file', () => {
    const content = 'function a() {  \n  return 1;\t\n}\n';
    const outcome = edit(
      content,
      'function a() {\n  return 1;\n}',
      'function a() {\n  return 2;\n}',
    );
    expect(outcome).toEqual({
      strategy: 'trailing_whitespace',
      result: 'function a() {  \n  return 2;\n}\n',
    });
  });

  it('re-indents when only the indentation differs', () => {
    const content = 'class A {\n    method() {\n        return 1;\n    }\n}\n';
    const outcome = edit(
      content,
      'method() {\n    return 1;\n}',
      'method() {\n    const x = 2;\n    return x;\n}',
    );
    expect(outcome).toEqual({
      strategy: 'indentation',
      result: 'class A {\n    method() {\n        const x = 2;\n        return x;\n    }\n}\n',
    });
  });

  it('refuses an ambiguous recovery and says where the candidates are', () => {
    const content = '  x = 1\n  y\n    x = 1\n';
    expect(planReplacements(content, 'x = 1\n', 'x = 2\n', 1)).toMatchObject({
      kind: 'count_mismatch',
      found: 2,
    });
    const outcome = planReplacements('\tx = 1;\n\t\tx = 1;\n', 'x = 1; ', 'x = 2;', 1);
    expect(outcome).toMatchObject({
      kind: 'count_mismatch',
      strategy: 'indentation',
      found: 2,
      lines: [1, 2],
    });
  });

  it('prefers the earliest strategy that matches', () => {
    // Both trailing-whitespace and indentation would match; trailing whitespace is tried first.
    expect(edit('  a  \n', '  a\n', '  b\n')).toMatchObject({ strategy: 'trailing_whitespace' });
  });
});

describe('planReplacements: not found', () => {
  it('shows the most similar region', () => {
    const content = [
      'import x;',
      '',
      'function total(items) {',
      '  return items.reduce((a, b) => a + b, 0);',
      '}',
      '',
    ].join('\n');
    const outcome = planReplacements(
      content,
      'function total(item) {\n  return item.reduce((a, b) => a + b);\n}',
      'x',
      1,
    );
    expect(outcome.kind).toBe('not_found');
    if (outcome.kind !== 'not_found') return;
    expect(outcome.closest).toMatchObject({ startLine: 3, endLine: 5 });
    expect(outcome.closest?.similarity).toBeGreaterThan(0.7);
  });

  it('gives no region when nothing resembles the text', () => {
    const outcome = planReplacements('alpha\nbeta\n', 'zzzz qqqq', 'x', 1);
    expect(outcome).toEqual({ kind: 'not_found', closest: null });
  });
});
