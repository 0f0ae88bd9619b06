/** `toolhost mcp remove <name>` and `toolhost mcp list` (each server connected and counted). */
import path from 'node:path';
import type { McpServerSettings } from '@toolhost/core/config';
import { editSettingsFile, readSettingsValue, SettingsEditError } from '@toolhost/core/config';
import { visibleText } from '@toolhost/core/utils';
import { UsageError } from '../../errors.js';
import type { Style } from '../../render.js';
import {
  closeWorkspaceTools,
  openWorkspaceToolsFromFlags,
  type WorkspaceOptions,
} from '../../workspace-tools.js';
import { parseScope, type Scope, scopeFile } from './mcp-add.js';

function serversIn(file: string): Record<string, McpServerSettings> {
  try {
    const servers = readSettingsValue(file, ['mcpServers']);
    return servers && typeof servers === 'object'
      ? (servers as Record<string, McpServerSettings>)
      : {};
  } catch (error) {
    if (error instanceof SettingsEditError) throw new UsageError(error.message);
    throw error;
  }
}

export async function runMcpRemove(
  name: string,
  options: { root?: string; scope?: string },
  stderr: NodeJS.WritableStream,
): Promise<number> {
  const root = path.resolve(options.root ?? process.cwd());
  const scopes: Scope[] = options.scope
    ? [parseScope(options.scope, 'project')]
    : ['project', 'user'];
  const removedFrom: string[] = [];
  for (const scope of scopes) {
    const target = scopeFile(scope, root);
    if (serversIn(target.file)[name] === undefined) continue;
    try {
      await editSettingsFile(target, () => [{ path: ['mcpServers', name], value: undefined }]);
    } catch (error) {
      if (error instanceof SettingsEditError) throw new UsageError(error.message);
      throw error;
    }
    removedFrom.push(`${target.file} (${scope} settings)`);
  }
  if (removedFrom.length === 0) {
    const files = scopes.map((scope) => scopeFile(scope, root).file);
    const known = files.flatMap((file) => Object.keys(serversIn(file)));
    throw new UsageError(
      `no MCP server "${name}" in ${files.join(' or ')}${known.length ? `; these are: ${[...new Set(known)].join(', ')}` : ''}.`,
    );
  }
  for (const where of removedFrom) stderr.write(`Removed MCP server "${name}" from ${where}.\n`);
  return 0;
}

function reach(settings: McpServerSettings): string {
  if (settings.httpUrl) return `${settings.httpUrl} (http)`;
  if (settings.url) return `${settings.url} (sse)`;
  return [settings.command, ...(settings.args ?? [])].join(' ');
}

/** Every server the settings name (and --mcp-config adds), connected: status and tool count. */
export async function runMcpList(
  options: WorkspaceOptions,
  stdout: NodeJS.WritableStream,
  style: Style,
  warn: (line: string) => void,
): Promise<number> {
  const session = await openWorkspaceToolsFromFlags(options, warn);
  try {
    const configured = session.config.settings.mcpServers ?? {};
    await session.registry.whenDiscoveryComplete();
    const servers = session.registry.getMcpServers();
    if (servers.length === 0) {
      stdout.write(
        'No MCP servers are configured. Add one with: toolhost mcp add <name> <command> [args...]\n',
      );
      return 0;
    }
    let failed = 0;
    for (const server of servers) {
      const tools = session.registry.getToolsByServer(server.alias).length;
      const settings = configured[server.alias];
      const how = settings ? ` ${style.dim(visibleText(reach(settings)))}` : '';
      const connected = server.status === 'connected';
      if (!connected) failed++;
      const state = connected
        ? `${style.green('connected')}, ${tools} tool${tools === 1 ? '' : 's'}`
        : `${style.red(server.status)}${server.error ? `: ${visibleText(server.error)}` : ''}`;
      stdout.write(`${visibleText(server.alias)}:${how} - ${state}\n`);
    }
    return failed > 0 ? 1 : 0;
  } finally {
    await closeWorkspaceTools(session);
  }
}
