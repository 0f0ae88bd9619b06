/**
 * The three ways grep_search can search, giving the same answers: the bundled ripgrep,
 * `git grep` inside a repository when ripgrep is missing, and plain JavaScript where
 * neither exists.
 */
import { spawn } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { IgnoreRules } from '../utils/ignore-rules.js';
import { ignoreArguments, ripgrepPath } from '../utils/ripgrep.js';
import { spawnThread } from '../utils/spawn-thread.js';
import { grepWithJavaScript } from './grep-javascript.js';
import {
  cutLine,
  type GrepEngineName,
  GrepPatternError,
  type GrepRequest,
  type GrepSink,
  globFilterFor,
  isDirectory,
  MAX_LINE_BYTES,
  MAX_MATCH_LINE,
  MAX_MATCH_LINE_BYTES,
} from './grep-request.js';

export {
  type GrepEngineName,
  type GrepMatch,
  GrepPatternError,
  type GrepRequest,
  type GrepSink,
  MAX_MATCH_LINE,
} from './grep-request.js';

/**
 * Smart case, decided once for every engine: case-insensitive unless the pattern has an
 * upper-case letter outside an escape (`\W`, `\S` do not count).
 */
export function isCaseInsensitive(pattern: string): boolean {
  const withoutEscapes = pattern.replace(/\\./g, '');
  return !/\p{Lu}/u.test(withoutEscapes);
}

/**
 * ripgrep wherever it is installed; else git grep inside a repository; else JavaScript.
 *
 * git grep was expected to win inside a repository (its index lists tracked files without
 * a walk), but with `--untracked`, which the same answers need, git walks the work tree
 * for untracked files as ripgrep does, and then stats every indexed file. Measured on the
 * bench's corpus (71,611 tracked files) on the 2-core machine, ripgrep took 21-37% less
 * time than git grep for every pattern, and its output costs less memory to read; git's
 * probe for PCRE is one more process per search too.
 */
export async function chooseEngine(
  forced: GrepEngineName | undefined,
  root: string,
  rules: IgnoreRules,
  /** git grep leaves out what .gitignore excludes, always. */
  respectGitIgnore = true,
): Promise<GrepEngineName> {
  if (forced) return forced;
  if (ripgrepPath()) return 'ripgrep';
  return respectGitIgnore && rules.repositoryRoot(root) !== null ? 'git' : 'javascript';
}

/**
 * Settings a repository's own configuration must not change for a search: core.fsmonitor
 * names a program git would run (a cloned repository could carry one), and a person's
 * global excludes file is not among the ignore rules the other engines apply.
 */
const GIT_SEARCH_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.excludesFile=/dev/null'];

export async function runGrepEngine(
  engine: GrepEngineName,
  request: GrepRequest,
  sink: GrepSink,
): Promise<void> {
  switch (engine) {
    case 'ripgrep':
      return grepWithRipgrep(request, sink);
    case 'git':
      return grepWithGit(request, sink);
    case 'javascript':
      return grepWithJavaScript(request, (match) => sink.match(match));
  }
}

// ---- ripgrep ------------------------------------------------------------------------------

