import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { pathRules, resolveCoveredPaths, ruleRoot } from './covered-paths.js';
import { rulesFromSettings } from './permission-rules.js';

const bases = { projectRoot: '/ws', homeDir: '/home/me' };

describe('ruleRoot', () => {
  it('is the part of the rule before its first pattern, from the base it names', () => {
    expect(ruleRoot('./secrets/**', bases)).toBe('/ws/secrets');
    expect(ruleRoot('/secrets/*.txt', bases)).toBe('/ws/secrets');
    expect(ruleRoot('secrets/deep/x.txt', bases)).toBe('/ws/secrets/deep/x.txt');
    expect(ruleRoot('~/notes/{a,b}/**', bases)).toBe('/home/me/notes');
    expect(ruleRoot('~', bases)).toBe('/home/me');
    expect(ruleRoot('//etc/ssl/private/', bases)).toBe('/etc/ssl/private');
    expect(ruleRoot('//srv/@(a|b)/x', bases)).toBe('/srv');
    expect(ruleRoot('./a/[xy]/z', bases)).toBe('/ws/a');
  });

  it('is the project root for a name matched at any depth', () => {
    expect(ruleRoot('.env', bases)).toBe('/ws');
    expect(ruleRoot('*.pem', bases)).toBe('/ws');
    expect(ruleRoot('**/*.pem', bases)).toBe('/ws');
  });
});

describe('pathRules', () => {
  it('hides for rules naming read_file, freezes for rules naming a tool that edits, skips the rest', () => {
    const rules = pathRules(
      rulesFromSettings({
        permissions: {
          deny: ['Read(.env)', 'Edit(./a)', 'Write(./b)', 'Grep(./c)', 'Bash(rm:*)', 'Read'],
        },
      }),
      bases,
    );
    expect(rules.map((rule) => [rule.entry, rule.effect])).toEqual([
      ['Read(.env)', 'hide'],
      ['Edit(./a)', 'read-only'],
      ['Write(./b)', 'read-only'],
    ]);
  });
});

describe('resolveCoveredPaths', () => {
  let dirs: TempDirs;
  let root: string;
  beforeEach(() => {
    dirs = makeTempDirs();
    root = realpathSync(dirs.root);
  });
  afterEach(() => dirs.cleanup());

  const write = (file: string, text = 'x') => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  const resolve = (deny: string[], limits?: { entries: number; perRule: number }) =>
    resolveCoveredPaths(
      pathRules(rulesFromSettings({ permissions: { deny } }), {
        projectRoot: root,
        homeDir: dirs.home,
      }),
      limits,
    );
  const found = (covered: ReturnType<typeof resolve>) =>
    covered.paths
      .map((file) => `${file.effect} ${path.relative(root, file.path)}${file.folder ? '/' : ''}`)
      .sort();

  it('finds the existing paths each rule covers, a covered folder whole', () => {
    write('secrets/a.txt');
    write('secrets/deep/b.txt');
    write('.env');
    write('sub/dir/.env');
    write('keys/k.pem');
    write('conf/locked.txt');
    write('conf/open.txt');
    const covered = resolve([
      'Read(./secrets/**)',
      'Read(.env)',
      'Read(**/*.pem)',
      'Edit(./conf/locked.txt)',
      'Read(./missing/**)',
    ]);
    expect(found(covered)).toEqual([
      'hide .env',
      'hide keys/k.pem',
      'hide secrets/',
      'hide sub/dir/.env',
      'read-only conf/locked.txt',
    ]);
    expect(covered.unenforced).toEqual([]);
  });

  it('follows links to their real paths: a planted link, a linked folder, a rule written through a link', () => {
    write('vault/key.txt');
    write('elsewhere/data.bin');
    symlinkSync(path.join(root, 'vault'), path.join(root, 'secrets'));
    symlinkSync(path.join(root, 'elsewhere', 'data.bin'), path.join(root, 'cert.pem'));
    const covered = resolve(['Read(./secrets/**)', 'Read(*.pem)']);
    expect(found(covered)).toEqual(['hide elsewhere/data.bin', 'hide vault/']);
    const cert = covered.paths.find((file) => file.path.endsWith('data.bin'));
    expect(cert?.foundAs).toBe(path.join(root, 'cert.pem'));
  });

  it('walks a folder reached twice through links once, and a link loop ends', () => {
    write('a/x.pem');
    symlinkSync(path.join(root, 'a'), path.join(root, 'b'));
    symlinkSync(root, path.join(root, 'a', 'loop'));
    expect(found(resolve(['Read(**/*.pem)']))).toEqual(['hide a/x.pem']);
  });

  it('hides what both a Read and an Edit rule cover, and freezes a folder whole while looking for Read paths inside', () => {
    write('conf/x.txt');
    write('conf/inner/.env');
    expect(found(resolve(['Edit(./conf/**)', 'Read(./conf/x.txt)', 'Read(.env)']))).toEqual([
      'hide conf/inner/.env',
      'hide conf/x.txt',
      'read-only conf/',
    ]);
  });

  it('names the rules whose paths could not all be found within the bounds, keeping what it found', () => {
    for (let index = 0; index < 30; index++) write(`many/f${index}.txt`);
    write('secrets/a.txt');
    const walked = resolve(['Read(*.txt)', 'Read(./secrets/**)'], { entries: 20, perRule: 100 });
    // Each root has its own bound: the whole project's is over it, secrets/ is not.
    expect(walked.unenforced.map((rule) => rule.rule)).toEqual(['Read(*.txt)']);
    expect(walked.unenforced[0]?.reason).toContain('more than 20 entries');
    expect(found(walked)).toContain('hide secrets/');
    const counted = resolve(['Read(./many/*.txt)'], { entries: 1000, perRule: 10 });
    expect(counted.unenforced.map((rule) => rule.rule)).toEqual(['Read(./many/*.txt)']);
    expect(counted.unenforced[0]?.reason).toContain('more than 10 paths');
    expect(counted.paths).toHaveLength(10);
  });

  it('finds nothing, and walks nothing, without rules', () => {
    write('.env');
    expect(resolve([])).toEqual({ paths: [], unenforced: [] });
  });
});
