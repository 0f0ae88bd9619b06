/**
 * What the rules say about one call: deny over ask over allow, the first matching rule of
 * the strongest list deciding. Shell commands are judged by the shell tool against the
 * parsed line (shellPolicyRules gives it the rules); here a shell rule only counts when it
 * names the whole tool.
 */

import { type ShellRule, shellPattern, starMatches } from '../shell/command-rules.js';
import { mcpNameCovers } from './mcp-names.js';
import {
  type CompiledPathSpecifier,
  compilePathSpecifier,
  type PathBases,
  pathForms,
  specifierCovers,
} from './path-patterns.js';
import type { PermissionRule, RuleList, RuleSet } from './permission-rules.js';
import { SHELL_TOOL, specifierKind } from './tool-vocabulary.js';

/** What a call is, as far as rules can see. */
export interface CallFacts {
  tool: string;
  displayName: string;
  /** For a tool of an MCP server: the server's alias and the tool's own name there. */
  mcp?: {
    server: string;
    tool: string;
    /** Every configured server's name, for reading `mcp__` rule names (mcp-names.ts). */
    servers?: readonly string[];
  };
  /** Absolute paths the call reads or changes (the searched folder for search tools). */
  paths: string[];
  /** The host a web_fetch call reaches. */
  host?: string;
  /** The value a literal specifier names (a subagent's name, a search query). */
  value?: string;
}

export interface Verdict {
  kind: RuleList;
  rule: PermissionRule;
}

/** Whether the rule's tool part names the call's tool. */
export function coversTool(rule: PermissionRule, call: CallFacts): boolean {
  if (rule.mcp) {
    if (!call.mcp) return false;
    // The longest configured server name that prefixes the rule's decides; a deny or ask
    // rule also holds under a shorter reading, so a name read two ways fails closed.
    return mcpNameCovers(rule.name, call.mcp, call.mcp.servers ?? [], rule.list !== 'allow');
  }
  if (rule.tools) return rule.tools.includes(call.tool);
  return rule.name === call.tool || rule.name === call.displayName;
}

/**
 * A host name or address as rules compare it: lower case, without brackets or a final dot,
 * an IPv4 address mapped into IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) as itself.
 */
export function normalHost(host: string): string {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (dotted) return dotted[1]!;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(bare);
  if (!hex) return bare;
  const [high, low] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function hostMatches(specifier: string, host: string): boolean {
  const wanted = normalHost(specifier.replace(/^domain:/, ''));
  const actual = normalHost(host);
  // An address is itself alone: `domain:0.0.1` is no suffix of 127.0.0.1.
  if (/^[\d.]+$|:/.test(actual)) return actual === wanted;
  if (wanted.startsWith('*.')) return actual.endsWith(wanted.slice(1));
  return actual === wanted || actual.endsWith(`.${wanted}`);
}

const compiledRules = new WeakMap<
  PermissionRule,
  { key: string; compiled: CompiledPathSpecifier }
>();

/**
 * A rule's path specifier compiled against the bases, once per rule and bases (a session's
 * rules are compiled on first use and kept).
 */
export function compiledPathRule(rule: PermissionRule, bases: PathBases): CompiledPathSpecifier {
  const key = `${bases.projectRoot}\0${bases.homeDir}`;
  const cached = compiledRules.get(rule);
  if (cached?.key === key) return cached.compiled;
  const compiled = compilePathSpecifier(rule.specifier!, bases);
  compiledRules.set(rule, { key, compiled });
  return compiled;
}

/**
 * Whether a path rule covers the call's paths. A deny or ask rule needs one path, as
 * written or as the kernel resolves it, to match; an allow rule needs every path to match
 * both ways, so a link cannot widen what it allows. An allow rule that could not be
 * compiled allows nothing (a deny or ask rule falls back to its whole literal folder).
 */
function pathsMatch(rule: PermissionRule, paths: string[], bases: PathBases): boolean {
  if (paths.length === 0) return false;
  const compiled = compiledPathRule(rule, bases);
  const covers = (form: string) => specifierCovers(compiled, form);
  if (rule.list === 'allow')
    return compiled.problem === undefined && paths.every((file) => pathForms(file).every(covers));
  return paths.some((file) => pathForms(file).some(covers));
}

/** Whether a rule matches a call (shell specifiers excepted: the shell tool judges those). */
export function ruleMatchesCall(rule: PermissionRule, call: CallFacts, bases: PathBases): boolean {
  if (!coversTool(rule, call)) return false;
  if (rule.specifier === undefined) return true;
  switch (specifierKind(call.tool)) {
    case 'command':
      return false;
    case 'path':
      return pathsMatch(rule, call.paths, bases);
    case 'domain':
      return call.host !== undefined && hostMatches(rule.specifier, call.host);
    default:
      return call.value !== undefined && starMatches(rule.specifier, call.value);
  }
}

/** The rule that decides a call, strongest list first, or undefined when none speaks. */
export function decideCall(rules: RuleSet, call: CallFacts, bases: PathBases): Verdict | undefined {
  for (const kind of ['deny', 'ask', 'allow'] as const) {
    const rule = rules[kind].find((candidate) => ruleMatchesCall(candidate, call, bases));
    if (rule) {
      // A bare shell allow lets every command run only while no ask rule speaks of commands.
      if (kind === 'allow' && call.tool === SHELL_TOOL && shellPolicyRules(rules).ask.length > 0)
        return undefined;
      return { kind, rule };
    }
  }
  return undefined;
}

/** A deny rule without a specifier naming the tool: the tool is not offered at all. */
export function removingRule(rules: RuleSet, call: CallFacts): PermissionRule | undefined {
  return rules.deny.find((rule) => rule.specifier === undefined && coversTool(rule, call));
}

export interface ShellRules {
  allow: ShellRule[];
  ask: ShellRule[];
  deny: ShellRule[];
  /** `Bash` (the whole tool) is allowed: commands no deny or ask rule names run unasked. */
  allowAll: boolean;
}

/**
 * The shell rules of a rule set. `Bash(npm run test)` allows that command exactly, as in
 * Claude Code; written with a final `*` or `:*` it is a prefix. Ask and deny rules are
 * prefixes either way (stricter when in doubt), and so are the older
 * `run_shell_command(git)` entries, as they always were.
 */
export function shellPolicyRules(rules: RuleSet): ShellRules {
  const convert = (rule: PermissionRule): ShellRule | undefined => {
    if (!rule.tools?.includes(SHELL_TOOL) || rule.mcp) return undefined;
    const exact = rule.list === 'allow' && !rule.legacy && rule.name === 'Bash';
    return shellPattern(rule.entry, rule.specifier ?? '*', { exact, source: rule.source });
  };
  const of = (list: PermissionRule[]) =>
    list.flatMap((rule) => {
      const converted = convert(rule);
      return converted ? [converted] : [];
    });
  const allowRules = rules.allow.filter((rule) => rule.specifier !== undefined);
  return {
    allow: of(allowRules),
    ask: of(rules.ask),
    deny: of(rules.deny),
    allowAll: rules.allow.some(
      (rule) => rule.specifier === undefined && rule.tools?.includes(SHELL_TOOL),
    ),
  };
}
