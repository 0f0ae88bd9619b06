import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { confirmMatches } from './grep-confirm.js';
import { cutLine, type GrepMatch } from './grep-request.js';

let dirs: TempDirs;
const p = (name: string) => path.join(dirs.root, name);
const inside = (real: string) => real.startsWith(`${dirs.root}${path.sep}`);

beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

/** Every line of `text` (as an engine would report it) that contains "needle". */
function reported(name: string, text: string): GrepMatch[] {
  return text
    .split('\n')
    .map((line, index) => ({
      file: p(name),
      line: index + 1,
      text: cutLine(line.replace(/\r$/, '')),
    }))
    .filter((match) => match.text.includes('needle'));
}

describe('confirmMatches', () => {
  it('confirms lines past lines longer than its buffer, CRLF lines and a last line without a newline', () => {
    const long = `needle ${'é'.repeat(100_000)}`;
    const files = {
      'long.txt': `a\n${long}\nneedle after\n${'x'.repeat(300_000)}\nneedle last`,
      'crlf.txt': 'one\r\nneedle crlf\r\ntwo\r\n',
      'many.txt': Array.from({ length: 20_000 }, (_, i) =>
        i % 997 ? `line ${i}` : `needle ${i}`,
      ).join('\n'),
    };
    const matches: GrepMatch[] = [];
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(p(name), text);
      matches.push(...reported(name, text));
    }
    matches.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
    expect(matches.length).toBe(3 + 1 + 21);
    const result = confirmMatches(matches, inside);
    expect(result.dropped).toEqual({ matches: 0, files: 0 });
    expect(result.matches).toEqual(matches);
  });

  it('drops matches whose line now reads otherwise, beyond the file, or in a file it may not read', () => {
    writeFileSync(p('a.txt'), 'needle one\nchanged\nneedle three\n');
    writeFileSync(path.join(dirs.base, 'outside.txt'), 'needle\n');
    const matches: GrepMatch[] = [
      { file: p('a.txt'), line: 1, text: 'needle one' },
      { file: p('a.txt'), line: 2, text: 'needle two' },
      { file: p('a.txt'), line: 3, text: 'needle three' },
      { file: p('a.txt'), line: 9, text: 'needle nine' },
      { file: path.join(dirs.base, 'outside.txt'), line: 1, text: 'needle' },
      { file: p('gone.txt'), line: 1, text: 'needle' },
    ];
    const result = confirmMatches(matches, inside);
    expect(result.matches.map((m) => `${path.basename(m.file)}:${m.line}`)).toEqual([
      'a.txt:1',
      'a.txt:3',
    ]);
    expect(result.dropped).toEqual({ matches: 4, files: 2 });
  });
});
