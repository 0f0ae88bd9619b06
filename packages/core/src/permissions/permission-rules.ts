/**
 * Permission rules: `permissions.allow`, `permissions.ask` and `permissions.deny` entries
 * in Qwen Code's and Claude Code's syntax (`Tool` or `Tool(specifier)`), and the older
 * `tools.allowed` / `tools.core` / `tools.exclude` entries read as the same rules. This
 * folder parses rules and decides what they say about a call (decision.ts); it enforces
 * nothing itself: the scheduler, the shell tool and the tool list act on its answers.
 * Shell specifiers become shell/command-rules.ts rules, judged against the parsed line.
 */
import type { Settings } from '../contract/settings-types.js';
import { toolsNamed } from './tool-vocabulary.js';

export type RuleList = 'allow' | 'ask' | 'deny';

export interface PermissionRule {
  /** The entry as written, for messages. */
  entry: string;
  list: RuleList;
  /** The settings key it came from (`permissions.deny`, `tools.exclude`...). */
  source: string;
  /** The tool part as written (`Bash`, `Read`, `mcp__github`, `my_tool`). */
  name: string;
  /** The toolhost tools the name covers; undefined when the name is matched as written. */
  tools?: readonly string[];
  /**
   * `mcp__server`, `mcp__server__*`, `mcp__server__tool` (the tool part may hold `*`), read
   * at the first `__`; calls are matched against the configured server names instead
   * (mcp-names.ts), since a server's name may hold `__`.
   */
  mcp?: { server: string; tool?: string };
  /** The text between the brackets; undefined for a bare name, `Bash(*)` or `Bash()`. */
  specifier?: string;
  /** Older `run_shell_command(git)` entries: a prefix however the list reads it. */
  legacy?: boolean;
}

export interface RuleSet {
  allow: PermissionRule[];
  ask: PermissionRule[];
  deny: PermissionRule[];
}

const ENTRY = /^([^()\s]+)\s*(?:\((.*)\))?$/s;

/** One entry as a rule, or undefined when it is not of the form `Name` or `Name(...)`. */
export function parseRule(
  entry: string,
  list: RuleList,
  source: string,
): PermissionRule | undefined {
  const match = ENTRY.exec(entry.trim());
  if (!match) return undefined;
  const name = match[1]!;
  const inner = match[2]?.trim();
  const specifier = inner === undefined || inner === '' || inner === '*' ? undefined : inner;
  const rule: PermissionRule = { entry, list, source, name };
  const tools = toolsNamed(name);
  if (tools) rule.tools = tools;
  if (name.startsWith('mcp__')) {
    const [, server, ...rest] = name.split('__');
    if (server) rule.mcp = rest.length > 0 ? { server, tool: rest.join('__') } : { server };
  }
  if (specifier !== undefined) rule.specifier = specifier;
  return rule;
}

function parseList(
  entries: readonly string[] | undefined,
  list: RuleList,
  source: string,
  legacy = false,
): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const entry of entries ?? []) {
    const rule = parseRule(entry, list, source);
    if (!rule) continue;
    if (legacy) rule.legacy = true;
    rules.push(rule);
  }
  return rules;
}

/**
 * Every rule the settings hold. `tools.allowed` entries allow; `tools.exclude` entries
 * deny; a `tools.core` entry with an argument (`run_shell_command(git)`) allows that
 * argument, while its plain names only limit which tools are offered (tool-catalog.ts).
 */
export function rulesFromSettings(settings: Settings): RuleSet {
  const permissions = settings.permissions ?? {};
  const tools = settings.tools ?? {};
  const core = (tools.core ?? []).filter((entry) => entry.includes('('));
  return {
    allow: [
      ...parseList(permissions.allow, 'allow', 'permissions.allow'),
      ...parseList(tools.allowed, 'allow', 'tools.allowed', true),
      ...parseList(core, 'allow', 'tools.core', true),
    ],
    ask: parseList(permissions.ask, 'ask', 'permissions.ask'),
    deny: [
      ...parseList(permissions.deny, 'deny', 'permissions.deny'),
      ...parseList(tools.exclude, 'deny', 'tools.exclude', true),
    ],
  };
}

/** Entries that are not rules, for a warning: `Bash(git` or `Read (x) y`. */
export function malformedEntries(settings: Settings): string[] {
  const permissions = settings.permissions ?? {};
  return [
    ...(permissions.allow ?? []),
    ...(permissions.ask ?? []),
    ...(permissions.deny ?? []),
  ].filter((entry) => !ENTRY.test(entry.trim()));
}
