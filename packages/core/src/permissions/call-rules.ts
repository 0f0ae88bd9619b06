/** The session's rules applied to a tool call: the facts rules see, and the verdict. */
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { Settings } from '../contract/settings-types.js';
import type { Kind, ToolLocation } from '../contract/tool-shapes.js';
import { kernelResolver } from '../workspace/workspace-context.js';
import {
  type CallFacts,
  compiledPathRule,
  decideCall,
  removingRule,
  type Verdict,
} from './decision.js';
import { configuredServers } from './mcp-servers.js';
import { type PathBases, pathForms, specifierCovers } from './path-patterns.js';
import {
  type PermissionRule,
  type RuleList,
  type RuleSet,
  rulesFromSettings,
} from './permission-rules.js';
import { EDITING_TOOLS, READING_TOOLS, specifierKind } from './tool-vocabulary.js';

/**
 * A tool as rules and approvals see it: its names and kind, the files a call touches and
 * the line describing a call. Every tool (tools/tools.ts' BaseTool) is one; rules need no
 * more of it, so they sit below the tools.
 */
export interface RuledTool {
  readonly name: string;
  readonly displayName: string;
  readonly kind: Kind;
  // `object`: each tool takes its own parameters; rules hand over what the model sent.
  toolLocations(params: object): ToolLocation[];
  getDescription(params: object): string;
}

const parsed = new WeakMap<Settings, RuleSet>();

/** The rules of the session's settings (parsed once per settings object). */
export function sessionRules(config: Config): RuleSet {
  let rules = parsed.get(config.settings);
  if (!rules) {
    rules = rulesFromSettings(config.settings);
    parsed.set(config.settings, rules);
  }
  return rules;
}

function hostOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

function locations(tool: RuledTool, params: Record<string, unknown>): string[] {
  try {
    return tool
      .toolLocations(params)
      .map((location) => location.path)
      .filter((file): file is string => typeof file === 'string' && file !== '');
  } catch {
    return [];
  }
}

/** What rules can see of a call of `tool` with `params`. */
export function callFacts(
  config: Config,
  tool: RuledTool,
  params: Record<string, unknown> = {},
): CallFacts {
  const facts: CallFacts = { tool: tool.name, displayName: tool.displayName, paths: [] };
  const mcp = tool as unknown as { serverAlias?: unknown; serverToolName?: unknown };
  if (typeof mcp.serverAlias === 'string' && typeof mcp.serverToolName === 'string')
    facts.mcp = {
      server: mcp.serverAlias,
      tool: mcp.serverToolName,
      servers: configuredServers(config).map(([alias]) => alias),
    };
  const root = config.workspace.projectRoot;
  if (specifierKind(tool.name) === 'path') {
    const named =
      tool.name === 'read_many_files' && Array.isArray(params.paths)
        ? params.paths.filter((entry): entry is string => typeof entry === 'string')
        : locations(tool, params);
    // A search without a folder searches the workspace from its root.
    facts.paths = (named.length > 0 ? named : [root]).map((file) => path.resolve(root, file));
  }
  facts.host = hostOf(params.url);
  const value = params.subagent_type ?? params.query;
  if (typeof value === 'string') facts.value = value;
  return facts;
}

/** The verdict of the session's rules on a call, or undefined when no rule speaks. */
export function ruleVerdict(
  config: Config,
  tool: RuledTool,
  params: Record<string, unknown>,
): Verdict | undefined {
  return decideCall(sessionRules(config), callFacts(config, tool, params), sessionBases(config));
}

/** The deny rule that takes a tool away entirely (`Bash`, `WebFetch` in permissions.deny). */
export function toolRemovedBy(config: Config, tool: RuledTool): string | undefined {
  const rule = removingRule(sessionRules(config), callFacts(config, tool));
  return rule ? `${rule.source} ("${rule.entry}")` : undefined;
}

/** What the model reads when a deny rule refuses its call. */
export function deniedMessage(verdict: Verdict, tool: RuledTool): string {
  return `${tool.name} is blocked by the rule ${verdict.rule.entry} in ${verdict.rule.source}. Do not try to reach the same thing another way; ask the person if it is needed.`;
}

/**
 * For tools that go through folders (grep, glob, list_directory, read_many_files) and for
 * the shell's read-only check: a test of a file against the deny rules with a path that
 * cover the tool, giving the rule that covers it; null when no such rule exists. A denied
 * file is left out as if it were not there. The file is compared as written and by its
 * real path (links resolved, once per folder for the whole walk).
 */
