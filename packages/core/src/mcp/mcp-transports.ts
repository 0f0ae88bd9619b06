/**
 * The MCP SDK's HTTP server transport and request check, for `toolhost mcp --http` (the
 * stdio transport is in stdio-transport.ts): the command reaches the SDK through the core,
 * so an install holds one copy of the SDK (and of its HTTP server stack), not one per package.
 */
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
