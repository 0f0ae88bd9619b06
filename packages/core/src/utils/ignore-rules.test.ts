import { mkdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { IgnoreRules } from './ignore-rules.js';

let dirs: TempDirs;
let root: string;
const p = (...parts: string[]) => path.join(root, ...parts);
function write(rel: string, text = '') {
  mkdirSync(path.dirname(p(rel)), { recursive: true });
  writeFileSync(p(rel), text);
}

beforeEach(() => {
  dirs = makeTempDirs();
  root = dirs.root;
});
afterEach(() => dirs.cleanup());

describe('IgnoreRules', () => {
  it('ignores nothing outside a git repository, even with a .gitignore', () => {
    write('.gitignore', '*.log\n');
    expect(new IgnoreRules([root]).reason(p('a.log'), false)).toBeNull();
  });

  it('answers the same for every file of a walk larger than it keeps answers for', () => {
    mkdirSync(p('.git'));
    write('.gitignore', '*.log\n!keep-*.log\n');
    const rules = new IgnoreRules([root]);
    for (let i = 0; i < 10_000; i++) {
      const dir = `d${i % 7}`;
      expect(rules.reason(p(dir, `f${i}.log`), false)).toBe('git');
      expect(rules.reason(p(dir, `keep-${i}.log`), false)).toBeNull();
      expect(rules.reason(p(dir, `f${i}.ts`), false)).toBeNull();
    }
  });

  it('reads a rule file again when it changes between instances, even at the same size and time', () => {
    mkdirSync(p('.git'));
    // Written an hour ago: old enough to be kept compiled between instances (calls).
    const hourAgo = new Date(Date.now() - 3_600_000);
    write('.gitignore', 'a.txt\n');
    utimesSync(p('.gitignore'), hourAgo, hourAgo);
    const ignored = () =>
      ['a.txt', 'b.txt', 'c.txt'].filter((name) =>
        new IgnoreRules([root]).isIgnored(p(name), false),
      );
    expect(ignored()).toEqual(['a.txt']);
    expect(ignored()).toEqual(['a.txt']);

    // Same size, and its modification time set back to exactly what it was: the change time
    // still tells.
    const before = statSync(p('.gitignore'));
    write('.gitignore', 'b.txt\n');
    utimesSync(p('.gitignore'), before.atime, before.mtime);
    expect(statSync(p('.gitignore')).size).toBe(before.size);
    expect(ignored()).toEqual(['b.txt']);

    // Replaced by another file (another inode), also an hour old.
    write('.gitignore.new', 'c.txt\n');
    utimesSync(p('.gitignore.new'), hourAgo, hourAgo);
    renameSync(p('.gitignore.new'), p('.gitignore'));
    expect(ignored()).toEqual(['c.txt']);

    rmSync(p('.gitignore'));
    expect(ignored()).toEqual([]);
  });

  it('applies nested .gitignore files, deeper ones winning', () => {
    mkdirSync(p('.git'));
    write('.gitignore', '*.log\nbuild/\n');
    write('pkg/.gitignore', '!keep.log\nsecret.txt\n');
    const rules = new IgnoreRules([root]);
    expect(rules.reason(p('a.log'), false)).toBe('git');
    expect(rules.reason(p('pkg', 'keep.log'), false)).toBeNull();
    expect(rules.reason(p('pkg', 'other.log'), false)).toBe('git');
    expect(rules.reason(p('pkg', 'secret.txt'), false)).toBe('git');
    expect(rules.reason(p('secret.txt'), false)).toBeNull();
    expect(rules.reason(p('build'), true)).toBe('git');
    expect(rules.reason(p('build'), false)).toBeNull();
    expect(rules.reason(p('build', 'out.js'), false)).toBe('git');
    expect(rules.reason(p('.git'), true)).toBe('repository');
    expect(rules.reason(p('.git', 'config'), false)).toBe('repository');
  });

  it('cannot re-include a file inside an ignored folder', () => {
    mkdirSync(p('.git'));
    write('.gitignore', 'vendor/\n!vendor/keep.js\n');
    expect(new IgnoreRules([root]).reason(p('vendor', 'keep.js'), false)).toBe('git');
  });

  it('reads .git/info/exclude', () => {
    mkdirSync(p('.git', 'info'), { recursive: true });
    writeFileSync(p('.git', 'info', 'exclude'), 'local.txt\n');
    expect(new IgnoreRules([root]).reason(p('local.txt'), false)).toBe('git');
  });

  it('applies .toolhostignore and .qwenignore at the workspace root', () => {
    write('.toolhostignore', 'private/\n');
    write('.qwenignore', '*.secret\n');
    const rules = new IgnoreRules([root]);
    expect(rules.reason(p('private', 'a.txt'), false)).toBe('toolhost');
    expect(rules.reason(p('x', 'a.secret'), false)).toBe('toolhost');
    expect(rules.reason(p('x', 'a.txt'), false)).toBeNull();
  });

  it('can be told to respect neither', () => {
    mkdirSync(p('.git'));
    write('.gitignore', '*.log\n');
    write('.toolhostignore', '*.txt\n');
    const rules = new IgnoreRules([root], {
      respectGitIgnore: false,
      respectToolhostIgnore: false,
    });
    expect(rules.reason(p('a.log'), false)).toBeNull();
    expect(rules.reason(p('a.txt'), false)).toBeNull();
  });
});
