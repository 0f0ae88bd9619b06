/**
 * @toolhost/core/mcp-http: MCP over HTTP: the streamable HTTP server transport (loaded only by a server that listens).
 */
export * from '../mcp/mcp-transports.js';
