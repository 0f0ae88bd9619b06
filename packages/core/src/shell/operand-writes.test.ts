import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from './command-analysis.js';
import { WRITERS } from './operand-writers.js';
import { judgeOperandWrites } from './operand-writes.js';
import type { ReadOnlyContext } from './read-only-check.js';
import type { ShellWord } from './shell-words.js';

const ws = realpathSync(mkdtempSync(`${tmpdir()}/operand-writes-`));
mkdirSync(`${ws}/notes/deep`, { recursive: true });
writeFileSync(`${ws}/notes/deep/secret.txt`, 'x');
writeFileSync(`${ws}/notes/a.txt`, 'a');
writeFileSync(`${ws}/-rf`, '');
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const words = (...values: string[]): ShellWord[] =>
  values.map((value) => ({ value, literal: !/[*?$]/.test(value) }));
/** The names a writer writes (sources into folders shown as `folder/<source>`). */
const written = (name: string, ...args: string[]) => {
  const targets = WRITERS[name]!(words(...args));
  if (typeof targets === 'string') return targets;
  return targets.map((t) => (t.into ? `${t.into.value}/<${t.word.value}>` : t.word.value));
};

describe('the writers table', () => {
  it('reads the operands each program writes', () => {
    expect(written('touch', '-d', 'now', '-c', 'a', '--', '-b')).toEqual(['a', '-b']);
    expect(written('touch', '-r', 'ref', 'a')).toEqual(['a']);
    expect(written('rm', '-rf', 'a', 'b')).toEqual(['a', 'b']);
    expect(written('cp', '-a', 'x', 'y', 'dir')).toEqual(['dir', 'dir/<x>', 'dir/<y>']);
    expect(written('cp', '-t', 'dir', 'x')).toEqual(['dir/<x>']);
    expect(written('cp', '--target-directory=dir', 'x')).toEqual(['dir/<x>']);
    expect(written('cp', '-Tr', 'x', 'y')).toEqual(['y']);
    expect(written('mv', 'x', 'y')).toEqual(['y', 'y/<x>', 'x']);
    expect(written('ln', '-s', '../x')).toEqual(['./<../x>']);
    expect(written('install', '-d', 'a', 'b')).toEqual(['a', 'b']);
    expect(written('install', '-m', '644', 'x', 'y')).toEqual(['y', 'y/<x>']);
    expect(written('dd', 'if=a', 'of=b', 'bs=1')).toEqual(['b']);
    expect(written('chmod', '-R', '644', 'a')).toEqual(['a']);
    expect(written('chmod', '-w', 'a')).toEqual(['a']);
    expect(written('chmod', '--reference=r', 'a')).toEqual(['a']);
    expect(written('chown', 'u:g', 'a', 'b')).toEqual(['a', 'b']);
    expect(written('sed', 's/a/b/', 'f')).toEqual([]);
    expect(written('sed', '-i', 's/a/b/', 'f')).toEqual(['f']);
    expect(written('sed', '-ni.bak', 'p', 'f')).toEqual(['f']);
    expect(written('sed', '-e', 's/a/b/', '--in-place', 'f', 'g')).toEqual(['f', 'g']);
    expect(written('sed', '-e', '-i', 'f')).toEqual([]); // -i is the script here
    expect(written('perl', '-pi', '-e', 's/a/b/', 'f')).toEqual(['f']);
    expect(written('perl', '-i.bak', '-pe', 's/a/b/', 'f')).toEqual(['f']);
    expect(written('perl', '-e', 'print 1')).toEqual([]);
    expect(written('perl', '-0777pi', '-e', 's/a/b/', 'f')).toEqual(['f']);
    expect(written('perl', '-l0pi.bak', '-e', 's/a/b/', 'f')).toEqual(['f']);
    expect(written('gzip', 'a')).toEqual(['a', 'a.gz']);
    expect(written('gzip', '-c', 'a')).toEqual([]);
    expect(written('gunzip', 'a.tgz')).toEqual(['a.tgz', 'a.tar']);
    expect(written('tar', '-czf', 'out.tgz', 'src')).toEqual(['out.tgz']);
    expect(written('tar', 'cf', 'out.tar', 'src')).toEqual(['out.tar']);
    expect(written('tar', '--create', '--file=o.tar', 'src')).toEqual(['o.tar']);
    expect(written('tar', '-tf', 'a.tar')).toEqual([]);
    expect(written('tar', '-xOf', 'a.tar')).toEqual([]);
    expect(written('unzip', '-l', 'a.zip')).toEqual([]);
    expect(written('git', 'checkout', 'main', '--', 'a')).toEqual(['a']);
    expect(written('git', 'rm', '-r', 'a')).toEqual(['a']);
    expect(written('git', 'status')).toEqual([]);
  });

  it('takes what it cannot read for files only known when the command runs', () => {
    for (const [name, ...args] of [
      ['touch', '--bogus', 'a'],
      ['cp', '-Q', 'a', 'b'],
      ['tar', '-xf', 'a.tar'],
      ['unzip', 'a.zip'],
      ['patch', '-p1'],
      ['split', 'a', 'pre'],
      ['csplit', 'a', '/x/'],
      ['gunzip', '-N', 'a.gz'],
      ['git', 'apply', 'p.diff'],
      ['git', 'clean', '-fd'],
      ['tar', '--extr', '-f', 'a.tar'],
      ['sed', '--in-pl', 's/a/b/', 'f'],
    ])
      expect(typeof written(name!, ...args), `${name} ${args.join(' ')}`).toBe('string');
  });
});

