/** Builds a core Config from the command-line options shared by every command. */
import type { Config } from '@toolhost/core/config';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  formatSettingsWarning,
  loadSettings,
  openWorkspaceTools,
  type Settings,
  WorkspaceError,
} from '@toolhost/core/config';
import type { ToolRegistry } from '@toolhost/core/tools';
import { visibleText } from '@toolhost/core/utils';
import { mcpServersFromFlags } from './commands/mcp-manage/mcp-config-flag.js';
import { UsageError } from './errors.js';
import type { SessionOptions } from './session-options.js';

export { collectDirectories, type SessionOptions } from './session-options.js';

export interface Session {
  config: Config;
  registry: ToolRegistry;
  /** The warnings printed while the session opened (settings problems). */
  warnings: string[];
  /** MCP servers closed, background commands ended (unless settings keep them). */
  close(): Promise<void>;
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
  const settings = withMcpConfig(options.overrides, mcpServersFromFlags(options.mcpConfig));
  try {
    const opened = await openWorkspaceTools({
      root: options.root,
      includeDirectories: options.includeDirectories ?? [],
      ...(approvalMode ? { approvalMode } : {}),
      ...(settings ? { settings } : {}),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
      urlElicitation: Boolean(options.urlElicitation),
      ...(onlyTool !== undefined ? { onlyTool } : {}),
    });
    for (const warning of opened.warnings) warn(`warning: ${warning}`);
    return {
      config: opened.config,
      registry: opened.registry,
      warnings: opened.warnings,
      close: opened.close,
    };
  } catch (error) {
    if (error instanceof WorkspaceError) throw new UsageError(error.message);
    throw error;
  }
}

/** The flags' settings with the servers --mcp-config names added (they win by name). */
export function withMcpConfig(
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
  await session.close();
}
