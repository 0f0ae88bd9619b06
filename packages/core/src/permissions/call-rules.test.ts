import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { Config } from '../config/config.js';
import { deniedFileTest, pathRuleCovering, pathRuleRoots, pathRuleWarnings } from './call-rules.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const session = (permissions: unknown) => {
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({ permissions }),
  );
  return Config.load({
    root: dirs.root,
    homeDir: dirs.home,
    env: {},
    systemSettingsPath: path.join(dirs.base, 'none.json'),
  }).config;
};

describe('the helpers for checks outside the file tools', () => {
  it('pathRuleCovering answers for reading and changing, deny first, through links', () => {
    mkdirSync(path.join(dirs.root, 'secrets'));
    symlinkSync(path.join(dirs.root, 'secrets'), path.join(dirs.root, 'alias'));
    const config = session({
      deny: ['Read(./secrets/**)', 'Edit(./locked/**)', 'Bash(rm:*)'],
      ask: ['Edit(./secrets/**)', 'Write(./w/**)'],
    });
    const secret = path.join(dirs.root, 'secrets', 'x');
    expect(pathRuleCovering(config, secret, 'read')?.entry).toBe('Read(./secrets/**)');
    expect(pathRuleCovering(config, path.join(dirs.root, 'alias', 'x'), 'read')?.entry).toBe(
      'Read(./secrets/**)',
    );
    expect(pathRuleCovering(config, path.join(dirs.root, 'open'), 'read')).toBeUndefined();
    expect(pathRuleCovering(config, secret, 'edit')).toBeUndefined();
    expect(pathRuleCovering(config, secret, 'edit', ['deny', 'ask'])?.entry).toBe(
      'Edit(./secrets/**)',
    );
    expect(pathRuleCovering(config, path.join(dirs.root, 'w', 'f'), 'edit', ['ask'])?.entry).toBe(
      'Write(./w/**)',
    );
    expect(pathRuleCovering(config, path.join(dirs.root, 'locked', 'f'), 'edit')?.list).toBe(
      'deny',
    );
    expect(pathRuleCovering(config, path.join(dirs.root, 'locked', 'f'), 'read')).toBeUndefined();
  });

  it('pathRuleRoots lists where each rule starts, as written and resolved, and whether whole', () => {
    mkdirSync(path.join(dirs.base, 'real'));
    symlinkSync(path.join(dirs.base, 'real'), path.join(dirs.root, 'linked'));
    const config = session({
      deny: ['Read(./linked/**)', 'Read(.env)', 'Read(./src/*.{pem,key})', 'Edit(./e)', 'WebFetch'],
    });
    expect(
      pathRuleRoots(config, 'read').map(({ rule, root, whole }) => [rule.entry, root, whole]),
    ).toEqual([
      ['Read(./linked/**)', path.join(dirs.root, 'linked'), true],
      ['Read(./linked/**)', path.join(dirs.base, 'real'), true],
      ['Read(.env)', dirs.root, false],
      ['Read(./src/*.{pem,key})', path.join(dirs.root, 'src'), false],
      ['Read(./src/*.{pem,key})', path.join(dirs.root, 'src'), false],
    ]);
    expect(pathRuleRoots(config, 'edit').map(({ root }) => root)).toEqual([
      path.join(dirs.root, 'e'),
    ]);
    expect(pathRuleRoots(config, 'edit', 'ask')).toEqual([]);
  });

  it('deniedFileTest names the rule for a file, relative or absolute, and null without rules', () => {
    const config = session({ deny: ['Read(*.pem)'] });
    const test = deniedFileTest(config, 'grep_search');
    expect(test?.('keys/a.pem')).toBe('Read(*.pem)');
    expect(test?.(path.join(dirs.root, 'a.txt'))).toBeUndefined();
    expect(deniedFileTest(config, 'write_file')).toBeNull();
  });

  it('pathRuleWarnings names each rule it cannot read, with what it does instead', () => {
    const config = session({
      deny: ['Read(./k/[x)', 'Read(./ok/**)'],
      ask: ['Edit(./a/*/../b)'],
      allow: ['Read(./[y)', 'mcp__s', 'Bash(ls [x)'],
    });
    expect(pathRuleWarnings(config)).toEqual([
      `permissions.deny: "Read(./k/[x)" cannot be read as a path pattern: a "[" is not closed by "]" (write "\\[" for the character itself); it refuses everything in ${path.join(dirs.root, 'k')} instead.`,
      `permissions.ask: "Edit(./a/*/../b)" cannot be read as a path pattern: ".." after a wildcard cannot be resolved to a folder; it asks about everything in ${path.join(dirs.root, 'a')} instead.`,
      'permissions.allow: "Read(./[y)" cannot be read as a path pattern: a "[" is not closed by "]" (write "\\[" for the character itself); it allows nothing.',
    ]);
  });
});
