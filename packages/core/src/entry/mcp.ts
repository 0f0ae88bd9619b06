/**
 * @toolhost/core/mcp: MCP: toolhost as an MCP server (the SDK's server over stdio or streamable HTTP, and everything of /mcp-server), the MCP client side (server list, sign-in, elicitation, prompts and resources).
 */

export * from '../mcp/mcp-server.js';
export * from '../mcp/mcp-transports.js';
export * from '../mcp/stdio-transport.js';
export * from '../mcp/workspace-offerings.js';
export * from '../permissions/mcp-servers.js';
export * from '../tools/mcp/elicitation.js';
export * from '../tools/mcp/offerings.js';
export * from '../tools/mcp/sign-in.js';
export * from '../tools/mcp-client.js';
export * from './mcp-server.js';
