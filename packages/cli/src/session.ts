/** Builds a core Config from the command-line options shared by every command. */
import { Config } from '@toolhost/core/internal/config/config.js';
import { formatSettingsWarning, loadSettings } from '@toolhost/core/internal/config/settings.js';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  type Settings,
} from '@toolhost/core/internal/config/settings-types.js';
import { pathRuleWarnings } from '@toolhost/core/internal/permissions/call-rules.js';
import { malformedEntries } from '@toolhost/core/internal/permissions/permission-rules.js';
import type { ToolRegistry } from '@toolhost/core/internal/tools/tool-registry.js';
import { addTerminationCleanup } from '@toolhost/core/internal/utils/termination.js';
import { visibleText } from '@toolhost/core/internal/utils/visible-text.js';
import { WorkspaceError } from '@toolhost/core/internal/workspace/workspace-context.js';
import { mcpServersFromFlags } from './commands/mcp-manage/mcp-config-flag.js';
import { UsageError } from './errors.js';
import type { SessionOptions } from './session-options.js';

export { collectDirectories, type SessionOptions } from './session-options.js';

export interface Session {
  config: Config;
  registry: ToolRegistry;
  /** Forgets the session's cleanup on a signal once it has been closed normally. */
  forgetCleanup?: () => void;
  /** The warnings printed while the session opened (settings problems). */
  warnings: string[];
}

export function parseApprovalMode(value: string | undefined): ApprovalMode | undefined {
  if (value === undefined) return undefined;
  if ((APPROVAL_MODES as readonly string[]).includes(value)) return value as ApprovalMode;
  throw new UsageError(
    `--approval-mode must be one of ${APPROVAL_MODES.join(', ')}; got "${value}".`,
  );
}

/**
 * Loads settings, builds the registry and starts discovering tools (command and MCP
 * servers) in the background: built-in tools are usable at once.
 */
export async function openSession(
  options: SessionOptions,
  warn: (line: string) => void,
  /** The one tool this session runs (`toolhost call`): the other built-ins load when needed. */
  onlyTool?: string,
): Promise<Session> {
  const approvalMode = parseApprovalMode(options.approvalMode);
  const overrides = withMcpConfig(options.overrides, mcpServersFromFlags(options.mcpConfig));
  let session: Session;
  try {
    const { config, settings } = Config.load({
      root: options.root,
      includeDirectories: options.includeDirectories,
      approvalMode,
      ...(overrides ? { overrides } : {}),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
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
    for (const warning of warnings) warn(`warning: ${warning}`);
    // Before discovery: servers learn at connection whether page visits can be asked for.
    config.urlElicitation = Boolean(options.urlElicitation);
    // Built-in tools' modules are imported here, not at the top: a session that calls one
    // tool loads that tool's module alone (see tools/builtin-lazy.ts).
    const registry =
      onlyTool === undefined
        ? (await import('@toolhost/core/internal/tools/builtin.js')).createToolRegistry(config)
        : await (
            await import('@toolhost/core/internal/tools/builtin-lazy.js')
          ).createToolRegistryFor(config, onlyTool);
    session = { config, registry, warnings };
    const opened = session;
    // Stopped by a signal: MCP servers closed and background commands ended like a normal exit.
    session.forgetCleanup = addTerminationCleanup(() => closeSession(opened));
  } catch (error) {
    if (error instanceof WorkspaceError) throw new UsageError(error.message);
    throw error;
  }
  session.registry.startDiscovery();
  return session;
}

/** The flags' settings with the servers --mcp-config names added (they win by name). */
function withMcpConfig(
  overrides: Settings | undefined,
  servers: Settings['mcpServers'],
): Settings | undefined {
  if (!servers) return overrides;
  return { ...overrides, mcpServers: { ...overrides?.mcpServers, ...servers } };
}

/**
 * The merged settings of a project, for a command that needs a few of them without a whole
 * session (problems warned about as a session does).
 */
export function projectSettings(projectRoot: string, warn: (line: string) => void): Settings {
  const settings = loadSettings({ workspaceRoot: projectRoot });
  for (const warning of settings.warnings)
    warn(`warning: ${visibleText(formatSettingsWarning(warning), { multiline: true })}`);
  return settings.merged;
}

/** Ends the session: MCP servers closed, background commands ended (unless settings keep them). */
export async function closeSession(session: Session): Promise<void> {
  session.forgetCleanup?.();
  await session.registry.closeMcpServers();
  await session.config.dispose();
}
