/**
 * The MCP SDK's stdio server transport, for `toolhost mcp` without --http (the HTTP one,
 * which brings the SDK's HTTP server stack, loads on demand: mcp-transports.ts).
 */
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
