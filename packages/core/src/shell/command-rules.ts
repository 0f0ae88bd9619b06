/**
 * Allow and deny rules for shell commands: settings entries `run_shell_command(<prefix>)`.
 * A rule matches a command when its words are the first words of the command, whole
 * words only (`git` matches `git status`, not `gitk`).
 */
import { parse } from 'shell-quote';
import type { ShellCommand } from './command-analysis.js';
import { programName } from './command-analysis.js';

export const SHELL_TOOL_NAME = 'run_shell_command';

export interface ShellRule {
  /** The settings entry, for messages. */
  entry: string;
  words: string[];
  /** The program as written when the rule names it by its path (`./gradlew`). */
  program?: string;
}

/** The `run_shell_command(...)` entries of a settings list, as rules. */
export function shellRules(entries: readonly string[] | undefined): ShellRule[] {
  const rules: ShellRule[] = [];
  for (const entry of entries ?? []) {
    const match = /^(run_shell_command|ShellTool|Shell)\((.*)\)$/s.exec(entry.trim());
    if (!match) continue;
    const words = parse(match[2]!.trim()).filter(
      (word): word is string => typeof word === 'string',
    );
    if (words.length === 0) continue;
    const written = words[0]!;
    words[0] = programName(written);
    rules.push({ entry, words, ...(written.includes('/') ? { program: written } : {}) });
  }
  return rules;
}

/**
 * Whether a rule matches a command. An allow rule needs the command's words to be known
 * and equal; a deny rule also matches when a word it checks is only known at run time
 * (`rm $x` for `rm -rf`) or when a runner adds arguments (`xargs rm`), since it cannot
 * prove the command harmless.
 */
export function ruleMatches(
  rule: ShellRule,
  command: ShellCommand,
  kind: 'allow' | 'deny' = 'allow',
): boolean {
  const [name, ...args] = rule.words;
  if (name !== command.name) return false;
  for (let index = 0; index < args.length; index++) {
    const value = command.args[index];
    if (value === undefined) return kind === 'deny' && command.appendsArgs;
    // One unknown word may become several, so the rest cannot be compared either.
    if (command.literal[index] === false) return kind === 'deny';
    if (value !== args[index]) return false;
  }
  return true;
}

/** The first rule that matches a command, if any. */
export function findMatchingRule(
  rules: ShellRule[],
  command: ShellCommand,
  kind: 'allow' | 'deny' = 'allow',
): ShellRule | undefined {
  return rules.find((rule) => ruleMatches(rule, command, kind));
}
