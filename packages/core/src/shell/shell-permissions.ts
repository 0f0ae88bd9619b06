/**
 * Decides whether a shell line may run: refused when any command matches a deny rule (in
 * every approval mode), run without asking only when every command is allowed (by a rule,
 * by an "always" answer this session, or as a read-only command with nothing written), and
 * otherwise asked. Substitutions and anything the parser cannot understand always ask.
 */
import type { CommandAnalysis, ShellCommand } from './command-analysis.js';
import { findMatchingRule, type ShellRule } from './command-rules.js';
import { isReadOnlyCommand } from './read-only-commands.js';

export type ShellDecision =
  | { kind: 'deny'; message: string }
  | { kind: 'allow'; reason: 'rules' | 'read_only' }
  | { kind: 'ask'; rootCommands: string[]; reasons: string[] };

export interface ShellPolicy {
  allowRules: ShellRule[];
  denyRules: ShellRule[];
  /** Command names the person allowed "always" this session. */
  sessionAllowed: ReadonlySet<string>;
}

export function decideShell(analysis: CommandAnalysis, policy: ShellPolicy): ShellDecision {
  for (const command of analysis.commands) {
    const rule = findMatchingRule(policy.denyRules, command);
    if (rule) {
      return {
        kind: 'deny',
        message: `The command "${command.text}" is blocked by the rule ${rule.entry} in tools.exclude. Do not try to run it another way; ask the person if it is needed.`,
      };
    }
  }
  const reasons: string[] = [];
  if (analysis.unclear.length > 0) reasons.push(...analysis.unclear);
  if (analysis.substitutions.length > 0) {
    reasons.push(`runs commands inside substitutions: ${analysis.substitutions.join(', ')}`);
  }
  const allowed = (command: ShellCommand) =>
    policy.sessionAllowed.has(command.name) ||
    findMatchingRule(policy.allowRules, command) !== undefined;
  const notAllowed = analysis.commands.filter((command) => !allowed(command));
  if (reasons.length === 0 && notAllowed.length === 0) return { kind: 'allow', reason: 'rules' };
  if (
    reasons.length === 0 &&
    analysis.writes.length === 0 &&
    notAllowed.every((command) => isReadOnlyCommand(command))
  ) {
    return { kind: 'allow', reason: 'read_only' };
  }
  if (analysis.writes.length > 0) reasons.push(`writes to ${analysis.writes.join(', ')}`);
  const rootCommands = [...new Set(notAllowed.map((command) => command.name))];
  return { kind: 'ask', rootCommands, reasons };
}