describe('judgeOperandWrites', () => {
  const context = (kind: 'deny' | 'ask', covered = `${ws}/notes/deep/secret.txt`) =>
    ({
      cwd: ws,
      homeDir: '/nonexistent',
      canRead: (p: string) => p.startsWith(ws),
      writeRule: (file: string) =>
        file === covered || file.startsWith(`${covered}/`)
          ? { kind, rule: 'Edit(./notes/deep/secret.txt)' }
          : undefined,
      ...(kind === 'deny'
        ? { editDenyRules: true }
        : { editAskRules: ['Edit(./notes/deep/secret.txt)'] }),
    }) satisfies ReadOnlyContext;
  const judge = async (line: string, kind: 'deny' | 'ask' = 'deny') =>
    judgeOperandWrites(await analyzeCommand(line), context(kind));

  it('refuses a write of a covered file however it is named', async () => {
    for (const line of [
      'touch notes/deep/secret.txt',
      'cd notes && touch deep/secret.txt',
      'cd notes/deep; rm -f secret.txt',
      'rm -r notes',
      'rm notes/*/s*',
      'mv notes elsewhere',
      'cp x notes/deep/secret.txt',
      'cp -t notes/deep secret.txt',
      'cp other/secret.txt notes/deep',
      'chmod -R 000 notes',
      'touch $f',
      'cd "$d"; touch a',
      'xargs rm < list',
      'find . -exec rm {} +',
      'tar -xf a.tar',
      'sudo touch notes/deep/secret.txt',
      'cd notes/deep && echo x > secret.txt',
      'cd notes; cd deep; ls >> secret.txt',
    ])
      expect((await judge(line)).denied, line).toBeDefined();
  });

  it('asks, naming the rule, under an Edit ask rule', async () => {
    for (const line of ['touch notes/deep/secret.txt', 'rm -r notes', 'touch $f']) {
      const judgement = await judge(line, 'ask');
      expect(judgement.denied, line).toBeUndefined();
      expect(judgement.askRules, line).toEqual(['Edit(./notes/deep/secret.txt)']);
    }
  });

  it('leaves writes of other files alone', async () => {
    for (const line of [
      'touch notes/a.txt',
      'rm notes/a.txt',
      'cp notes/a.txt notes/b.txt',
      'chmod 644 notes/a.txt',
      'cd notes && rm a.txt',
      'sed -n p notes/deep/secret.txt',
      'tar -cf out.tar notes',
      'cd notes && echo x > a.txt',
    ]) {
      const judgement = await judge(line);
      expect(judgement.denied, line).toBeUndefined();
      expect(judgement.askRules, line).toEqual([]);
    }
  });

  it('judges a name inside a folder a recursive copy or move makes', async () => {
    // Like Edit(./made/**): what is inside, not the folder itself.
    const rules: ReadOnlyContext = {
      ...context('deny'),
      writeRule: (file) =>
        file.startsWith(`${ws}/made/`) ? { kind: 'deny', rule: 'Edit(./made/**)' } : undefined,
    };
    for (const line of [
      'cp -r notes made',
      'mv notes made',
      'cp -rT notes made',
      'mv -T notes made',
    ])
      expect(judgeOperandWrites(await analyzeCommand(line), rules).denied, line).toContain('made/');
    const nothingInside = await analyzeCommand('cp -T notes/a.txt made');
    expect(judgeOperandWrites(nothingInside, rules).denied).toBeUndefined();
  });

  it('takes a glob that expands to an option name for unknown', async () => {
    expect((await judge('rm *')).denied).toContain('starting with -');
  });
});