async function grepWithRipgrep(request: GrepRequest, sink: GrepSink): Promise<void> {
  const rg = ripgrepPath();
  if (!rg) throw new Error('ripgrep is not available on this platform');
  const args = [
    '--line-number',
    '--heading',
    '--with-filename',
    '--null',
    '--color',
    'never',
    '--max-columns',
    String(MAX_MATCH_LINE),
    '--max-columns-preview',
    request.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...searchThreads(),
    ...ignoreArguments(
      request.root,
      request.ignore ?? { respectGitIgnore: true, respectToolhostIgnore: true },
    ),
  ];
  // A positive --glob would override the ignore rules; a file type filters names without
  // doing so. Globs with a folder part are applied to the results instead.
  const byPath = request.glob?.includes('/') ? globFilterFor(request) : null;
  if (request.glob && !byPath)
    args.push('--type-add', `toolhost:${request.glob}`, '--type', 'toolhost');
  args.push('--regexp', request.pattern, '--', path.relative(request.root, request.target) || '.');
  // With --heading rg names each file once, ended by a NUL, with the file's first match
  // line straight after it; the other matches follow one a line, and an empty line ends
  // the file. Read as bytes: a name is decoded once per file, a line number only while
  // the file could still be shown, and a line's text only when it will be shown.
  let expectingName = true;
  // The start of a name with a newline in it, which arrives as several lines.
  let namePart = '';
  let file = '';
  let wanted = false;
  let mayShow = false;
  const stderr = await spawnLines(rg, args, request.root, request.signal, (bytes, from, end) => {
    let start = from;
    if (expectingName) {
      const nul = bytes.indexOf(0, start);
      if (nul === -1 || nul >= end) {
        namePart += `${bytes.toString('utf8', start, end)}\n`;
        return;
      }
      file = path.join(request.root, namePart + bytes.toString('utf8', start, nul));
      namePart = '';
      expectingName = false;
      wanted = !byPath || byPath(file);
      mayShow = !request.wouldShow || request.wouldShow(file, 0);
      start = nul + 1;
    } else if (start === end) {
      expectingName = true;
      return;
    }
    if (!wanted) return;
    if (!mayShow) {
      sink.hidden(file);
      return;
    }
    // "<line number>:<text>"; anything else (rg's note on a file found binary after a
    // match) is not a match.
    let lineNumber = 0;
    let at = start;
    for (; at < end; at++) {
      const byte = bytes[at]!;
      if (byte === COLON) break;
      if (byte < DIGIT_0 || byte > DIGIT_9) return;
      lineNumber = lineNumber * 10 + byte - DIGIT_0;
    }
    if (at === start || at === end) return;
    if (request.wouldShow && !request.wouldShow(file, lineNumber)) {
      sink.hidden(file);
      return;
    }
    const text = bytes.toString('utf8', at + 1, end);
    sink.match({ file, line: lineNumber, text: cutLine(text.replace(/\r$/, '')) });
  });
  if (
    stderr.code === 2 &&
    /regex parse error|error parsing glob|unclosed|unrecognized/i.test(stderr.text)
  ) {
    throw new GrepPatternError(stderr.text.trim());
  }
}

/**
 * One thread per search while the service runs as many searches as there are cores: the
 * cores are then shared between searches, and rg's own threads only add their
 * coordination (12% more CPU per search of the bench's 1,000 files, for the same time).
 */
function searchThreads(): string[] {
  const busy = spawnThread()?.busy() ?? 0;
  return busy >= availableParallelism() ? ['--threads', '1'] : [];
}

const COLON = 0x3a;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

// ---- git grep -----------------------------------------------------------------------------

let gitHasPcre: Promise<boolean> | undefined;

/** Whether git runs here and supports -P (asked once per process). */
function gitGrepHasPcre(cwd: string): Promise<boolean> {
  gitHasPcre ??= probeGitPcre(cwd).catch(() => false);
  return gitHasPcre;
}

async function grepWithGit(request: GrepRequest, sink: GrepSink): Promise<void> {
  const pcre = await gitGrepHasPcre(request.root);
  const rules = new IgnoreRules(request.roots, request.ignore);
  const filter = globFilterFor(request);
  // git grep reads untracked symbolic links as files; ripgrep and the JS walk skip them.
  const isSymlink = (file: string) => {
    try {
      return lstatSync(file).isSymbolicLink();
    } catch {
      return false;
    }
  };
  const cwd = request.target;
  const isFolder = await isDirectory(request.target);
  const base = isFolder ? cwd : path.dirname(cwd);
  // With --heading git names each file once, on a line of its own, above its matches: a
  // third less output than a name on every line. A match line always holds a NUL (after
  // its number), a name line never does; a name with a newline in it comes as several
  // lines without one, joined back here.
  let name: string | undefined;
  let file = '';
  let wanted = false;
  const args = [
    ...GIT_SEARCH_CONFIG,
    'grep',
    '--no-color',
    '-n',
    '-z',
    '--heading',
    '-I',
    '--untracked',
    pcre ? '-P' : '-E',
  ];
  if (request.ignoreCase) args.push('-i');
  args.push('-e', request.pattern, '--', isFolder ? '.' : path.basename(request.target));
  const stderr = await spawnLines('git', args, base, request.signal, (bytes, start, end) => {
    const numberEnd = bytes.indexOf(0, start);
    if (numberEnd === -1 || numberEnd >= end) {
      const part = bytes.toString('utf8', start, end);
      name = name === undefined ? part : `${name}\n${part}`;
      return;
    }
    if (name !== undefined) {
      // The first match of a new file: its path is built and checked once.
      file = path.join(base, name);
      name = undefined;
      wanted = !isSymlink(file) && !rules.isIgnored(file, false) && (!filter || filter(file));
    }
    if (!wanted) return;
    const lineNumber = Number(bytes.toString('latin1', start, numberEnd));
    if (request.wouldShow && !request.wouldShow(file, lineNumber)) {
      sink.hidden(file);
      return;
    }
    const textStart = numberEnd + 1;
    // git cannot cut long lines as rg does (a minified file's line can be megabytes):
    // decode only enough of one to fill MAX_MATCH_LINE characters and the cut marker.
    const long = end - textStart > MAX_MATCH_LINE_BYTES;
    const text = bytes.toString('utf8', textStart, long ? textStart + MAX_MATCH_LINE_BYTES : end);
    sink.match({ file, line: lineNumber, text: cutLine(long ? text : text.replace(/\r$/, '')) });
  });
  if (stderr.code === 128 || (stderr.code !== 0 && stderr.code !== 1)) {
    if (
      /regular expression|regex|pattern|PCRE|parenthes|bracket|missing|unmatched|invalid/i.test(
        stderr.text,
      )
    ) {
      throw new GrepPatternError(stderr.text.trim());
    }
    throw new Error(`git grep failed: ${stderr.text.trim()}`);
  }
}

