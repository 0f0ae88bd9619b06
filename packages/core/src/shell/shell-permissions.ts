/**
 * Decides whether a shell line may run. Refused, in every approval mode: a command that a
 * deny rule matches (or might match, when a word it checks is only known at run time),
 * and, while any deny rule exists, a line with a part that cannot be checked; a line that
 * names a file a Read deny rule covers (covered-reads.ts) or writes one an Edit deny rule
 * covers (write-targets.ts). Run without asking: every command allowed by a rule or an
 * "always" answer, writing only where Edit allow rules let it, with nothing an allow rule
 * does not cover (allowed-command-checks.ts); or every command proven read-only
 * (read-only-check.ts) with nothing written; the latter runs in the unasked sandbox
 * profile, and run_shell_command asks for it where that profile cannot run. Everything
 * else asks, with reasons the person can read.
 */
import { allowedCommandProblem } from './allowed-command-checks.js';
import type { CommandAnalysis, ShellCommand } from './command-analysis.js';
import { findMatchingRule, type ShellRule } from './command-rules.js';
import { readsOfCovered } from './covered-reads.js';
import { gitAliasViews } from './git-aliases.js';
import { inlineProgramProblem } from './inline-programs.js';
import { judgeOperandWrites } from './operand-writes.js';
import { pathProblem, type ReadOnlyContext, readOnlyProblem } from './read-only-check.js';
import { isSystemProgram } from './system-programs.js';
import { judgeWrites } from './write-targets.js';

export type ShellDecision =
  | { kind: 'deny'; message: string }
  | { kind: 'allow'; reason: 'rules' | 'read_only' }
  | {
      kind: 'ask';
      rootCommands: string[];
      reasons: string[];
      /** Ask rules that make this question be asked in every approval mode. */
      askedByRules?: string[];
    };

export interface ShellPolicy {
  allowRules: ShellRule[];
  /** Rules whose commands are asked about in every approval mode (`permissions.ask`). */
  askRules?: ShellRule[];
  denyRules: ShellRule[];
  /** The whole tool is allowed (`Bash` in permissions.allow): only deny and ask rules ask. */
  allowAll?: boolean;
  /** Command names the person allowed "always" this session. */
  sessionAllowed: ReadonlySet<string>;
  /** Where the line runs and what it may read, for proving commands read-only. */
  readOnly: ReadOnlyContext;
}

