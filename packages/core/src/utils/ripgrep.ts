/**
 * The bundled ripgrep (`@vscode/ripgrep` ships `rg` inside a per-platform npm package),
 * run with arguments as an array and its output streamed line by line.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOOLHOST_IGNORE_FILES } from './ignore-rules.js';

let cachedPath: string | null | undefined;

/** The path of a working `rg`, or null when the bundled binary is missing on this platform. */
export function ripgrepPath(): string | null {
  if (cachedPath === undefined) cachedPath = findRipgrep(fileURLToPath(import.meta.url));
  return cachedPath;
}

/**
 * Where @vscode/ripgrep's binary is for a module at `from`, found as Node would resolve it
 * but without loading that package (an ES module: 4-13 ms of Node's ES module loader in a
 * fresh process) or starting `require`'s resolver (twice this lookup's time): two walks up
 * the folders, a few `existsSync` each, for the wrapper package from `from`, then for its
 * platform package from the wrapper's real folder. No cache file: a path kept in a
 * writable place could name any program, and checking it would cost what this does.
 *
 * Only `node_modules` folders up the tree are searched, as `import` searches them (not
 * NODE_PATH or ~/.node_modules, which `require` would also try), so nothing outside the
 * install decides which program runs.
 */
export function findRipgrep(from: string): string | null {
  try {
    const arch = process.env.npm_config_arch || process.arch;
    const binary = process.platform === 'win32' ? 'rg.exe' : 'rg';
    const wrapper = firstUp(path.dirname(from), path.join('@vscode', 'ripgrep', 'package.json'));
    if (!wrapper) return null;
    // From its real place, as Node resolves a loaded package's own dependencies: under
    // pnpm the platform package sits beside the real folder, not beside the link to it.
    const rgPath = firstUp(
      path.dirname(realpathSync.native(wrapper)),
      path.join('@vscode', `ripgrep-${process.platform}-${arch}`, 'bin', binary),
    );
    if (!rgPath || !statSync(rgPath).isFile()) return null;
    accessSync(rgPath, constants.X_OK);
    return rgPath;
  } catch {
    return null;
  }
}

/**
 * The first `<folder>/node_modules/<entry>` that exists, from `start` up to the root,
 * skipping a `node_modules/node_modules` as Node's own lookup does.
 */
function firstUp(start: string, entry: string): string | undefined {
  for (let folder = start; ; ) {
    if (path.basename(folder) !== 'node_modules') {
      const candidate = path.join(folder, 'node_modules', entry);
      if (existsSync(candidate)) return candidate;
    }
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

export interface IgnoreFlags {
  respectGitIgnore: boolean;
  respectToolhostIgnore: boolean;
  /** The root's own ignore files (default .toolhostignore and .qwenignore). */
  ignoreFiles?: readonly string[];
}

/**
 * Arguments that make rg leave out what toolhost's own ignore rules leave out, and no
 * more: .gitignore (in repositories) and .git/info/exclude, the workspace's
 * .toolhostignore/.qwenignore, and .git itself. Hidden files are included. rg must run
 * with the workspace root as its working directory, which anchors the ignore files.
 */
export function ignoreArguments(root: string, flags: IgnoreFlags): string[] {
  const args = [
    '--hidden',
    '--glob',
    '!.git',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-config',
  ];
  if (!flags.respectGitIgnore) args.push('--no-ignore-vcs');
  if (flags.respectToolhostIgnore) {
    for (const name of flags.ignoreFiles ?? TOOLHOST_IGNORE_FILES) {
      if (existsSync(path.join(root, name))) args.push('--ignore-file', name);
    }
  }
  return args;
}

export interface RipgrepRun {
  exitCode: number | null;
  stderr: string;
  /** True when the caller stopped reading early (onLine returned false) or the signal fired. */
  stopped: boolean;
}

/**
 * Runs rg, calling `onLine` for each output line as it arrives (no buffering of the whole
 * output); `separator` ends a line (`\0` with --null --files). Returning `false` from
 * `onLine` stops rg.
 */
export function runRipgrep(
  args: string[],
  options: {
    cwd: string;
    signal?: AbortSignal;
    separator?: '\n' | '\0';
    onLine: (line: string) => boolean | undefined;
  },
): Promise<RipgrepRun> {
  const rg = ripgrepPath();
  if (!rg) return Promise.reject(new Error('ripgrep is not available on this platform'));
  const separator = options.separator ?? '\n';
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stopped = false;
    let pending = '';
    let stderr = '';
    const stop = () => {
      if (stopped) return;
      stopped = true;
      child.kill('SIGTERM');
    };
    const onAbort = () => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const text = pending + chunk;
      let from = 0;
      for (let end = text.indexOf(separator); end !== -1; end = text.indexOf(separator, from)) {
        const line = text.slice(from, end);
        from = end + 1;
        if (options.onLine(line) === false) {
          stop();
          return;
        }
      }
      pending = text.slice(from);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.on('error', (error) => {
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (!stopped && pending) options.onLine(pending);
      resolve({ exitCode: code, stderr, stopped });
    });
  });
}
