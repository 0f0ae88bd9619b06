/**
 * Every settings key by what it lets a project do: the one list the trust cut
 * (untrusted-project.ts) reads. A key that loosens approvals, the sandbox, the network, the
 * environment, web hosts, endpoints and their keys, that reads files into the prompt or that
 * starts programs is honoured from a project the person has not trusted only when its value
 * is no looser than the person's own (their settings, or toolhost's default). A key this list
 * does not name is dropped from such a project (setting-effects.test.ts fails until it is
 * named here).
 */
import { HOOK_EVENTS, SETTING_DEFAULTS } from '../contract/settings-types.js';

export type SettingEffect =
  | 'approvals'
  | 'sandbox'
  | 'network'
  | 'environment'
  | 'hosts'
  | 'endpoints'
  | 'prompt files'
  | 'folders'
  | 'programs'
  | 'trust'
  | 'harmless';

/** What a dropped key would have done, for the warning ("... would have <phrase>"). */
export const EFFECT_PHRASES: Readonly<Record<Exclude<SettingEffect, 'harmless'>, string>> = {
  approvals: 'let calls run without asking',
  sandbox: 'weakened the sandbox',
  network: 'opened the network to commands',
  environment: 'handed environment variables (secrets) to commands or settings',
  hosts: 'let web_fetch reach private addresses',
  endpoints: 'sent requests, and your keys, to other endpoints',
  'prompt files': 'read other files into the prompt',
  folders: 'given the tools folders outside the project',
  programs: 'started programs',
  trust: 'turned folder trust off',
};

export interface SettingRule {
  effect: SettingEffect;
  /**
   * For a loosening key: whether the project's value is no looser than the person's
   * (undefined when the person left the key out), so it may stay. Without it the key stays
   * only when the project repeats the person's value exactly.
   */
  noLooser?: Comparison;
}

type Comparison = (project: unknown, person: unknown) => boolean;

/** Keeps a value no further along `order` (strictest first) than the person's, or `fallback`. */
function noFurtherThan(order: readonly unknown[], fallback: unknown): Comparison {
  return (project, person) => {
    const rank = order.indexOf(project);
    return rank !== -1 && rank <= order.indexOf(person ?? fallback);
  };
}

const asList = (value: unknown): unknown[] | undefined =>
  Array.isArray(value) ? value : typeof value === 'string' ? [value] : undefined;

/** A list that grants (allowed tools, hosts, variables): only what the person's list grants. */
function grantsNoMore(fallback: readonly unknown[] = []): Comparison {
  return (project, person) => {
    const granted = asList(person) ?? fallback;
    return asList(project)?.every((item) => granted.includes(item)) ?? false;
  };
}

/** A list that limits (core tools, allowed servers): left out by the person, any list narrows. */
const narrowsOnly: Comparison = (project, person) =>
  person === undefined || grantsNoMore()(project, person);

/**
 * `tools.core`: a plain name only limits the tools offered, but `run_shell_command(cmd)`
 * also lets that command run unasked (a shell allow rule), so such an entry must be one
 * of the person's own.
 */
const coreNarrowsOnly: Comparison = (project, person) => {
  const own = asList(person);
  return (
    asList(project)?.every((entry) =>
      String(entry).includes('(') ? (own?.includes(entry) ?? false) : narrowsOnly([entry], person),
    ) ?? false
  );
};

const harmless: SettingRule = { effect: 'harmless' };
const startsPrograms: SettingRule = { effect: 'programs' };
const defaults = SETTING_DEFAULTS;

/**
 * Dotted keys (as they are after older flat names are resolved) and their rules. A map
 * whose every entry has one effect (`mcpServers`) is named whole; everything else leaf by
 * leaf, so a key added to the schema is never covered by accident.
 */
