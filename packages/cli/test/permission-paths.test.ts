/**
 * Path rules hold whatever the project folder is called and however a path is reached:
 * `toolhost call` in a folder whose name holds every glob character, with HOME and the
 * workspace reached through links, rules written through either path. The proof is the
 * effect: the secret not printed, the file not written, the question asked.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCli } from './run-cli.js';

const SECRET = 'the-secret-value-42';
/** Every character a glob library gives meaning to, in the names people and browsers use. */
const NAMES = ['repo (1)', '[a]', '{b,c}', '@(x)', '!x', 'a*b?', '+(y)'];

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const settings = (home: string, permissions: unknown) => {
  mkdirSync(path.join(home, '.toolhost'), { recursive: true });
  writeFileSync(path.join(home, '.toolhost', 'settings.json'), JSON.stringify({ permissions }));
};

/** A project with `secrets/x.txt` at `folder`. */
const project = (folder: string) => {
  mkdirSync(path.join(folder, 'secrets'), { recursive: true });
  writeFileSync(path.join(folder, 'secrets', 'x.txt'), `${SECRET}\n`);
  writeFileSync(path.join(folder, 'open.txt'), 'open text\n');
  return folder;
};

const call = (root: string, tool: string, args: unknown, extra: string[] = [], home = dirs.home) =>
  runCli(['call', tool, JSON.stringify(args), '--root', root, ...extra], { cwd: root, home });

describe('path rules in a folder whose name holds glob characters', () => {
  it.each(NAMES)('Read(./secrets/**) keeps read_file from printing the secret in "%s"', (name) => {
    const root = project(path.join(dirs.base, name));
    settings(dirs.home, { deny: ['Read(./secrets/**)'] });
    const denied = call(root, 'read_file', { absolute_path: path.join(root, 'secrets', 'x.txt') });
    expect(denied.stdout + denied.stderr).not.toContain(SECRET);
    expect(denied.stdout + denied.stderr).toContain('Read(./secrets/**)');
    // The rule covers only what it names: the folder's other files are read.
    const open = call(root, 'read_file', { absolute_path: path.join(root, 'open.txt') });
    expect(open.stdout, open.stderr).toContain('open text');
  });

  it('with every such name nested: Edit deny stops write_file in yolo, ask rules still ask', () => {
    const root = project(path.join(dirs.base, ...NAMES));
    settings(dirs.home, {
      deny: ['Edit(./secrets/**)', 'Read(*.pem)'],
      ask: ['Read(./secrets/**)'],
    });
    const victim = path.join(root, 'secrets', 'x.txt');
    const write = call(root, 'write_file', { file_path: victim, content: 'overwritten' }, [
      '--approval-mode',
      'yolo',
    ]);
    expect(write.stdout + write.stderr).toContain('Edit(./secrets/**)');
    expect(readFileSync(victim, 'utf8')).toBe(`${SECRET}\n`);
    const created = path.join(root, 'secrets', 'new.txt');
    call(root, 'write_file', { file_path: created, content: 'x' }, ['--approval-mode', 'yolo']);
    expect(existsSync(created)).toBe(false);

    // The ask rule asks; `call` without --yes cannot ask, so nothing is read.
    const asked = call(root, 'read_file', { absolute_path: victim });
    expect(asked.code).toBe(3);
    expect(asked.stdout + asked.stderr).not.toContain(SECRET);
    expect(call(root, 'read_file', { absolute_path: victim }, ['--yes']).stdout).toContain(SECRET);

    // A name rule at any depth, and a search tool leaving the covered file out.
    writeFileSync(path.join(root, 'k.pem'), 'PEM-SECRET');
    const pem = call(root, 'read_file', { absolute_path: path.join(root, 'k.pem') });
    expect(pem.stdout + pem.stderr).not.toContain('PEM-SECRET');
    const grep = call(root, 'grep_search', { pattern: 'PEM-S.CRET' });
    expect(grep.stdout).not.toContain('PEM-SECRET');
    expect(grep.stdout).not.toContain('k.pem');
  }, 60_000);
});

