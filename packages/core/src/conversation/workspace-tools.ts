/**
 * The tools of a workspace, under a conversation or a one-call command: settings loaded for the
 * workspace, their problems as warnings, the registry with tool discovery started in the
 * background (built-in tools usable at once), and one way to end it that also runs when
 * the process is stopped by a signal. Kept light: a command that runs one tool loads that
 * tool's module alone.
 */
import { Config } from '../config/config.js';
import { formatSettingsWarning } from '../config/settings.js';
import type { ApprovalMode, Settings } from '../contract/settings-types.js';
import { pathRuleWarnings } from '../permissions/call-rules.js';
import { malformedEntries } from '../permissions/permission-rules.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { addTerminationCleanup } from '../utils/termination.js';
import { visibleText } from '../utils/visible-text.js';

export interface WorkspaceToolsOptions {
  root?: string;
  includeDirectories?: string[];
  approvalMode?: ApprovalMode;
  /** Settings above every file: the highest layer. */
  settings?: Settings;
  sessionId?: string;
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
  systemSettingsPath?: string;
  /** A person answers the questions asked here: MCP servers may ask them to visit a page. */
  urlElicitation?: boolean;
  /** The one built-in tool that will run: the others load when needed. */
  onlyTool?: string;
}

export interface WorkspaceTools {
  config: Config;
  registry: ToolRegistry;
  /** The settings problems found while opening, shown escaped. */
  warnings: string[];
  /** MCP servers closed, background commands ended (unless settings keep them). */
  close(): Promise<void>;
}

/** Opens the workspace's tools; throws WorkspaceError for a workspace that cannot be used. */
export async function openWorkspaceTools(options: WorkspaceToolsOptions): Promise<WorkspaceTools> {
  const { config, settings } = Config.load({
    root: options.root,
    includeDirectories: options.includeDirectories,
    approvalMode: options.approvalMode,
    ...(options.settings ? { overrides: options.settings } : {}),
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    ...(options.homeDir ? { homeDir: options.homeDir } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.systemSettingsPath ? { systemSettingsPath: options.systemSettingsPath } : {}),
  });
  // A project's settings file may name keys with control characters: shown escaped.
  const warnings = settings.warnings.map((warning) =>
    visibleText(formatSettingsWarning(warning), { multiline: true }),
  );
  for (const entry of malformedEntries(settings.merged))
    warnings.push(
      visibleText(
        `permissions: "${entry}" is not a rule (write Tool or Tool(specifier), e.g. Bash(git diff:*)); it was ignored.`,
      ),
    );
  // A path rule that cannot be read as written is named, with what it does instead.
  for (const line of pathRuleWarnings(config)) warnings.push(visibleText(line));
  // Before discovery: servers learn at connection whether page visits can be asked for.
  config.urlElicitation = Boolean(options.urlElicitation);
  // Built-in tools' modules are imported here, not at the top: a command that calls one
  // tool loads that tool's module alone (see tools/builtin-lazy.ts).
  const registry =
    options.onlyTool === undefined
      ? (await import('../tools/builtin.js')).createToolRegistry(config)
      : await (await import('../tools/builtin-lazy.js')).createToolRegistryFor(
          config,
          options.onlyTool,
        );
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      forget();
      await registry.closeMcpServers();
      await config.dispose();
    })();
    return closing;
  };
  // Stopped by a signal: MCP servers closed and background commands ended like a normal exit.
  const forget = addTerminationCleanup(close);
  registry.startDiscovery();
  return { config, registry, warnings, close };
}
