/**
 * bwrap's arguments read as a list of operations (`--bind /a /a`), and the operations
 * every approved command starts and ends with: for the tests of bwrap.ts.
 */
import { expect } from 'vitest';
import { PROMPT_FOLDER_ROOTS } from '../../src/config/prompt-folders.js';

/** How many operands each bwrap option takes. */
export const OPERANDS: Record<string, number> = {
  '--die-with-parent': 0,
  '--unshare-pid': 0,
  '--unshare-ipc': 0,
  '--unshare-net': 0,
  '--seccomp': 1,
  '--cap-drop': 1,
  '--symlink': 2,
  '--ro-bind': 2,
  '--bind': 2,
  '--dev': 1,
  '--proc': 1,
  '--tmpfs': 1,
  '--setenv': 2,
  '--chdir': 1,
};

/** bwrap's arguments as operations (`--bind /a /a`), in order; `--` ends them. */
export function operations(args: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < args.length && args[i] !== '--') {
    const option = args[i]!;
    const count = OPERANDS[option];
    if (count === undefined) throw new Error(`unexpected bwrap option ${option}`);
    out.push([option, ...args.slice(i + 1, i + 1 + count)].join(' '));
    i += 1 + count;
  }
  expect(args.slice(i), 'the arguments end with --').toEqual(['--']);
  return out;
}

export const SYSTEM = ['--ro-bind / /', '--dev /dev', '--proc /proc', '--tmpfs /tmp'];
export const ISOLATED = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--cap-drop ALL'];
/** The prompt folders of a root, made read-only (made first where missing). */
export const promptBinds = (root: string) =>
  PROMPT_FOLDER_ROOTS.map((name) => `--ro-bind ${root}/${name} ${root}/${name}`);
export const ending = (cwd: string) => ['--setenv TOOLHOST_SANDBOX bwrap', `--chdir ${cwd}`];