export function decideShell(analysis: CommandAnalysis, policy: ShellPolicy): ShellDecision {
  // `git p` with `[alias] p = push` pushes: deny and ask rules see the expansion too.
  const aliases =
    policy.denyRules.length > 0 || (policy.askRules?.length ?? 0) > 0
      ? gitAliasViews(analysis.commands, policy.readOnly.cwd, policy.readOnly.homeDir)
      : { views: [], unclear: [] };
  const ruled = [...analysis.commands, ...aliases.views];
  for (const command of ruled) {
    const rule = findMatchingRule(policy.denyRules, command, 'deny');
    if (rule) {
      const how = command.via ? ` (run by ${command.via})` : '';
      return {
        kind: 'deny',
        message: `The command "${command.text}"${how} is blocked by the rule ${rule.entry} in ${rule.source ?? 'tools.exclude'}. Do not try to run it another way; ask the person if it is needed.`,
      };
    }
  }
  // A program given by its path is whatever file lies there (one the model may have
  // written), not the command its name suggests: unclear unless the person named that path.
  const key = (command: ShellCommand) =>
    command.program === undefined || isSystemProgram(command.program, policy.readOnly.canRead)
      ? command.name
      : command.program;
  const allowed = (command: ShellCommand) => {
    const byPath = key(command) !== command.name;
    const rules = byPath
      ? policy.allowRules.filter((rule) => rule.program === command.program)
      : policy.allowRules;
    return (
      policy.sessionAllowed.has(key(command)) ||
      findMatchingRule(rules, command, 'allow') !== undefined
    );
  };
  // Program text in another language cannot be checked against deny or ask rules.
  const shellRuled = policy.denyRules.length > 0 || (policy.askRules ?? []).length > 0;
  const unclear = [
    ...analysis.unclear,
    ...aliases.unclear,
    ...(shellRuled ? analysis.commands.map(inlineProgramProblem).filter((p) => p !== null) : []),
    ...analysis.commands
      .filter((command) => key(command) !== command.name && !allowed(command))
      .map((command) => `${command.program} runs a program by its path, not a known command`),
  ];
  if (policy.denyRules.length > 0 && unclear.length > 0) {
    return {
      kind: 'deny',
      message: `This command cannot be checked against the deny rules (${policy.denyRules.map((r) => `${r.entry} in ${r.source ?? 'tools.exclude'}`).join(', ')}): ${unclear.join('; ')}. While deny rules are set, commands that cannot be checked are refused in every approval mode. Write it as plain commands with literal names, or ask the person.`,
    };
  }
  // Files a Read deny rule covers that a command would read are refused, in every mode.
  const reads = readsOfCovered(analysis, policy.readOnly);
  if (reads.denied.length > 0)
    return {
      kind: 'deny',
      message: `The command names files a Read deny rule covers: ${[...new Set(reads.denied)].join('; ')}. Do not try to reach them another way; ask the person if it is needed.`,
    };
  // Output written to files is judged by the Edit rules, whatever allows the command.
  const writes = judgeWrites(analysis.writeTargets, policy.readOnly);
  if (writes.denied)
    return {
      kind: 'deny',
      message: `The command is refused: ${writes.denied}. Do not try to write it another way; ask the person if it is needed.`,
    };
  // Files programs write through their operands (`touch f`, `cp x .env`): an allow rule
  // for the program lets it write, but Edit deny and ask rules still speak.
  const operands = judgeOperandWrites(analysis, policy.readOnly);
  if (operands.denied)
    return {
      kind: 'deny',
      message: `The command is refused: ${operands.denied}. Do not try to write it another way; ask the person if it is needed.`,
    };
  const asked = askedBy(ruled, policy, unclear, [
    ...new Set([...writes.askRules, ...operands.askRules]),
  ]);
  if (asked) return asked;
  // What git prints of the repository, against the Read deny rules, whatever allows it.
  const contentReasons = reads.could;
  if (policy.allowAll && contentReasons.length === 0) return { kind: 'allow', reason: 'rules' };
  const reasons: string[] = [...new Set(unclear)];
  if (analysis.substitutions.length > 0) {
    reasons.push(`it runs commands inside substitutions: ${analysis.substitutions.join(', ')}`);
  }
  reasons.push(...contentReasons);
  const stillAsks = new Map<ShellCommand, string>();
  for (const command of analysis.commands) {
    if (!policy.allowAll && !allowed(command)) continue;
    const problem = allowedCommandProblem(command, policy.readOnly);
    if (problem) stillAsks.set(command, problem);
  }
  reasons.push(...stillAsks.values());
  const notAllowed = analysis.commands.filter(
    (command) => !policy.allowAll && (!allowed(command) || stillAsks.has(command)),
  );
  const byRules = analysis.commands.length > 0 && notAllowed.length === 0;
  if (reasons.length === 0 && analysis.notReadOnly.length === 0 && writes.asks.length === 0) {
    if (byRules || policy.allowAll) return { kind: 'allow', reason: 'rules' };
  }

  const readOnlyReasons: string[] = [...analysis.notReadOnly, ...writes.asks, ...operands.asks];
  for (const read of analysis.reads) {
    const problem = pathProblem(read, policy.readOnly);
    if (problem) readOnlyReasons.push(`it reads ${problem}`);
  }
  for (const command of notAllowed) {
    const problem = readOnlyProblem(command, policy.readOnly);
    if (problem) readOnlyReasons.push(problem);
  }
  if (reasons.length === 0 && readOnlyReasons.length === 0) {
    // Files written only where Edit allow rules let them be: the sandbox must let it write.
    return { kind: 'allow', reason: writes.allowed.length > 0 ? 'rules' : 'read_only' };
  }
  reasons.push(...readOnlyReasons);
  const rootCommands = [...new Set(notAllowed.map(key))];
  return { kind: 'ask', rootCommands, reasons: [...new Set(reasons)] };
}

/**
 * The question ask rules force, in every approval mode: a command one of them matches (or
 * might match), or, while any exists, a line with a part that cannot be checked.
 */
function askedBy(
  commands: readonly ShellCommand[],
  policy: ShellPolicy,
  unclear: string[],
  editAskRules: string[],
): ShellDecision | undefined {
  const askRules = policy.askRules ?? [];
  const reasons: string[] = editAskRules.map((rule) => `the rule ${rule} asks before this write`);
  const rules = new Set<string>(editAskRules);
  if (askRules.length === 0 && rules.size === 0) return undefined;
  const roots = new Set<string>();
  for (const command of commands) {
    const rule = findMatchingRule(askRules, command, 'deny');
    if (!rule) continue;
    rules.add(rule.entry);
    roots.add(command.name);
    reasons.push(
      `the rule ${rule.entry} in ${rule.source ?? 'permissions.ask'} asks before "${command.text}"`,
    );
  }
  if (unclear.length > 0 && askRules.length > 0) {
    for (const rule of askRules) rules.add(rule.entry);
    reasons.push(`it cannot be checked against the ask rules: ${unclear.join('; ')}`);
  }
  if (rules.size === 0) return undefined;
  return { kind: 'ask', rootCommands: [...roots], reasons, askedByRules: [...rules] };
}
