/** `toolhost mcp auth <server>` and `toolhost mcp logout <server>`: OAuth sign-in and sign-out. */

import type { McpServerSettings } from '@toolhost/core/config';
import { Config } from '@toolhost/core/config';
import { configuredServers, signInToMcpServer, signOutOfMcpServer } from '@toolhost/core/mcp';
import { visibleText } from '@toolhost/core/utils';
import { openInBrowser } from '../browser.js';
import { UsageError } from '../errors.js';
import type { WorkspaceOptions } from '../workspace-options.js';

function findServer(config: Config, alias: string): McpServerSettings {
  const servers = configuredServers(config);
  const found = servers.find(([name]) => name === alias);
  if (!found) {
    const names = servers.map(([name]) => name);
    throw new UsageError(
      `no MCP server is called "${alias}"${names.length ? `; the configured ones are ${names.join(', ')}` : '; none is configured (mcpServers in settings)'}.`,
    );
  }
  return found[1];
}

export async function runMcpAuthCommand(
  alias: string,
  options: WorkspaceOptions & { browser?: boolean },
  stderr: NodeJS.WritableStream,
): Promise<void> {
  const { config } = Config.load({ root: options.root });
  const settings = findServer(config, alias);
  if (!settings.url && !settings.httpUrl)
    throw new UsageError(
      `MCP server "${alias}" is started as a program; only servers reached over HTTP (url or httpUrl) sign in.`,
    );
  if (settings.oauth?.enabled === false)
    throw new UsageError(
      `OAuth is turned off for MCP server "${alias}" (mcpServers.${alias}.oauth.enabled).`,
    );
  const file = await signInToMcpServer(config, alias, settings, {
    openAuthorizationUrl: (url) => {
      stderr.write(`To sign in to MCP server "${alias}", open this page:\n\n  ${url.href}\n\n`);
      if (options.browser !== false) openInBrowser(url.href);
      stderr.write('Waiting for the browser to come back...\n');
    },
  }).catch((error: Error) => {
    // The server's own words may be in it.
    throw new UsageError(visibleText(error.message, { multiline: true }));
  });
  stderr.write(`Signed in to "${alias}". The tokens are kept in ${file} (readable only by you).\n`);
}

export async function runMcpLogoutCommand(
  alias: string,
  options: WorkspaceOptions,
  stderr: NodeJS.WritableStream,
): Promise<void> {
  const { config } = Config.load({ root: options.root });
  const removed = signOutOfMcpServer(config, findServer(config, alias));
  stderr.write(
    removed
      ? `Signed out of "${alias}": its tokens and client registration are deleted.\n`
      : `toolhost kept no sign-in for "${alias}".\n`,
  );
}