export const SETTING_RULES: Readonly<Record<string, SettingRule>> = {
  $schema: harmless,
  'general.preferredEditor': { effect: 'programs' },
  'general.vimMode': harmless,
  'general.checkpointing.enabled': harmless,
  'general.checkpointing.onFailure': harmless,
  'general.checkpointing.maxFileSize': harmless,
  'general.checkpointing.retention.maxAgeDays': harmless,
  'general.checkpointing.retention.maxCount': harmless,
  'tools.core': { effect: 'approvals', noLooser: coreNarrowsOnly },
  'tools.allowed': { effect: 'approvals', noLooser: grantsNoMore() },
  // Lists that add up across layers: a project can only add exclusions.
  'tools.exclude': harmless,
  'tools.discoveryCommand': { effect: 'programs' },
  // Rule lists add up across layers: a project's allow rules would let calls run
  // unasked, so only the person's own stay; ask and deny rules only ever ask or refuse more.
  'permissions.allow': { effect: 'approvals', noLooser: grantsNoMore() },
  'permissions.ask': harmless,
  'permissions.deny': harmless,
  'tools.callCommand': { effect: 'programs' },
  'tools.approvalMode': {
    effect: 'approvals',
    noLooser: noFurtherThan(['plan', 'default', 'auto-edit', 'yolo'], defaults.tools.approvalMode),
  },
  'tools.truncateOutputThreshold': harmless,
  'tools.truncateOutputLines': harmless,
  // Which MCP declarations go with a request; every tool still goes through approval.
  'tools.deferLoading': harmless,
  'tools.shell.allowEnv': { effect: 'environment', noLooser: grantsNoMore() },
  'tools.shell.defaultTimeout': harmless,
  'tools.shell.keepBackgroundProcesses': {
    effect: 'programs',
    noLooser: noFurtherThan([false, true], defaults.tools.shell.keepBackgroundProcesses),
  },
  'tools.shell.sandbox': {
    effect: 'sandbox',
    noLooser: noFurtherThan(['on', 'auto', 'off'], defaults.tools.shell.sandbox),
  },
  // Config reads it from the person's own settings only; a project's false is no looser.
  'tools.shell.parseOnlyAutoApproval': {
    effect: 'approvals',
    noLooser: noFurtherThan([false, true], defaults.tools.shell.parseOnlyAutoApproval),
  },
  'tools.shell.network': {
    effect: 'network',
    noLooser: noFurtherThan(['deny', 'allow'], defaults.tools.shell.network),
  },
  'tools.webFetch.allowedHosts': { effect: 'hosts', noLooser: grantsNoMore() },
  'files.defaultEncoding': harmless,
  'files.legacyEncoding': harmless,
  'mcp.serverCommand': { effect: 'programs' },
  'mcp.allowed': { effect: 'programs', noLooser: narrowsOnly },
  'mcp.excluded': harmless,
  mcpServers: { effect: 'programs' },
  'context.fileName': {
    effect: 'prompt files',
    noLooser: grantsNoMore(defaults.context.fileName),
  },
  // Folders the tools may read unasked and change: only those the person already added.
  'context.includeDirectories': { effect: 'folders', noLooser: grantsNoMore() },
  'context.loadFromIncludeDirectories': {
    effect: 'prompt files',
    noLooser: noFurtherThan([false, true], defaults.context.loadFromIncludeDirectories),
  },
  // A project decides its own ignore files anyway: these only say which of them count.
  'context.fileFiltering.respectGitIgnore': harmless,
  'context.fileFiltering.respectQwenIgnore': harmless,
  'context.fileFiltering.customIgnoreFiles': harmless,
  'context.fileFiltering.enableRecursiveFileSearch': harmless,
  // The family decides which of the person's keys goes with the request.
  'model.provider': { effect: 'endpoints' },
  'model.name': harmless,
  'model.baseUrl': { effect: 'endpoints' },
  'model.apiKey': { effect: 'endpoints' },
  'model.contextWindow': harmless,
  'model.maxOutputTokens': harmless,
  'model.thinking': harmless,
  'model.timeout': harmless,
  'model.maxRetries': harmless,
  'model.modalities': harmless,
  'model.maxSessionTurns': harmless,
  'model.maxToolCalls': harmless,
  'model.maxWallTimeSeconds': harmless,
  'model.maxSubagentDepth': harmless,
  // Addresses and the variables keys are read from: a project's would send any variable anywhere.
  modelProviders: { effect: 'endpoints' },
  providerProtocol: { effect: 'endpoints' },
  'webSearch.provider': { effect: 'endpoints' },
  'webSearch.baseUrl': { effect: 'endpoints' },
  'webSearch.searchEngineId': { effect: 'endpoints' },
  // Hooks start programs; turning them all off would drop the person's own guard hooks.
  ...Object.fromEntries(HOOK_EVENTS.map((event) => [`hooks.${event}`, startsPrograms])),
  disableAllHooks: { effect: 'approvals' },
  'security.folderTrust.enabled': {
    effect: 'trust',
    noLooser: noFurtherThan([true, false], defaults.security.folderTrust.enabled),
  },
  'security.auth.selectedType': { effect: 'endpoints' },
  'ui.theme': harmless,
};

/** Whether some rule is named below `prefix` (so an object there is walked, not dropped whole). */
export function hasRulesBelow(prefix: string): boolean {
  return Object.keys(SETTING_RULES).some((key) => key.startsWith(`${prefix}.`));
}
