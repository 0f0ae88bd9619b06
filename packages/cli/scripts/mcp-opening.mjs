// @ts-check
/**
 * The client's side of an MCP session's opening over stdio, written once for everything
 * outside the SDK that speaks it by hand: the whole-process bench (bench/process.mjs) and
 * the command's tests. `initialize`, then
 * `notifications/initialized`, then `tools/list`: what every MCP client sends first, so
 * the code it runs in `toolhost mcp` is the code a real start runs. Plain JavaScript with
 * types in JSDoc, so the bench imports it as it is and `npm run typecheck` checks it.
 */

/** @typedef {{ jsonrpc: '2.0', id?: number, method: string, params?: Record<string, unknown> }} JsonRpcMessage */

/**
 * The `initialize` request (id 1) of a client with this name and version.
 * @param {string} name
 * @param {string} [version]
 * @returns {JsonRpcMessage}
 */
export function initializeRequest(name, version = '1') {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version } },
  };
}

/** @type {JsonRpcMessage} */
export const INITIALIZED_NOTIFICATION = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** @type {JsonRpcMessage} */
export const TOOLS_LIST_REQUEST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

/** @param {JsonRpcMessage} message */
const line = (message) => `${JSON.stringify(message)}\n`;

/**
 * The whole opening as the lines of one stdin, for a server run with its input given at
 * once: it answers each in turn, then ends when stdin closes.
 * @param {string} clientName
 * @returns {string}
 */
export function openingLines(clientName) {
  return [initializeRequest(clientName), INITIALIZED_NOTIFICATION, TOOLS_LIST_REQUEST]
    .map(line)
    .join('');
}

/**
 * Speaks the opening with a running server as a client does: `initialize`, and after its
 * answer the notification and `tools/list`. Resolves with the tools listed; rejects if
 * the server lists none, fails to start, or exits first. The caller stops the server.
 * @param {import('node:child_process').ChildProcessByStdio<import('node:stream').Writable, import('node:stream').Readable, any>} child
 * @param {string} clientName
 * @param {string} [clientVersion]
 * @returns {Promise<unknown[]>}
 */
export function listToolsOverStdio(child, clientName, clientVersion) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    /** @param {JsonRpcMessage} message */
    const send = (message) => child.stdin.write(line(message));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (/** @type {string} */ chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          send(INITIALIZED_NOTIFICATION);
          send(TOOLS_LIST_REQUEST);
        } else if (message.id === 2) {
          const tools = message.result?.tools;
          if (Array.isArray(tools) && tools.length > 0) resolve(tools);
          else reject(new Error(`no tools listed: ${JSON.stringify(message)}`));
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      reject(new Error(`the server exited (${code ?? signal}) before it listed its tools`)),
    );
    send(initializeRequest(clientName, clientVersion));
  });
}
