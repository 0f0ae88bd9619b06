/**
 * The allow-list of commands that only read, with the options known to be safe for each:
 * a command runs without asking in `default` mode only when it is listed here and uses
 * nothing but these options. Anything else (an unknown option, a leading assignment, a
 * file outside the workspace) asks; the table is in read-only-command-table.ts, the checks
 * in read-only-check.ts, and the cases that prove the table in read-only-commands.test.ts.
 */
import type { OptionSpec } from './parse-options.js';

export { READ_ONLY_COMMANDS } from './read-only-command-table.js';

export interface ReadOnlySpec {
  options: OptionSpec;
  /**
   * What the operands are: `paths` (files read, each checked against the workspace),
   * `text` (never opened: echo, basename), or `pattern-then-paths` (grep: the first operand
   * is a pattern unless -e/-f gave one).
   */
  operands: 'paths' | 'text' | 'pattern-then-paths' | 'none';
  /** Options whose value is a file the command reads (checked like path operands). */
  pathOptions?: readonly string[];
  /** Options that give the pattern, so every operand is a path. */
  patternOptions?: readonly string[];
  /** At most this many operands (uniq writes to its second). */
  maxOperands?: number;
  /**
   * Options taken only beside one of some others: `diff -r` walks folders, and follows links
   * met there out of the workspace unless `--no-dereference` is given too.
   */
  onlyWith?: Readonly<Record<string, readonly string[]>>;
  /** Takes anything as text, with no options to check (echo). */
  anyText?: boolean;
  /** Every operand must look like this (`date +FORMAT`; a bare operand sets the clock). */
  operandPattern?: RegExp;
}