describe('path rules through links', () => {
  /** HOME reached through a link, as on Fedora Silverblue (/home -> /var/home). */
  const linkedHome = () => {
    const realHome = path.join(dirs.base, 'var', 'home', 'me');
    mkdirSync(realHome, { recursive: true });
    symlinkSync(path.join(dirs.base, 'var', 'home'), path.join(dirs.base, 'linkhome'));
    const home = path.join(dirs.base, 'linkhome', 'me');
    project(path.join(realHome, 'proj'));
    return {
      realHome,
      home,
      linkedRoot: path.join(home, 'proj'),
      realRoot: path.join(realHome, 'proj'),
    };
  };

  it('Read(~/...) and Edit(~/...) hold for the real path and the link path of HOME', () => {
    const { home, realRoot, linkedRoot } = linkedHome();
    settings(home, { deny: ['Read(~/proj/secrets/**)', 'Edit(~/proj/secrets/**)'] });
    for (const root of [realRoot, linkedRoot])
      for (const file of [realRoot, linkedRoot].map((at) => path.join(at, 'secrets', 'x.txt'))) {
        const read = call(root, 'read_file', { absolute_path: file }, [], home);
        expect(read.stdout + read.stderr, `${root} ${file}`).not.toContain(SECRET);
        expect(read.stdout + read.stderr).toContain('Read(~/proj/secrets/**)');
        call(
          root,
          'write_file',
          { file_path: file, content: 'gone' },
          ['--approval-mode', 'yolo'],
          home,
        );
        expect(readFileSync(file, 'utf8')).toBe(`${SECRET}\n`);
      }
    const open = call(
      realRoot,
      'read_file',
      { absolute_path: path.join(linkedRoot, 'open.txt') },
      [],
      home,
    );
    expect(open.stdout).toContain('open text');
  }, 60_000);

  it('a //abs rule written through a link, or through the real path, holds for either', () => {
    const { home, realRoot, linkedRoot } = linkedHome();
    for (const written of [linkedRoot, realRoot]) {
      const rule = `Read(/${written}/secrets/**)`;
      settings(home, { deny: [rule] });
      for (const file of [realRoot, linkedRoot].map((at) => path.join(at, 'secrets', 'x.txt'))) {
        const read = call(linkedRoot, 'read_file', { absolute_path: file }, [], home);
        expect(read.stdout + read.stderr, `${rule} ${file}`).not.toContain(SECRET);
      }
      // A walk leaves the covered file out, whichever path it goes through.
      const listed = call(realRoot, 'read_many_files', { paths: ['**/*.txt'] }, [], home);
      expect(listed.stdout, rule).not.toContain(SECRET);
      expect(listed.stdout, rule).toContain('open text');
    }
  }, 60_000);
});

describe('a path rule that cannot be compiled', () => {
  it('is named in a warning with its settings key, and a deny rule covers its literal folder', () => {
    const root = project(dirs.root);
    settings(dirs.home, { deny: ['Read(./secrets/[ab)'], allow: ['Edit(./open[.txt)'] });
    const read = call(root, 'read_file', { absolute_path: path.join(root, 'secrets', 'x.txt') });
    expect(read.stdout + read.stderr).not.toContain(SECRET);
    expect(read.stderr).toContain(
      'permissions.deny: "Read(./secrets/[ab)" cannot be read as a path pattern: a "[" is not closed',
    );
    expect(read.stderr).toContain(`it refuses everything in ${path.join(root, 'secrets')} instead`);
    expect(read.stderr).toContain('permissions.allow: "Edit(./open[.txt)" cannot be read');
    // The allow rule that could not be read allows nothing: the write still asks.
    const file = path.join(root, 'open[.txt');
    expect(call(root, 'write_file', { file_path: file, content: 'x' }).code).toBe(3);
    expect(existsSync(file)).toBe(false);
  });
});
