/**
 * This folder is what toolhost's MCP client stands on: ../mcp-client.ts connects to the
 * configured servers and keeps them alive, ../mcp-tool.ts runs one server's tool, and the
 * files here do the rest for them: the SDK client they connect with and its answers to a
 * server's requests (this file, with elicitation.ts and elicitation-url.ts for questions
 * and links put to the person), the transports (transport.ts), OAuth and signing in
 * (oauth.ts, oauth-store.ts, oauth-redirect.ts, sign-in.ts), what a server offers
 * (offerings.ts), tool names (names.ts), the cache of last-known tools (tool-cache.ts),
 * failures in words (errors.ts), progress (progress.ts) and structured content
 * (structured.ts). Nothing here decides when to connect or runs a
 * call on its own; which servers settings ask for is permissions/mcp-servers.ts (rules read
 * `mcp__` names against that list); toolhost as an MCP *server* is src/mcp/, not this folder.
 *
 * This file: the MCP SDK client toolhost connects with, the capabilities it announces and
 * its answers to the requests a server may send (questions for the person, the workspace
 * roots). How and when it connects is ../mcp-client.ts's concern.
 */

import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../config/config.js';
import type { ToolExecutionContext } from '../tools.js';
import { askForServer } from './elicitation.js';
import type { UrlVisits } from './elicitation-url.js';

export interface SdkClientOptions {
  alias: string;
  config: Config;
  /** The server's page visits (elicitation, URL mode). */
  visits: UrlVisits;
  /** How the latest running call asks the person; undefined when no call runs. */
  currentAsker: () => ToolExecutionContext['ask'] | undefined;
}

export function createSdkClient({ alias, config, visits, currentAsker }: SdkClientOptions): Client {
  const client = new Client(
    { name: 'toolhost', version: '0.1.0' },
    {
      capabilities: {
        roots: { listChanged: false },
        // The SDK fills in a form's defaults for omitted fields. Page visits only where a
        // person can be asked: elsewhere servers must not send them.
        elicitation: {
          form: { applyDefaults: true },
          ...(config.urlElicitation ? { url: {} } : {}),
        },
      },
    },
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    request.params.mode === 'url'
      ? visits.ask(currentAsker(), request.params)
      : askForServer(alias, currentAsker(), request.params, extra.signal),
  );
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, async (notification) =>
    visits.complete(notification.params.elicitationId),
  );
  // The workspace roots are what the server may work on.
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: config.workspace.roots.map((root) => ({
      uri: pathToFileURL(root).href,
      name: root,
    })),
  }));
  return client;
}
