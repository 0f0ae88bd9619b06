/**
 * Getting an extension's files from where the person points: a git repository cloned with
 * the system's git (`--ref` a branch, tag or commit), an npm package fetched with `npm pack`,
 * and copying a folder into toolhost's own: links that lead out of the folder are refused
 * (the install fails naming them), links inside are copied as what they point to, `.git`
 * is left behind.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isWithin } from '../workspace/workspace-context.js';

export class ExtensionSourceError extends Error {}

/** A temporary folder for a download; removed by the caller. */
export function tempFolder(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `toolhost-${prefix}-`));
}

function run(program: string, args: string[], cwd?: string): string {
  try {
    return execFileSync(program, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      timeout: 300_000,
    });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT')
      throw new ExtensionSourceError(`${program} is not installed here; install it and try again.`);
    const said = (failure.stderr ?? '').trim().split('\n').slice(-3).join(' ');
    throw new ExtensionSourceError(
      `${program} ${args.join(' ')} failed: ${said || failure.message}`,
    );
  }
}

/** Clones `url` into a new folder (at `ref` when given); returns it and the commit. */
export function cloneGit(url: string, ref: string | undefined): { dir: string; commit: string } {
  const dir = path.join(tempFolder('git'), 'repo');
  try {
    return cloneInto(dir, url, ref);
  } catch (error) {
    rmSync(path.dirname(dir), { recursive: true, force: true });
    throw error;
  }
}

function cloneInto(
  dir: string,
  url: string,
  ref: string | undefined,
): { dir: string; commit: string } {
  if (ref) {
    try {
      run('git', ['clone', '--quiet', '--depth', '1', '--branch', ref, '--', url, dir]);
    } catch {
      // A commit is no branch: the whole history, then the commit.
      rmSync(dir, { recursive: true, force: true });
      run('git', ['clone', '--quiet', '--', url, dir]);
      run('git', ['checkout', '--quiet', ref, '--'], dir);
    }
  } else {
    run('git', ['clone', '--quiet', '--depth', '1', '--', url, dir]);
  }
  return { dir, commit: run('git', ['rev-parse', 'HEAD'], dir).trim() };
}

/** Moves a folder, also to another file system (a temporary folder on tmpfs). */
export function moveFolder(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    rmSync(from, { recursive: true, force: true });
  }
}

/** Brings a clone up to date with its remote (a marketplace added from git). */
export function pullGit(dir: string): void {
  run('git', ['pull', '--quiet', '--ff-only'], dir);
}

/** Fetches an npm package with `npm pack` and unpacks it; returns its folder. */
export function packNpm(spec: string): string {
  const dir = tempFolder('npm');
  try {
    return unpackNpm(dir, spec);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function unpackNpm(dir: string, spec: string): string {
  const output = run('npm', ['pack', spec, '--json', '--pack-destination', dir], dir);
  let file: string | undefined;
  try {
    const parsed = JSON.parse(output) as { filename?: string }[];
    file = parsed[0]?.filename;
  } catch {
    file = output.trim().split('\n').pop();
  }
  if (!file) throw new ExtensionSourceError(`npm pack ${spec} did not say which file it wrote.`);
  run('tar', ['-xzf', path.join(dir, path.basename(file)), '-C', dir]);
  return path.join(dir, 'package');
}

/** The git URLs toolhost clones (a folder path is copied instead). */
export function isGitUrl(source: string): boolean {
  return (
    /^(https?|ssh|git|file):\/\//.test(source) ||
    /^[\w.-]+@[\w.-]+:[^/\\]/.test(source) ||
    (/\.git\/?$/.test(source) && /^[\w+.-]+:/.test(source))
  );
}

/**
 * Copies the folder `from` to `to` (which must not exist). Throws, naming them, when links
 * in it lead outside it.
 */
export function copyExtensionFolder(from: string, to: string): void {
  const realFrom = realpathSync(from);
  const outside: string[] = [];
  const copy = (source: string, target: string, depth: number) => {
    mkdirSync(target, { recursive: true, mode: 0o755 });
    for (const entry of readdirSync(source)) {
      if (entry === '.git' && depth === 0) continue;
      const child = path.join(source, entry);
      const into = path.join(target, entry);
      const link = lstatSync(child).isSymbolicLink();
      let real = child;
      if (link) {
        try {
          real = realpathSync(child);
        } catch {
          continue; // a dangling link: nothing to copy
        }
        if (!isWithin(realFrom, real)) {
          outside.push(`${path.relative(realFrom, child)} -> ${real}`);
          continue;
        }
      }
      const stat = statSync(real);
      if (stat.isDirectory()) {
        if (depth < 32) copy(real, into, depth + 1);
      } else if (stat.isFile()) {
        copyFileSync(real, into);
      }
    }
  };
  copy(realFrom, to, 0);
  if (outside.length > 0) {
    rmSync(to, { recursive: true, force: true });
    throw new ExtensionSourceError(
      `it holds links that lead outside its folder, which toolhost refuses to install: ${outside.join(', ')}. Replace them with the files themselves.`,
    );
  }
}
