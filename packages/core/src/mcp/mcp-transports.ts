/**
 * The MCP SDK's HTTP server transport and request check, for `toolhost mcp --http` (the
 * stdio transport is in stdio-transport.ts): the command reaches the SDK through the core,
 * so an install holds one copy of the SDK (and of its HTTP server stack), not one per
 * package. The transport's class is loaded on demand: it brings the SDK's HTTP server
 * stack, which a stdio server, importing the same entry point, never uses.
 */
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export type {
  StreamableHTTPServerTransport,
  StreamableHTTPServerTransportOptions,
} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's streamable HTTP server transport class, imported on first use. */
export async function loadStreamableHttpTransport(): Promise<typeof StreamableHTTPServerTransport> {
  return (await import('@modelcontextprotocol/sdk/server/streamableHttp.js'))
    .StreamableHTTPServerTransport;
}
