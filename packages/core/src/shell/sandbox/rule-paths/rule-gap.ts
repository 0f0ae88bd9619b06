/**
 * When the kernel cannot hold the person's Read and Edit deny rules for a command, the
 * command asks, in every approval mode (as an ask rule would): without bwrap (the sandbox
 * off or not working, sandbox-exec, a command run outside it) a command that could read or
 * change a covered path, and with bwrap a rule whose paths could not all be found.
 */

import type { ShellDecision } from '../../shell-permissions.js';
import type { CoveredPaths } from './covered.js';

export interface RuleGap {
  /** Why the command asks, for the question. */
  reason: string;
  /** The deny rules that cannot be held, as written. */
  rules: string[];
}

/** How many covered paths a question names before "and N more". */
const NAMED = 3;

/**
 * The gap for one command. `kernel`: it runs under bwrap with the covered paths mounted.
 * Without it, a line proven read-only had every path it names checked against the Read
 * rules (shell-permissions.ts), so it can neither read a covered path it does not name nor
 * change one; any other could.
 */
export function ruleGap(
  covered: CoveredPaths,
  kernel: boolean,
  decision: ShellDecision,
  workspace: { relative: (file: string) => string },
): RuleGap | null {
  const checkedReads = decision.kind === 'allow' && decision.reason === 'read_only';
  const unenforced = covered.unenforced;
  if (kernel) {
    if (unenforced.length === 0) return null;
    return {
      reason: `the sandbox cannot hold ${unenforced.map((rule) => `${rule.rule} (${rule.reason})`).join('; ')}`,
      rules: unenforced.map((rule) => rule.rule),
    };
  }
  if (checkedReads || (covered.paths.length === 0 && unenforced.length === 0)) return null;
  const rules = [
    ...new Set([...covered.paths.map((file) => file.rule), ...unenforced.map((rule) => rule.rule)]),
  ];
  const named = covered.paths.slice(0, NAMED).map((file) => workspace.relative(file.foundAs));
  const more = covered.paths.length > NAMED ? ` and ${covered.paths.length - NAMED} more` : '';
  const what = named.length > 0 ? `: ${named.join(', ')}${more}` : '';
  return {
    reason: `no sandbox hides or protects what your deny rules ${rules.join(', ')} cover${what}, and this command could read or change it`,
    rules,
  };
}
