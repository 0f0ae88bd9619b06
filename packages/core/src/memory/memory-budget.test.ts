import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { Config } from '../config/config.js';
import { loadMemory } from './load-memory.js';
import { MAX_IMPORTS } from './memory-imports.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

function write(relative: string, text: string) {
  const file = path.join(dirs.root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const load = (permissions: unknown = {}, maxChars?: number) => {
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({ permissions }),
  );
  const { config } = Config.load({
    root: dirs.root,
    homeDir: dirs.home,
    env: {},
    systemSettingsPath: path.join(dirs.base, 'none.json'),
  });
  return loadMemory(config, { cwd: dirs.root, ...(maxChars ? { maxChars } : {}) });
};

/** `levels` levels of `fan` files, each importing every file of the next level. */
function fanOut(levels: number, fan: number) {
  const names = (level: number) => Array.from({ length: fan }, (_, i) => `l${level}/f${i}.md`);
  for (let level = 1; level <= levels; level++)
    for (const name of names(level)) {
      const next = level < levels ? names(level + 1).map((n) => `@../${n}`) : [];
      write(name, [`text of ${name}`, ...next].join('\n'));
    }
  return write('AGENTS.md', ['# Project', ...names(1).map((n) => `@${n}`)].join('\n'));
}

describe('memory imports within a budget', () => {
  it('stops a fan-out of 5 levels of 40 imports at the import budget, naming the file', () => {
    const agents = fanOut(5, 40);
    const memory = load();
    expect(memory.files).toEqual([agents]);
    expect(memory.text.match(/<!-- Imported from/g)?.length).toBe(MAX_IMPORTS);
    expect(memory.text.length).toBeLessThan(200_000);
    expect(memory.warnings.join('\n')).toMatch(
      new RegExp(
        `memory: ${dirs.root}/l\\d/f\\d+\\.md imports more than ${MAX_IMPORTS} files in all`,
      ),
    );
  });

  it('counts characters while importing and cuts the import that goes over', () => {
    write('big.md', 'x'.repeat(5_000));
    write('second.md', 'SECOND');
    const agents = write('AGENTS.md', '@big.md\n@second.md');
    const memory = load({}, 3_000);
    expect(memory.text).not.toContain('SECOND');
    expect(memory.text).not.toContain('x'.repeat(3_001));
    expect(memory.warnings).toContain(
      `memory: ${path.join(dirs.root, 'big.md')} is cut at the memory limit; the rest of its @ imports were left as written.`,
    );
    expect(memory.warnings).toContain(
      `memory: ${agents} imports more text than the memory limit holds; the rest of its @ imports were left as written.`,
    );
  });

  it('names a file whose imports go deeper than five levels', () => {
    for (let level = 1; level <= 6; level++)
      write(`d${level}.md`, `level ${level}\n@d${level + 1}.md`);
    write('d7.md', 'TOO DEEP');
    write('AGENTS.md', '@d1.md');
    const memory = load();
    expect(memory.text).toContain('level 5');
    expect(memory.text).not.toContain('level 6');
    expect(memory.warnings.join('\n')).toContain(
      `memory: ${path.join(dirs.root, 'd5.md')} imports more than 5 levels deep`,
    );
  });

  it('leaves out what a Read deny rule covers, imported or not, with a warning', () => {
    write('secrets/x.txt', 'SECRET-IN-MEMORY');
    write('AGENTS.md', 'See @secrets/x.txt and @notes.md');
    write('notes.md', 'NOTES');
    const memory = load({ deny: ['Read(./secrets/**)'] });
    expect(memory.text).not.toContain('SECRET-IN-MEMORY');
    expect(memory.text).toContain('NOTES');
    expect(memory.warnings).toContain(
      `memory: ${path.join(dirs.root, 'secrets', 'x.txt')} is left out: the rule Read(./secrets/**) in permissions.deny covers it.`,
    );
    expect(load({ deny: ['Read(AGENTS.md)'] }).files).toEqual([]);
  });
});
