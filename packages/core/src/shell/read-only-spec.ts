/**
 * What the read-only table (read-only-command-table.ts) says of each command: its safe
 * options and what its operands are. Its own module so the table need not import the
 * module that re-exports it.
 */
import type { OptionSpec } from './parse-options.js';

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
