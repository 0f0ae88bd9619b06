/**
 * @toolhost/core/mcp-server: toolhost as an MCP server over stdio or streamable HTTP (the HTTP transport loaded on demand), without the MCP client side, which `toolhost mcp` loads only to proxy configured servers.
 */
export * from '../mcp/mcp-server.js';
export * from '../mcp/mcp-transports.js';
export * from '../mcp/stdio-transport.js';
export * from '../mcp/workspace-offerings.js';
