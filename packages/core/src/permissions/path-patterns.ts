/**
 * Path specifiers of `Read(...)`, `Edit(...)` and `Write(...)` rules, read as Claude Code
 * and Qwen Code read them: `//abs/path` from the file system's root, `~/path` from the home
 * folder, `/path` and `./path` (or a bare `path`) from the project root. Patterns follow
 * .gitignore: `*` stays in one folder, `**` crosses folders, a pattern without a slash
 * (`.env`, `*.pem`) matches that name at any depth, and a pattern naming a folder covers
 * everything inside it.
 */
import path from 'node:path';
import picomatch from 'picomatch';

export interface PathBases {
  projectRoot: string;
  homeDir: string;
}

/** The specifier as an absolute glob. */
export function absolutePattern(specifier: string, bases: PathBases): string {
  const trimmed = specifier.replace(/\/+$/, '');
  if (trimmed.startsWith('//')) return trimmed.slice(1);
  if (trimmed === '~') return bases.homeDir;
  if (trimmed.startsWith('~/')) return path.posix.join(bases.homeDir, trimmed.slice(2));
  const relative = trimmed.replace(/^\.?\//, '');
  // A bare name with no folder in it matches at any depth, as in .gitignore.
  const anyDepth =
    !specifier.startsWith('/') && !specifier.startsWith('./') && !relative.includes('/');
  return path.posix.join(bases.projectRoot, anyDepth ? `**/${relative}` : relative);
}

/** A matcher for absolute paths: the path itself or a folder above it matches the pattern. */
export function pathMatcher(specifier: string, bases: PathBases): (file: string) => boolean {
  const matches = picomatch(absolutePattern(specifier, bases), { dot: true });
  return (file) => {
    let current = path.resolve(file);
    for (;;) {
      if (matches(current)) return true;
      const parent = path.dirname(current);
      if (parent === current) return false;
      current = parent;
    }
  };
}
