/**
 * The MCP SDK's server transports and request check, for the `toolhost mcp` command: the
 * command reaches the SDK through the core, so an install holds one copy of the SDK (and of
 * its HTTP server stack) instead of one per package.
 */
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
