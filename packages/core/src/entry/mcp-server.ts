/**
 * @toolhost/core/mcp-server: toolhost as an MCP server (the server, its stdio transport, the workspace's resources and prompts), without the MCP client side, which `toolhost mcp` loads only when it proxies configured servers.
 */
export * from '../mcp/mcp-server.js';
export * from '../mcp/stdio-transport.js';
export * from '../mcp/workspace-offerings.js';
