/**
 * `toolhost --acp`: toolhost as an Agent Client Protocol agent for editors (Zed, JetBrains
 * IDEs, Neovim and Emacs plugins), JSON-RPC over standard input and output through
 * `@agentclientprotocol/sdk`. This folder owns the protocol side only: the handshake and
 * capabilities, the sessions an editor opens, loads and prompts (acp-session.ts), and the
 * translations between ACP and toolhost (prompt blocks, tool calls and their updates,
 * permission requests, modes, MCP servers, replayed history). The agent loop, the tools,
 * the sandbox, checkpoints and trust are the same as in the terminal and are not touched
 * here. Standard output carries the protocol alone: everything else goes to stderr.
 */
import { createRequire } from 'node:module';
import { Readable, Writable } from 'node:stream';
import {
  type AuthMethod,
  agent,
  type ClientCapabilities,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
} from '@agentclientprotocol/sdk';
import { loadSettings } from '@toolhost/core/config';
import { HOW_TO_CONFIGURE_MODEL, resolveEndpoint } from '@toolhost/core/conversation';
import { type AgentFlags, settingsFrom } from '../conversation/agent-flags.js';
import { ExitCode } from '../errors.js';
import { type AcpSession, openAcpSession } from './acp-session.js';
import { isApprovalMode, sessionModes } from './session-modes.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

export interface AcpIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** What an editor is told to do when no model is configured. */
const CONFIGURE_MODEL: AuthMethod = {
  id: 'toolhost-model-settings',
  name: 'Configure a model endpoint',
  description: HOW_TO_CONFIGURE_MODEL,
};

/** Serves one editor until it closes standard input; resolves with the exit code. */
export async function runAcp(flags: AgentFlags, io: AcpIo): Promise<number> {
  const warn = (line: string) => io.stderr.write(`toolhost: ${line}\n`);
  // A library that logs to the console must not break the protocol on stdout.
  console.log = console.info = console.debug = console.error;
  const sessions = new Map<string, AcpSession>();
  let editor: ClientCapabilities | undefined;
  const find = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };
  const app = agent({ name: 'toolhost' })
    .onRequest('initialize', ({ params }) => {
      editor = params.clientCapabilities;
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        authMethods: modelConfigured(flags) ? [] : [CONFIGURE_MODEL],
        agentInfo: { name: 'toolhost', title: 'toolhost', version },
      };
    })
    .onRequest('authenticate', () => {
      // toolhost signs in nowhere: a model is configured in settings or the environment.
      if (!modelConfigured(flags))
        throw RequestError.authRequired(undefined, HOW_TO_CONFIGURE_MODEL);
      return {};
    })
    .onRequest('session/new', async ({ params, client }) => {
      const session = await openAcpSession(flags, { ...params, editor }, client, warn);
      sessions.set(session.id, session);
      return { sessionId: session.id, modes: sessionModes(session.approvalMode) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      await sessions.get(params.sessionId)?.close();
      const session = await openAcpSession(
        flags,
        { ...params, editor, loadId: params.sessionId },
        client,
        warn,
      );
      sessions.set(session.id, session);
      await session.replayHistory();
      return { modes: sessionModes(session.approvalMode) };
    })
    .onRequest('session/set_mode', ({ params }) => {
      if (!isApprovalMode(params.modeId)) {
        throw RequestError.invalidParams(
          undefined,
          `"${params.modeId}" is not a mode of toolhost; use plan, default, auto-edit or yolo`,
        );
      }
      find(params.sessionId).setApprovalMode(params.modeId);
      return {};
    })
    .onRequest('session/prompt', ({ params, signal }) =>
      find(params.sessionId).prompt(params.prompt, signal),
    )
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(io.stdout as Writable) as WritableStream<Uint8Array>,
      Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>,
    ),
  );
  await connection.closed;
  await Promise.all([...sessions.values()].map((session) => session.close()));
  return ExitCode.Success;
}

function modelConfigured(flags: AgentFlags): boolean {
  const settings = loadSettings({
    workspaceRoot: flags.root ?? process.cwd(),
    overrides: settingsFrom(flags),
  });
  return resolveEndpoint(settings.merged, settings.untrustedEndpoints) !== undefined;
}
