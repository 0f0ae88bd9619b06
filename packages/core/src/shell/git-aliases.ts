/**
 * git aliases, as deny and ask rules must see them: with `[alias] p = push` in the
 * repository's or the person's git config, `git p` pushes, so a `Bash(git push:*)` deny
 * rule is matched against `git push` as well. An alias running a shell command
 * (`!rm -rf x`) cannot be checked and is reported as unclear. Only `[alias]` sections of
 * the files git reads by default are looked at (system, XDG, global, the repository's
 * own); aliases from included files are not.
 */
import path from 'node:path';
import type { ShellCommand } from './command-analysis.js';
import { findGitDir, readText } from './git-discovery.js';
import { gitGlobals } from './git-global-options.js';

export interface AliasViews {
  /** The command as git runs it once the alias is expanded (deny and ask rules see these). */
  views: ShellCommand[];
  /** Why an alias cannot be checked. */
  unclear: string[];
}

/** The expanded forms of git commands in `commands` that name an alias. */
export function gitAliasViews(
  commands: readonly ShellCommand[],
  cwd: string,
  homeDir: string,
): AliasViews {
  const result: AliasViews = { views: [], unclear: [] };
  for (const command of commands) {
    if (command.name !== 'git') continue;
    const words = command.args.map((value, i) => ({ value, literal: command.literal[i] ?? false }));
    const globals = gitGlobals(words);
    const sub = words[globals.subcommandAt];
    if (!sub?.literal || globals.ends) continue;
    let dir = cwd;
    for (const option of globals.options)
      if (option.name === '-C' && option.value?.literal)
        dir = path.resolve(dir, option.value.value);
    const value = aliasValue(sub.value, dir, homeDir);
    if (value === undefined) continue;
    if (value.startsWith('!')) {
      result.unclear.push(
        `git ${sub.value} is an alias that runs the shell command ${value.slice(1)}`,
      );
      continue;
    }
    if (/["'\\]/.test(value)) {
      result.unclear.push(
        `git ${sub.value} is an alias (${value}) in a form toolhost does not read`,
      );
      continue;
    }
    const expanded = value.split(/\s+/).filter((word) => word !== '');
    const at = globals.subcommandAt;
    result.views.push({
      ...command,
      args: [...command.args.slice(0, at), ...expanded, ...command.args.slice(at + 1)],
      literal: [
        ...command.literal.slice(0, at),
        ...expanded.map(() => true),
        ...command.literal.slice(at + 1),
      ],
    });
  }
  return result;
}

/** The value of `alias.<name>` in the config files git reads in `dir`, the last one winning. */
function aliasValue(name: string, dir: string, homeDir: string): string | undefined {
  const repository = findGitDir(dir);
  const xdg = process.env.XDG_CONFIG_HOME || path.join(homeDir, '.config');
  const files = [
    '/etc/gitconfig',
    path.join(xdg, 'git', 'config'),
    path.join(homeDir, '.gitconfig'),
    ...(repository
      ? [path.join(repository.common, 'config'), path.join(repository.own, 'config.worktree')]
      : []),
  ];
  let found: string | undefined;
  for (const file of files) {
    const value = aliasIn(readText(file), name);
    if (value !== undefined) found = value;
  }
  return found;
}

const SECTION = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/;

function aliasIn(text: string, name: string): string | undefined {
  let inAlias = false;
  let found: string | undefined;
  for (const raw of text.split('\n')) {
    let line = raw;
    const section = SECTION.exec(line);
    if (section) {
      inAlias = section[1]!.toLowerCase() === 'alias';
      line = section[2]!; // git reads a key on the same line as its header
    }
    if (!inAlias) continue;
    const entry = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!entry || entry[1]!.toLowerCase() !== name.toLowerCase()) continue;
    // A comment after the value ends it (outside quotes, which are reported as not read).
    found = entry[2]!.replace(/\s[#;].*$/, '');
  }
  return found;
}
