/**
 * @toolhost/core/mcp: MCP: toolhost as an MCP server over stdio, the MCP client side (server list, sign-in, elicitation, prompts and resources).
 */
export * from '../permissions/mcp-servers.js';
export * from '../tools/mcp/elicitation.js';
export * from '../tools/mcp/offerings.js';
export * from '../tools/mcp/sign-in.js';
export * from '../tools/mcp-client.js';
export * from './mcp-server.js';
