/**
 * The workspace's settings and tools, opened from the command-line options the commands
 * share, for the commands that run tools without a conversation (`call`, `tools`, `mcp`).
 */
import {
  APPROVAL_MODES,
  type ApprovalMode,
  formatSettingsWarning,
  loadSettings,
  openWorkspaceTools,
  type Settings,
  WorkspaceError,
  type WorkspaceTools,
} from '@toolhost/core/config';
import { visibleText } from '@toolhost/core/utils';
import { UsageError } from './errors.js';
import { mcpServersFromFlags } from './mcp-config-flag.js';
import type { WorkspaceOptions } from './workspace-options.js';

export type { WorkspaceTools } from '@toolhost/core/config';
export { collectDirectories, type WorkspaceOptions } from './workspace-options.js';

export function parseApprovalMode(value: string | undefined): ApprovalMode | undefined {
  if (value === undefined) return undefined;
  if ((APPROVAL_MODES as readonly string[]).includes(value)) return value as ApprovalMode;
  throw new UsageError(
    `--approval-mode must be one of ${APPROVAL_MODES.join(', ')}; got "${value}".`,
  );
}

/**
 * The core's openWorkspaceTools for the command's options: loads settings, builds the
 * registry and starts discovering tools (command and MCP servers) in the background, so
 * built-in tools are usable at once; settings problems are warned about, a workspace that
 * cannot be used is a usage error.
 */
export async function openWorkspaceToolsFromFlags(
  options: WorkspaceOptions,
  warn: (line: string) => void,
  /** The one tool this run uses (`toolhost call`): the other built-ins load when needed. */
  onlyTool?: string,
): Promise<WorkspaceTools> {
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
 * The merged settings of a project, for a command that needs a few of them without opening
 * the tools (problems warned about as opening does).
 */
export function projectSettings(projectRoot: string, warn: (line: string) => void): Settings {
  const settings = loadSettings({ workspaceRoot: projectRoot });
  for (const warning of settings.warnings)
    warn(`warning: ${visibleText(formatSettingsWarning(warning), { multiline: true })}`);
  return settings.merged;
}

/** Closes them: MCP servers closed, background commands ended (unless settings keep them). */
export async function closeWorkspaceTools(session: WorkspaceTools): Promise<void> {
  await session.close();
}
