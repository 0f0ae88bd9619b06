/**
 * The defences of read-only git against a repository whose own configuration runs programs
 * (core.fsmonitor, a pager, an external diff, textconv and filter drivers, hooks, gpg): a
 * read-only git call runs without asking only when the repository's config sets none of
 * those, and runs with environment config (`GIT_CONFIG_COUNT`…, which outranks repository
 * files) that also switches off fsmonitor, pagers, hooks and gpg. (An external diff or a
 * textconv driver cannot be switched off by config, only refused by the check.)
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Repository config keys that make read-only git commands run a program, and sections that
 * include files or define programs. Git reads a key or another section header on the same
 * line as a header (`[diff "x"] textconv = ./run.sh`, `[core] [include] path = x`), so a
 * line may start with headers; `.*` backtracks to any `]`, even one inside a quoted name.
 */
const PROGRAM_KEYS =
  /^\s*(?:\[.*\][ \t]*)?(fsmonitor|textconv|command|external|program|pager|hookspath|sshcommand|askpass|editor|clean|smudge|process|showsignature|cachetextconv)\s*=/im;
const PROGRAM_SECTIONS = /^\s*(?:\[.*\][ \t]*)?\[\s*(include|includeif|filter|pager|gpg)\b/im;

/**
 * Why git's own configuration in the repository around `dir` could make a read-only
 * command run a program, or null when it sets nothing of the kind.
 */
export function gitConfigProblem(dir: string): string | null {
  const gitDir = findGitDir(dir);
  if (gitDir === undefined) return null; // not a repository: git reads no repository config
  if (gitDir === null) return 'the repository layout could not be read';
  const files = [path.join(gitDir.common, 'config'), path.join(gitDir.own, 'config.worktree')];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const key = PROGRAM_KEYS.exec(text) ?? PROGRAM_SECTIONS.exec(text);
    if (key) {
      return `the repository's git config (${file}) sets "${key[0].trim()}", which can make git run a program`;
    }
  }
  return null;
}

/** The git folder of the repository containing `dir`: undefined outside one, null when unreadable. */
function findGitDir(dir: string): { own: string; common: string } | null | undefined {
  let current = path.resolve(dir);
  for (;;) {
    const dotGit = path.join(current, '.git');
    if (existsSync(dotGit)) {
      try {
        let own = dotGit;
        if (statSync(dotGit).isFile()) {
          const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
          if (!pointer) return null;
          own = path.resolve(current, pointer);
        }
        const commondir = path.join(own, 'commondir');
        const common = existsSync(commondir)
          ? path.resolve(own, readFileSync(commondir, 'utf8').trim())
          : own;
        return { own, common };
      } catch {
        return null;
      }
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Config given to read-only git through the environment, which outranks repository files. */
const SAFE_GIT_CONFIG: [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['core.hooksPath', '/dev/null'],
  ['log.showSignature', 'false'],
  ['gpg.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
];

/** Environment additions for a line approved as read-only: git config that runs nothing. */
export function readOnlyGitEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const start = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  const added: NodeJS.ProcessEnv = {
    GIT_CONFIG_COUNT: String(start + SAFE_GIT_CONFIG.length),
    GIT_PAGER: 'cat',
  };
  SAFE_GIT_CONFIG.forEach(([key, value], index) => {
    added[`GIT_CONFIG_KEY_${start + index}`] = key;
    added[`GIT_CONFIG_VALUE_${start + index}`] = value;
  });
  return added;
}
