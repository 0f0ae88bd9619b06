/**
 * Allow, ask and deny rules for shell commands: the older settings entries
 * `run_shell_command(<prefix>)` and the specifiers of `Bash(...)` permission rules
 * (permissions/). A rule is a list of words compared with a command's words: `*` alone
 * stands for any number of words, `*` inside a word for any characters in it, and a rule
 * ending in `*` or `:*` (or any older entry) is a prefix. Words are whole: `git` matches
 * `git status`, not `gitk`.
 */
import { shellQuote } from '../utils/lazy-libraries.js';
import type { ShellCommand } from './command-analysis.js';
import { gitRuleView } from './git-global-options.js';
// From shell-words.ts, not command-analysis.ts: a permission decision reads rules without
// loading the command parser (tree-sitter's loader and the runner tables).
import { programName } from './shell-words.js';

export const SHELL_TOOL_NAME = 'run_shell_command';

export interface ShellRule {
  /** The settings entry, for messages. */
  entry: string;
  /** The settings key it came from, for messages (default `tools.exclude` / `tools.allowed`). */
  source?: string;
  words: string[];
  /** The program as written when the rule names it by its path (`./gradlew`). */
  program?: string;
  /** The command must have exactly these words, nothing after them. */
  exact?: boolean;
}

/** The `run_shell_command(...)` entries of a settings list, as rules. */
export function shellRules(entries: readonly string[] | undefined): ShellRule[] {
  const rules: ShellRule[] = [];
  for (const entry of entries ?? []) {
    const match = /^(run_shell_command|ShellTool|Shell)\((.*)\)$/s.exec(entry.trim());
    if (!match) continue;
    const rule = shellPattern(entry, match[2]!, {});
    if (rule) rules.push(rule);
  }
  return rules;
}

/**
 * A rule from a specifier (`git diff:*`, `npm run test`, `git * main`). With `exact`, a
 * specifier that does not end in `*` names the whole command. Undefined when it names no
 * command (empty, or an operator such as `&&`, which a single command never contains).
 */
export function shellPattern(
  entry: string,
  specifier: string,
  options: { exact?: boolean; source?: string },
): ShellRule | undefined {
  let text = specifier.trim();
  let prefix = false;
  if (text.endsWith(':*')) {
    text = text.slice(0, -2);
    prefix = true;
  } else if (text.endsWith('*')) prefix = true;
  const words: string[] = [];
  for (const word of shellQuote().parse(text, (name) => `$${name}`)) {
    if (typeof word === 'string') words.push(word);
    else if ('op' in word && word.op === 'glob') words.push(word.pattern);
    else return undefined;
  }
  if (words.length === 0) return undefined;
  const written = words[0]!;
  if (!written.includes('*')) words[0] = programName(written);
  return {
    entry,
    words,
    ...(options.source ? { source: options.source } : {}),
    ...(written.includes('/') ? { program: written } : {}),
    ...(options.exact && !prefix ? { exact: true } : {}),
  };
}

/** Whether `value` matches `pattern`, where `*` stands for any characters. */
export function starMatches(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(value);
}

/**
 * Whether a rule matches a command. An allow rule needs the command's words to be known
 * and equal; a deny (or ask) rule also matches when a word it checks is only known at run
 * time (`rm $x` for `rm -rf`) or when a runner adds arguments (`xargs rm`), since it cannot
 * prove the command harmless.
 */
export function ruleMatches(
  rule: ShellRule,
  command: ShellCommand,
  kind: 'allow' | 'deny' = 'allow',
): boolean {
  if (wordsMatch(rule, command.name, command.args, command.literal, command.appendsArgs, kind))
    return true;
  // `git -C . -c k=v push` runs `git push`: its own options are left out for the rules.
  if (command.name !== 'git') return false;
  const words = command.args.map((value, i) => ({ value, literal: command.literal[i] ?? false }));
  const view = gitRuleView(words) ?? words;
  const same = kind === 'deny' && view[0]?.literal ? GIT_SAME_AS[view[0].value] : undefined;
  if (same) view[0] = { value: same, literal: true };
  else if (view === words) return false;
  return wordsMatch(
    rule,
    command.name,
    view.map((word) => word.value),
    view.map((word) => word.literal),
    command.appendsArgs,
    kind,
  );
}

/**
 * Plumbing that does what a porcelain subcommand does: a deny or ask rule naming the
 * porcelain (`git push`) covers it too, so the rule is not passed by its other name.
 */
const GIT_SAME_AS: Record<string, string> = {
  'send-pack': 'push',
  'http-push': 'push',
  'fetch-pack': 'fetch',
};

function wordsMatch(
  rule: ShellRule,
  name: string,
  args: readonly string[],
  argsLiteral: readonly boolean[],
  appendsArgs: boolean,
  kind: 'allow' | 'deny',
): boolean {
  const words = [name, ...args];
  const literal = [true, ...argsLiteral];
  const from = (ruleIndex: number, wordIndex: number): boolean => {
    if (ruleIndex === rule.words.length) {
      if (!rule.exact || wordIndex === words.length) return true;
      return kind === 'deny';
    }
    const pattern = rule.words[ruleIndex]!;
    if (pattern === '*') {
      for (let next = wordIndex; next <= words.length; next++)
        if (from(ruleIndex + 1, next)) return true;
      return false;
    }
    if (wordIndex >= words.length) return kind === 'deny' && appendsArgs;
    // One unknown word may become several, so the rest cannot be compared either.
    if (literal[wordIndex] === false) return kind === 'deny';
    return starMatches(pattern, words[wordIndex]!) && from(ruleIndex + 1, wordIndex + 1);
  };
  return from(0, 0);
}

/** The first rule that matches a command, if any. */
export function findMatchingRule(
  rules: ShellRule[],
  command: ShellCommand,
  kind: 'allow' | 'deny' = 'allow',
): ShellRule | undefined {
  return rules.find((rule) => ruleMatches(rule, command, kind));
}
