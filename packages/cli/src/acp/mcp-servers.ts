/**
 * The MCP servers an editor names in `session/new` and `session/load`, as entries of
 * toolhost's `mcpServers` settings (the highest layer, beside the command-line flags: the
 * editor speaks for the person, so the project's trust does not cut them).
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import type { McpServerSettings } from '@toolhost/core/config';

export function mcpServerSettings(
  servers: readonly McpServer[],
): Record<string, McpServerSettings> {
  const settings: Record<string, McpServerSettings> = {};
  for (const server of servers) {
    if ('command' in server) {
      settings[server.name] = {
        command: server.command,
        args: [...server.args],
        ...(server.env.length > 0
          ? {
              env: Object.fromEntries(
                server.env.map((variable) => [variable.name, variable.value]),
              ),
            }
          : {}),
      };
      continue;
    }
    const headers =
      server.headers.length > 0
        ? {
            headers: Object.fromEntries(
              server.headers.map((header) => [header.name, header.value]),
            ),
          }
        : {};
    // Streamable HTTP is `httpUrl` in toolhost's settings, SSE is `url`.
    settings[server.name] =
      server.type === 'http'
        ? { httpUrl: server.url, ...headers }
        : { url: server.url, ...headers };
  }
  return settings;
}