async function probeGitPcre(cwd: string): Promise<boolean> {
  // --no-index: asked inside a repository, git would first read its whole index (a
  // third of a second in a large one, paid by every `toolhost call grep_search`).
  const result = await spawnLines(
    'git',
    [...GIT_SEARCH_CONFIG, 'grep', '--no-index', '-P', '-q', '-e', 'x', '--', 'no-such-file'],
    cwd,
    undefined,
    () => undefined,
  );
  // 1: no match, as expected; 128 with a message: this git has no PCRE. (A repository git
  // refuses is found by the search itself, which then falls back to ripgrep.)
  return result.code === 1 && !/not supported|cannot use Perl|USE_LIBPCRE/i.test(result.text);
}

/**
 * Runs a command and hands each line of its output to `onLine` as a range of bytes in the
 * chunk it arrived in, undecoded: no object per line, and no chunk is kept alive by a view
 * of it (over millions of lines both showed in peak memory). A line longer than
 * MAX_LINE_BYTES arrives cut there: no reader here needs more of one.
 */
function spawnLines(
  command: string,
  args: string[],
  cwd: string,
  signal: AbortSignal | undefined,
  onLine: (bytes: Buffer, start: number, end: number) => void,
): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve, reject) => {
    // The start of a line that has not ended yet, copied out of the chunks it arrived in.
    const pending: Buffer[] = [];
    let pendingBytes = 0;
    const keep = (chunk: Buffer, from: number, to: number) => {
      if (pendingBytes >= MAX_LINE_BYTES || from >= to) return;
      pending.push(Buffer.from(chunk.subarray(from, to)));
      pendingBytes += to - from;
    };
    const flush = () => {
      const line = Buffer.concat(pending);
      pending.length = 0;
      pendingBytes = 0;
      onLine(line, 0, line.length);
    };
    let stderr = '';
    const onStdout = (chunk: Buffer) => {
      let from = 0;
      let newline = chunk.indexOf(10);
      if (newline !== -1 && pending.length > 0) {
        keep(chunk, 0, newline);
        flush();
        from = newline + 1;
        newline = chunk.indexOf(10, from);
      }
      while (newline !== -1) {
        onLine(chunk, from, newline);
        from = newline + 1;
        newline = chunk.indexOf(10, from);
      }
      keep(chunk, from, chunk.length);
    };
    const stderrText = new StringDecoder('utf8');
    const onStderr = (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += stderrText.write(chunk);
    };
    const onError = (error: Error) =>
      signal?.aborted ? resolve({ code: null, text: stderr }) : reject(error);
    const onClose = (code: number | null) => {
      if (pending.length > 0) flush();
      resolve({ code, text: stderr });
    };
    const thread = spawnThread();
    if (thread) {
      const child = thread.spawn(command, args, cwd);
      const stop = () => child.kill();
      child.on('stdout', onStdout);
      child.on('stderr', onStderr);
      child.on('error', onError);
      child.on('close', (code: number | null) => {
        signal?.removeEventListener('abort', stop);
        onClose(code);
      });
      if (signal?.aborted) stop();
      else signal?.addEventListener('abort', stop, { once: true });
      return;
    }
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal });
    child.stdout.on('data', onStdout);
    child.stderr.on('data', onStderr);
    child.on('error', onError);
    child.on('close', onClose);
  });
}