export function deniedFileTest(
  config: Config,
  tool: string,
): ((file: string) => string | undefined) | null {
  const bases = sessionBases(config);
  const rules = sessionRules(config).deny.filter(
    (rule) => rule.specifier !== undefined && rule.tools?.includes(tool),
  );
  if (rules.length === 0) return null;
  const compiled = rules.map((rule) => ({ rule, compiled: compiledPathRule(rule, bases) }));
  const resolve = kernelResolver();
  return (file) => {
    const absolute = path.resolve(config.workspace.projectRoot, file);
    const forms = [absolute, resolve(absolute) ?? absolute];
    return compiled.find((test) => forms.some((form) => specifierCovers(test.compiled, form)))?.rule
      .entry;
  };
}

/** The project root and home folder path rules are read against. */
export function sessionBases(config: Config): PathBases {
  return { projectRoot: config.workspace.projectRoot, homeDir: config.homeDir };
}

/** What a path is used for, in the words of rules: `Read` rules or `Edit` rules. */
export type PathUse = 'read' | 'edit';

function coversUse(rule: PermissionRule, use: PathUse): boolean {
  if (rule.specifier === undefined || rule.mcp) return false;
  const tools = use === 'read' ? READING_TOOLS : EDITING_TOOLS;
  return tools.some((tool) => rule.tools?.includes(tool));
}

/**
 * The path rule of the session that covers an absolute path for a use, looked for in the
 * lists given in order (deny first by default): the first that covers the path as written
 * or as its links resolve. For checks outside the file tools (the shell, the sandbox's
 * mounts, memory imports): `pathRuleCovering(config, file, 'read')` is "would a Read deny
 * rule refuse this file", `pathRuleCovering(config, file, 'edit', ['deny', 'ask'])` "would
 * changing it be refused or asked about".
 */
export function pathRuleCovering(
  config: Config,
  absolutePath: string,
  use: PathUse,
  lists: readonly RuleList[] = ['deny'],
): PermissionRule | undefined {
  const bases = sessionBases(config);
  const forms = pathForms(absolutePath);
  const rules = sessionRules(config);
  for (const list of lists) {
    for (const rule of rules[list]) {
      if (!coversUse(rule, use)) continue;
      const compiled = compiledPathRule(rule, bases);
      if (forms.some((form) => specifierCovers(compiled, form))) return rule;
    }
  }
  return undefined;
}

/** One starting point of a path rule: where its literal part ends, canonical. */
export interface PathRuleRoot {
  rule: PermissionRule;
  /** An absolute folder or file: as written, or as its links resolve (both are listed). */
  root: string;
  /**
   * True when the rule covers the root and everything below it (`Read(./secrets/**)`,
   * `Read(~/.ssh)`); false when it covers only some paths below (`Read(.env)` at any depth,
   * `Read(./src/*.pem)`): test those with pathRuleCovering.
   */
  whole: boolean;
}

/**
 * The starting points of the session's path rules of one list for a use, e.g.
 * `pathRuleRoots(config, 'read', 'deny')` for what a sandbox hides. A rule with `{a,b}`
 * gives one entry per alternative; a rule that could not be compiled gives its literal
 * folder, whole (see pathRuleWarnings).
 */
export function pathRuleRoots(
  config: Config,
  use: PathUse,
  list: RuleList = 'deny',
): PathRuleRoot[] {
  const bases = sessionBases(config);
  const roots: PathRuleRoot[] = [];
  for (const rule of sessionRules(config)[list]) {
    if (!coversUse(rule, use)) continue;
    for (const pattern of compiledPathRule(rule, bases).patterns)
      for (const root of pattern.roots)
        roots.push({ rule, root, whole: pattern.rest === undefined });
  }
  return roots;
}

/**
 * One line per path rule that could not be compiled as written, naming its settings key
 * and the rule and saying what happens instead, for the session's warnings.
 */
export function pathRuleWarnings(config: Config): string[] {
  const bases = sessionBases(config);
  const rules = sessionRules(config);
  const warnings: string[] = [];
  for (const rule of [...rules.deny, ...rules.ask, ...rules.allow]) {
    if (rule.specifier === undefined || rule.mcp || specifierKind(rule.tools?.[0] ?? '') !== 'path')
      continue;
    const { problem, patterns } = compiledPathRule(rule, bases);
    if (problem === undefined) continue;
    const instead =
      rule.list === 'allow'
        ? 'it allows nothing'
        : `it ${rule.list === 'deny' ? 'refuses' : 'asks about'} everything in ${patterns[0]?.roots[0]} instead`;
    warnings.push(
      `${rule.source}: "${rule.entry}" cannot be read as a path pattern: ${problem}; ${instead}.`,
    );
  }
  return warnings;
}
