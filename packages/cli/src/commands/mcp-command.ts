/**
 * `toolhost mcp`: serves the tools over MCP, on stdio (the default) or on streamable HTTP
 * as a service for many clients (see mcp/http-service.ts), bound to 127.0.0.1 unless
 * --host names another address (a container's, behind a router).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { serveMcpOverStdio } from '@toolhost/core/mcp-server';
import { exitCleanlyOnSignals } from '@toolhost/core/utils';
import { UsageError } from '../errors.js';
import type { WorkspaceTools } from '../workspace-tools.js';
import { commandPrompts } from './mcp/command-prompts.js';

export interface McpCommandOptions {
  http?: string | boolean;
  /** The address --http listens on. */
  host?: string;
  /** Comma-separated names Host and Origin headers may carry besides the local ones. */
  allowedHosts?: string;
  token?: string;
  /** A file holding the token (a mounted secret). */
  tokenFile?: string;
  /** Seconds a session may stay idle before it ends. */
  sessionIdleTimeout?: string;
  maxSessions?: string;
  maxSessionsPerClient?: string;
  /** Seconds between keep-alive comments and liveness pings on open streams. */
  keepAlive?: string;
  /** Seconds running calls get to finish after a stop signal. */
  shutdownGrace?: string;
  logJson?: boolean;
}

const DEFAULT_IDLE_TIMEOUT_S = 30 * 60;
const DEFAULT_MAX_SESSIONS = 100;
const DEFAULT_KEEP_ALIVE_S = 15;
const DEFAULT_SHUTDOWN_GRACE_S = 10;

export async function runMcpCommand(
  session: WorkspaceTools,
  options: McpCommandOptions,
  stderr: NodeJS.WriteStream,
  version: string,
): Promise<number> {
  // Ctrl+C ends the server like TERM and HUP do: every running command ended first.
  const removeHandlers = exitCleanlyOnSignals({ signals: ['SIGINT'] });
  try {
    return await serve(session, options, stderr, version);
  } finally {
    removeHandlers();
  }
}

