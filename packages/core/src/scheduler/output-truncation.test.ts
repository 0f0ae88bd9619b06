import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { truncateAndSave } from './output-truncation.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const numbered = (count: number) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('truncateAndSave', () => {
  it('maxLines (tools.truncateOutputLines) keeps that many lines of a cut output, head and tail', async () => {
    const text = numbered(5000);
    const cut = await truncateAndSave(text, {
      threshold: 20_000,
      directory: path.join(dirs.base, 'out'),
      fileStem: 'run',
      maxLines: 10,
    });
    const [head, tail] = cut.text.split(/\n\n\[\.\.\. .*\]\n\n/s);
    expect(head).toBe(`${numbered(4)}\n`);
    expect(tail).toBe(Array.from({ length: 6 }, (_, index) => `line ${4995 + index}`).join('\n'));
    expect(readFileSync(cut.outputFile!, 'utf8')).toBe(text);
  });

  it('without maxLines only the character threshold limits, and short text is left alone', async () => {
    const options = { threshold: 20_000, directory: path.join(dirs.base, 'out'), fileStem: 'run' };
    const cut = await truncateAndSave(numbered(5000), options);
    expect(cut.text.split('\n').length).toBeGreaterThan(1000);
    expect((await truncateAndSave(numbered(10), { ...options, maxLines: 2 })).text).toBe(
      numbered(10),
    );
  });
});
