/** How MCP failures read: a connection's failure apart from a tool's, time limits, and the SDK's and OAuth's messages in plain words. */

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes } from '../../utils/file-content.js';

/** A call's failure that is the connection's, not the tool's. */
export class McpConnectionError extends Error {}

/**
 * The SDK's error for a stdio message over its read buffer (it ends the connection), as
 * what happened and the setting that raises the limit; undefined for any other error.
 */
export function messageTooLarge(alias: string, error: Error): string | undefined {
  const overflow = /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(error.message);
  if (!overflow) return undefined;
  return `sent a message larger than ${formatBytes(Number(overflow[1]))}, the most toolhost reads from a stdio server, so the connection was ended; raise mcpServers.${alias}.maxMessageBytes (bytes) in settings if its results are that large`;
}

/**
 * While a client starts (before liveness is watched), a message over the read buffer ends
 * the connection and the listing fails only as "Connection closed": what to say instead.
 */
export function noteTooLarge(client: Client, alias: string): () => string | undefined {
  let said: string | undefined;
  client.onerror = (error) => {
    said ??= messageTooLarge(alias, error);
  };
  return () => said;
}

export function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A call that ran out of time: without progress for `timeoutMs`, or past the total limit. */
export function callTimeoutMessage(
  alias: string,
  tool: string,
  timeoutMs: number,
  error: McpError,
): string {
  const data = error.data as { maxTotalTimeout?: number } | undefined;
  const key = `mcpServers.${alias}`;
  if (data?.maxTotalTimeout !== undefined) {
    return `MCP server "${alias}" was still working on ${tool} after ${seconds(data.maxTotalTimeout)} s, the most any call may take; raise ${key}.maxTotalTimeout (milliseconds) in settings if it needs longer.`;
  }
  return `MCP server "${alias}" did not answer ${tool} within ${seconds(timeoutMs)} s and reported no progress meanwhile; raise ${key}.timeout (milliseconds) in settings if the tool needs longer.`;
}

export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The SDK's OAuth errors carry the authorization server's code, and its description only
  // when the server gave one.
  const code = (error as { errorCode?: unknown } | undefined)?.errorCode;
  if (typeof code === 'string')
    return `the authorization server refused toolhost (${code}${message ? `: ${message}` : ''})`;
  return message.replace(/^MCP error -?\d+: /, '');
}
