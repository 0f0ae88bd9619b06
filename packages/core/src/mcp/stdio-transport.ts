/**
 * The MCP SDK's stdio server transport, for `toolhost mcp` without --http: apart from
 * mcp-transports.ts, whose HTTP transport brings the SDK's HTTP server stack, which a
 * stdio server never uses.
 */
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
