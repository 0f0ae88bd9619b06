/** The session's rules applied to a tool call: the facts rules see, and the verdict. */
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { Settings } from '../config/settings-types.js';
import type { AnyTool } from '../tools/tools.js';
import { resolveLikeKernel } from '../workspace/workspace-context.js';
import { type CallFacts, decideCall, removingRule, type Verdict } from './decision.js';
import { pathMatcher } from './path-patterns.js';
import { type RuleSet, rulesFromSettings } from './permission-rules.js';
import { specifierKind } from './tool-vocabulary.js';

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

function locations(tool: AnyTool, params: Record<string, unknown>): string[] {
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
  tool: AnyTool,
  params: Record<string, unknown> = {},
): CallFacts {
  const facts: CallFacts = { tool: tool.name, displayName: tool.displayName, paths: [] };
  const mcp = tool as unknown as { serverAlias?: unknown; serverToolName?: unknown };
  if (typeof mcp.serverAlias === 'string' && typeof mcp.serverToolName === 'string')
    facts.mcp = { server: mcp.serverAlias, tool: mcp.serverToolName };
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
  tool: AnyTool,
  params: Record<string, unknown>,
): Verdict | undefined {
  return decideCall(sessionRules(config), callFacts(config, tool, params), {
    projectRoot: config.workspace.projectRoot,
    homeDir: config.homeDir,
  });
}

/** The deny rule that takes a tool away entirely (`Bash`, `WebFetch` in permissions.deny). */
export function toolRemovedBy(config: Config, tool: AnyTool): string | undefined {
  const rule = removingRule(sessionRules(config), callFacts(config, tool));
  return rule ? `${rule.source} ("${rule.entry}")` : undefined;
}

/** What the model reads when a deny rule refuses its call. */
export function deniedMessage(verdict: Verdict, tool: AnyTool): string {
  return `${tool.name} is blocked by the rule ${verdict.rule.entry} in ${verdict.rule.source}. Do not try to reach the same thing another way; ask the person if it is needed.`;
}

/**
 * For tools that go through folders (grep, glob, list_directory, read_many_files) and for
 * the shell's read-only check: a test of a file against the deny rules with a path that
 * cover the tool, giving the rule that covers it; null when no such rule exists. A denied
 * file is left out as if it were not there.
 */
export function deniedFileTest(
  config: Config,
  tool: string,
): ((file: string) => string | undefined) | null {
  const bases = { projectRoot: config.workspace.projectRoot, homeDir: config.homeDir };
  const tests = sessionRules(config)
    .deny.filter((rule) => rule.specifier !== undefined && rule.tools?.includes(tool))
    .map((rule) => ({ entry: rule.entry, matches: pathMatcher(rule.specifier!, bases) }));
  if (tests.length === 0) return null;
  return (file) => {
    const absolute = path.resolve(config.workspace.projectRoot, file);
    const forms = [absolute, resolveLikeKernel(absolute) ?? absolute];
    return tests.find((test) => forms.some(test.matches))?.entry;
  };
}
