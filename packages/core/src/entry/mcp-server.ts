/**
 * @toolhost/core/mcp-server: toolhost as an MCP server on stdio (`serveMcpOverStdio` answers a client's opening before the MCP SDK loads) and how its tools are listed; the SDK-based server itself (`createToolhostMcpServer`, the HTTP transport, the offerings) is in `@toolhost/core/mcp`.
 */
export type { ToolhostMcpServerOptions } from '../mcp/mcp-server.js';
export { OFFERING_CAPABILITIES } from '../mcp/server-identity.js';
export * from '../mcp/stdio-opening.js';
export * from '../mcp/tool-listing.js';
export type { OfferedPrompt, PromptSource, RenderedPrompt } from '../mcp/workspace-offerings.js';
