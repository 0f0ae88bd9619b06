/**
 * An editor as the ACP tests play it: `toolhost --acp` started as a subprocess and the
 * ACP SDK's client side on its standard input and output, recording what the agent sends
 * (updates, permission requests, buffer reads, file writes, elicitation questions) and
 * answering with what the test chose.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import { CLI } from '../run-cli.js';

export type PermissionAnswer = (
  request: RequestPermissionRequest,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>;

export interface EditorOptions {
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  answer?: PermissionAnswer | undefined;
  /** Open files' text, offered through fs/read_text_file. */
  buffers?: Map<string, string> | undefined;
  /** Offers fs/write_text_file: the writes are recorded. */
  writes?: boolean;
  /** Offers form elicitation and answers each question with this. */
  elicitation?: (request: CreateElicitationRequest) => CreateElicitationResponse;
  flags?: string[];
}

export interface Editor {
  connection: ClientConnection;
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  /** The paths the agent asked the editor's buffers for. */
  bufferReads: string[];
  /** What the agent asked the editor to write. */
  writes: WriteTextFileRequest[];
  questions: CreateElicitationRequest[];
  options: EditorOptions;
  child: ChildProcess;
  stderr(): string;
  /** Closes the agent's standard input and waits for it to exit. */
  close(): Promise<number | null>;
}

export function startEditor(options: EditorOptions): Editor {
  const child = spawn(CLI, ['--acp', ...(options.flags ?? [])], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH,
      HOME: options.home,
      TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(options.home, 'no-system-settings.json'),
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const asked: string[] = [];
  const writes: WriteTextFileRequest[] = [];
  const questions: CreateElicitationRequest[] = [];
  const app = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      return options.answer ? options.answer(params) : { outcome: { outcome: 'cancelled' } };
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      asked.push(params.path);
      const text = options.buffers?.get(params.path);
      if (text === undefined) throw new Error(`no buffer for ${params.path}`);
      return { content: text };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      writes.push(params);
      return {};
    })
    .onRequest('elicitation/create', ({ params }) => {
      questions.push(params);
      if (!options.elicitation) throw new Error('this editor asks no questions');
      return options.elicitation(params);
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    ),
  );
  return {
    connection,
    updates,
    permissions,
    bufferReads: asked,
    writes,
    questions,
    options,
    child,
    stderr: () => stderr,
    close: async () => {
      child.stdin?.end();
      return exited;
    },
  };
}

export async function initialize(editor: Editor) {
  const { buffers, writes, elicitation } = editor.options;
  return editor.connection.agent.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {
      fs: { readTextFile: buffers !== undefined, writeTextFile: writes === true },
      terminal: false,
      ...(elicitation ? { elicitation: { form: {} } } : {}),
    },
    clientInfo: { name: 'test-editor', version: '1.0.0' },
  });
}

export async function newSession(editor: Editor) {
  await initialize(editor);
  return editor.connection.agent.request('session/new', {
    cwd: editor.options.cwd,
    mcpServers: [],
  });
}

export const prompt = (editor: Editor, sessionId: string, text: string) =>
  editor.connection.agent.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text }],
  });

export function textOf(editor: Editor, kind: string): string {
  return editor.updates
    .map((notification) => notification.update)
    .filter((update) => update.sessionUpdate === kind)
    .map((update) =>
      'content' in update && update.content && 'text' in update.content ? update.content.text : '',
    )
    .join('');
}

export const updatesOf = (editor: Editor, kind: string) =>
  editor.updates.map((notification) => notification.update).filter((u) => u.sessionUpdate === kind);

export const pick =
  (kind: 'allow_once' | 'reject_once'): PermissionAnswer =>
  (request) => {
    const option = request.options.find((candidate) => candidate.kind === kind);
    return { outcome: { outcome: 'selected', optionId: option!.optionId } };
  };