async function serve(
  session: WorkspaceTools,
  options: McpCommandOptions,
  stderr: NodeJS.WriteStream,
  version: string,
): Promise<number> {
  const serverOptions = {
    version,
    warnings: session.warnings,
    prompts: commandPrompts(session.config),
  };
  if (options.http === undefined || options.http === false) {
    // A person who starts it in a terminal would otherwise see nothing and think it hung.
    if (process.stdin.isTTY)
      stderr.write(
        `toolhost mcp: serving toolhost's tools over stdio for ${session.config.targetDir}; MCP clients start this command themselves (Ctrl+C stops it).\n`,
      );
    // It answers the opening itself; the MCP SDK loads with the first other request.
    await serveMcpOverStdio(session.config, session.registry, serverOptions);
    return 0;
  }
  const port = options.http === true ? 0 : Number(options.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(
      `--http takes a port number from 0 to 65535 (0 picks a free one); got "${String(options.http)}".`,
    );
  }
  const host = options.host ?? '127.0.0.1';
  if (isIP(host) === 0 && host !== 'localhost')
    throw new UsageError(
      `--host takes an IP address to listen on (127.0.0.1, 0.0.0.0, ::); got "${host}".`,
    );
  const chosenToken = chosenTokenOf(options);
  // Like the HTTP service itself, its checks load only for --http.
  const { allowedHostProblem, isLoopback } = await import('./mcp/allowed-hosts.js');
  // Reached from other machines, a token printed at start would end up in logs others read.
  if (!isLoopback(host) && !chosenToken)
    throw new UsageError(
      `--host ${host} serves beyond this machine: choose the bearer token yourself with $TOOLHOST_MCP_TOKEN (from a secret) or --token.`,
    );
  const allowedHosts = (options.allowedHosts ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const badHost = allowedHosts.map(allowedHostProblem).find(Boolean);
  if (badHost) throw new UsageError(badHost);
  const token = chosenToken ?? randomBytes(24).toString('hex');
  // The HTTP service (and the SDK's HTTP stack) loads only for --http.
  const [{ serveHttp }, { createToolhostMcpServer }] = await Promise.all([
    import('./mcp/http-service.js'),
    import('@toolhost/core/mcp'),
  ]);
  return serveHttp(
    (stopSignal) =>
      createToolhostMcpServer(session.config, session.registry, { ...serverOptions, stopSignal }),
    {
      port,
      host,
      allowedHosts,
      token,
      printToken: chosenToken === undefined,
      idleTimeoutMs:
        numberFlag('--session-idle-timeout', options.sessionIdleTimeout, DEFAULT_IDLE_TIMEOUT_S) *
        1000,
      maxSessions: numberFlag('--max-sessions', options.maxSessions, DEFAULT_MAX_SESSIONS, {
        integer: true,
      }),
      maxSessionsPerClient: numberFlag(
        '--max-sessions-per-client',
        options.maxSessionsPerClient,
        0,
        { integer: true, zeroAllowed: true },
      ),
      keepAliveMs: numberFlag('--keep-alive', options.keepAlive, DEFAULT_KEEP_ALIVE_S) * 1000,
      shutdownGraceMs:
        numberFlag('--shutdown-grace', options.shutdownGrace, DEFAULT_SHUTDOWN_GRACE_S, {
          zeroAllowed: true,
        }) * 1000,
      logJson: options.logJson === true,
    },
    stderr,
  );
}

/**
 * The token the person chose (--token, --token-file or $TOOLHOST_MCP_TOKEN), checked: a
 * client can send only visible ASCII without spaces in its Authorization header.
 */
function chosenTokenOf(options: McpCommandOptions): string | undefined {
  if (options.token !== undefined && options.tokenFile !== undefined)
    throw new UsageError('--token and --token-file both give the bearer token; pass only one.');
  let token = options.token;
  let source = '--token';
  if (options.tokenFile !== undefined) {
    source = `the token file ${options.tokenFile}`;
    try {
      // A file written with echo or a secret mount ends in a newline that is not the token's.
      token = readFileSync(options.tokenFile, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT'
          ? 'it does not exist'
          : code === 'EACCES'
            ? 'toolhost may not read it'
            : code === 'EISDIR'
              ? 'it is a folder'
              : (error as Error).message;
      throw new UsageError(
        `--token-file ${options.tokenFile} cannot be read (${why}); give a file that holds the bearer token.`,
      );
    }
  } else if (token === undefined && process.env.TOOLHOST_MCP_TOKEN !== undefined) {
    token = process.env.TOOLHOST_MCP_TOKEN;
    source = '$TOOLHOST_MCP_TOKEN';
  }
  if (token === undefined) return undefined;
  if (token === '')
    throw new UsageError(`${source} is empty; a bearer token needs at least one character.`);
  if (!/^[\x21-\x7e]+$/.test(token))
    throw new UsageError(
      `${source} holds characters a client cannot send in its Authorization header (spaces, line breaks, control or non-ASCII characters); use letters, digits and punctuation only (e.g. openssl rand -hex 24).`,
    );
  return token;
}

/** A number flag's value: at least `min` (above 0 when min is 0 and zero is not allowed). */
function numberFlag(
  flag: string,
  given: string | undefined,
  fallback: number,
  rule: { zeroAllowed?: boolean; integer?: boolean } = {},
): number {
  if (given === undefined) return fallback;
  const value = Number(given);
  const fits =
    Number.isFinite(value) &&
    (rule.zeroAllowed ? value >= 0 : value > 0) &&
    (!rule.integer || Number.isInteger(value));
  if (!fits)
    throw new UsageError(
      `${flag} takes ${rule.integer ? 'a whole number' : 'a number'} ${rule.zeroAllowed ? 'of 0 or more' : 'above 0'}; got "${given}".`,
    );
  return value;
}
