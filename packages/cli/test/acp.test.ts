/**
 * `toolhost --acp` driven as an editor drives it: the installed command started as a
 * subprocess, the ACP SDK's client side on its standard input and output, the scripted
 * model server behind it. Every effect is checked where it lands: the text the editor
 * receives, the file written (or not), the process that ends, what reaches the model.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../core/test/helpers/mcp-servers.js';
import {
  type ModelServer,
  type Script,
  startModelServer,
} from '../../core/test/helpers/model-server.js';
import {
  killMatching,
  processesMatching,
  uniqueSleep,
  waitUntil,
} from '../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import {
  type Editor,
  initialize,
  newSession,
  type PermissionAnswer,
  pick,
  prompt,
  startEditor as startAcpEditor,
  textOf,
  updatesOf,
} from './helpers/acp-editor.js';
import { runCli } from './run-cli.js';

let dirs: TempDirs;
let root: string;
let server: ModelServer | undefined;
const editors: Editor[] = [];

beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
  root = dirs.root;
});
afterEach(async () => {
  for (const editor of editors.splice(0)) {
    if (editor.child.exitCode === null) editor.child.kill('SIGKILL');
  }
  await server?.close();
  server = undefined;
  dirs.cleanup();
});

async function modelEnv(script: Script): Promise<NodeJS.ProcessEnv> {
  server ??= await startModelServer(script);
  return {
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODEL: 'scripted-model',
  };
}

/**
 * Starts `toolhost --acp` and connects to it as an editor (answering permissions with
 * `answer`; with `buffers`, offering its open files' text through fs/read_text_file).
 */
function startEditor(
  env: NodeJS.ProcessEnv,
  answer?: PermissionAnswer,
  buffers?: Map<string, string>,
  flags: string[] = [],
): Editor {
  const editor = startAcpEditor({ cwd: root, home: dirs.home, env, answer, buffers, flags });
  editors.push(editor);
  return editor;
}

// Each test starts the command (some twice); a loaded machine needs time.
describe('toolhost --acp (an editor over the Agent Client Protocol)', { timeout: 150_000 }, () => {
  it('initialize, a new session in the editor folder, a prompt answered in streamed chunks', async () => {
    const env = await modelEnv([
      { reasoning: 'The person greets me.', text: 'Hello from toolhost, streamed in pieces.' },
    ]);
    const editor = startEditor(env);
    const init = await initialize(editor);
    expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
    });
    expect(init.authMethods).toEqual([]);
    const session = await editor.connection.agent.request('session/new', {
      cwd: root,
      mcpServers: [],
    });
    expect(session.modes?.currentModeId).toBe('default');
    expect(session.modes?.availableModes.map((mode) => mode.id)).toEqual([
      'plan',
      'default',
      'auto-edit',
      'yolo',
    ]);
    const answer = await prompt(editor, session.sessionId, 'Say hello.');
    expect(answer.stopReason).toBe('end_turn');
    expect(textOf(editor, 'agent_message_chunk')).toBe('Hello from toolhost, streamed in pieces.');
    expect(updatesOf(editor, 'agent_message_chunk').length).toBeGreaterThan(1);
    expect(textOf(editor, 'agent_thought_chunk')).toBe('The person greets me.');
    // The session works in the editor's folder: the model is told so.
    expect(String(server!.requests[0]!.body.messages[0]!.content)).toContain(root);
    expect(await editor.close()).toBe(0);
  });

  it('a prompt of text, a link to a file, an embedded resource and an image reaches the model whole', async () => {
    writeFileSync(path.join(root, 'linked notes.txt'), 'the linked file says plover\n');
    const pixel = readFileSync(
      path.resolve(import.meta.dirname, '../../core/test/fixtures/pixel.png'),
    ).toString('base64');
    const env = await modelEnv([{ text: 'Seen.' }]);
    const editor = startEditor(env);
    const { sessionId } = await newSession(editor);
    const answer = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'Compare' },
        {
          type: 'resource_link',
          name: 'linked notes.txt',
          uri: pathToFileURL(path.join(root, 'linked notes.txt')).href,
        },
        { type: 'text', text: 'with the buffer' },
        {
          type: 'resource',
          resource: { uri: 'file:///unsaved/buffer.ts', text: 'const unsaved = "kestrel";' },
        },
        { type: 'image', mimeType: 'image/png', data: pixel },
      ],
    });
    expect(answer.stopReason).toBe('end_turn');
    const sent = server!.requests[0]!.body.messages.at(-1)! as {
      content: Array<{ type: string; text?: string; image_url?: { url: string } }>;
    };
    const texts = sent.content
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('\n');
    expect(texts).toContain('Compare @linked\\ notes.txt with the buffer');
    expect(texts).toContain('the linked file says plover');
    expect(texts).toContain('const unsaved = "kestrel";');
    const image = sent.content.find((part) => part.type === 'image_url');
    expect(image?.image_url?.url).toBe(`data:image/png;base64,${pixel}`);
  });

  it('a change asks through session/request_permission: allowed once, the file is written and its diff shown', async () => {
    const canary = path.join(root, 'canary.txt');
    const env = await modelEnv([
      {
        toolCalls: [
          {
            id: 'call_plan',
            name: 'todo_write',
            args: { todos: [{ id: '1', content: 'Write the canary', status: 'in_progress' }] },
          },
        ],
      },
      {
        toolCalls: [
          { id: 'call_write', name: 'write_file', args: { file_path: canary, content: 'tweet\n' } },
        ],
      },
      { text: 'Written.' },
    ]);
    const editor = startEditor(env, pick('allow_once'));
    const { sessionId } = await newSession(editor);
    const answer = await prompt(editor, sessionId, 'Write the canary.');
    expect(answer.stopReason).toBe('end_turn');
    expect(readFileSync(canary, 'utf8')).toBe('tweet\n');
    // Asked once, with the answers the terminal offers.
    expect(editor.permissions).toHaveLength(1);
    const asked = editor.permissions[0]!;
    expect(asked.toolCall).toMatchObject({ toolCallId: 'call_write', kind: 'edit' });
    expect(asked.toolCall.content?.[0]).toMatchObject({
      type: 'diff',
      path: canary,
      newText: 'tweet\n',
    });
    expect(asked.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'allow_always',
      'allow_always',
      'reject_once',
    ]);
    expect(asked.options[2]).toMatchObject({
      optionId: 'save-user',
      name: `Yes, and always allow Edit(/${root}/**) (saved in your settings)`,
    });
    const started = updatesOf(editor, 'tool_call').find(
      (update) => 'toolCallId' in update && update.toolCallId === 'call_write',
    );
    expect(started).toMatchObject({
      kind: 'edit',
      status: 'pending',
      locations: [{ path: canary }],
      rawInput: { file_path: canary, content: 'tweet\n' },
    });
    const finished = updatesOf(editor, 'tool_call_update').filter(
      (update) => 'toolCallId' in update && update.toolCallId === 'call_write',
    );
    expect(finished.map((update) => 'status' in update && update.status)).toEqual([
      'in_progress',
      'completed',
    ]);
    expect(finished.at(-1)).toMatchObject({
      content: [{ type: 'diff', path: canary, newText: 'tweet\n' }],
    });
    // todo_write's list is the session's plan.
    expect(updatesOf(editor, 'plan')).toEqual([
      {
        sessionUpdate: 'plan',
        entries: [{ content: 'Write the canary', priority: 'medium', status: 'in_progress' }],
      },
    ]);
  });

  it('an "always" answer saved as a rule is written to the user settings', async () => {
    const canary = path.join(root, 'canary.txt');
    const env = await modelEnv([
      {
        toolCalls: [
          { id: 'call_write', name: 'write_file', args: { file_path: canary, content: 'x' } },
        ],
      },
      { text: 'Written.' },
    ]);
    const editor = startEditor(env, (request) => {
      const option = request.options.find((candidate) => candidate.optionId === 'save-user');
      return { outcome: { outcome: 'selected', optionId: option!.optionId } };
    });
    const { sessionId } = await newSession(editor);
    await prompt(editor, sessionId, 'Write the canary.');
    expect(readFileSync(canary, 'utf8')).toBe('x');
    const settings = JSON.parse(
      readFileSync(path.join(dirs.home, '.toolhost', 'settings.json'), 'utf8'),
    );
    expect(settings.permissions.allow).toEqual([`Edit(/${root}/**)`]);
  });

  it('a change the editor rejects is not made, and the call ends failed', async () => {
    const canary = path.join(root, 'canary.txt');
    const env = await modelEnv([
      {
        toolCalls: [
          { id: 'call_write', name: 'write_file', args: { file_path: canary, content: 'x' } },
        ],
      },
      { text: 'I was not allowed.' },
    ]);
    const editor = startEditor(env, pick('reject_once'));
    const { sessionId } = await newSession(editor);
    const answer = await prompt(editor, sessionId, 'Write the canary.');
    expect(answer.stopReason).toBe('end_turn');
    expect(editor.permissions).toHaveLength(1);
    expect(existsSync(canary)).toBe(false);
    const last = updatesOf(editor, 'tool_call_update').at(-1);
    expect(last).toMatchObject({ toolCallId: 'call_write', status: 'failed' });
  });

  it('session/cancel while the editor has not answered a permission request: the call does not run', async () => {
    const canary = path.join(root, 'canary.txt');
    const env = await modelEnv([
      {
        toolCalls: [
          { id: 'call_write', name: 'write_file', args: { file_path: canary, content: 'x' } },
        ],
      },
      { text: 'should not be asked for' },
    ]);
    // An editor that shows the question and never answers it.
    const editor = startEditor(env, () => new Promise(() => undefined));
    const { sessionId } = await newSession(editor);
    const answer = prompt(editor, sessionId, 'Write the canary.');
    expect(await waitUntil(() => editor.permissions.length > 0, 60_000)).toBe(true);
    await editor.connection.agent.notify('session/cancel', { sessionId });
    expect((await answer).stopReason).toBe('cancelled');
    expect(existsSync(canary)).toBe(false);
    expect(server!.requests).toHaveLength(1);
  });

  it('yolo set as the session mode runs a command unasked; session/cancel ends it and the prompt stops cancelled', async () => {
    const seconds = uniqueSleep();
    try {
      const env = await modelEnv([
        {
          toolCalls: [
            {
              id: 'call_sleep',
              name: 'run_shell_command',
              args: { command: `echo warming up && sleep ${seconds}`, is_background: false },
            },
          ],
        },
        { text: 'should not be asked for' },
      ]);
      const editor = startEditor(env);
      const { sessionId } = await newSession(editor);
      await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
      // The mode menu follows a change of mode, however it came (exit_plan_mode too).
      expect(await waitUntil(() => updatesOf(editor, 'current_mode_update').length > 0)).toBe(true);
      expect(updatesOf(editor, 'current_mode_update')).toEqual([
        { sessionUpdate: 'current_mode_update', currentModeId: 'yolo' },
      ]);
      const answer = prompt(editor, sessionId, 'Wait a long time.');
      const started = await waitUntil(
        () => processesMatching(`sleep ${seconds}`).length > 0,
        90_000,
      );
      expect(started, editor.stderr()).toBe(true);
      expect(editor.permissions).toEqual([]);
      // The running command's output reaches the editor as it comes.
      const streamed = await waitUntil(() =>
        updatesOf(editor, 'tool_call_update').some(
          (update) => 'content' in update && JSON.stringify(update.content).includes('warming up'),
        ),
      );
      expect(streamed).toBe(true);
      await editor.connection.agent.notify('session/cancel', { sessionId });
      expect((await answer).stopReason).toBe('cancelled');
      expect(processesMatching(`sleep ${seconds}`)).toEqual([]);
      expect(updatesOf(editor, 'tool_call_update').at(-1)).toMatchObject({
        toolCallId: 'call_sleep',
        status: 'failed',
      });
      expect(server!.requests).toHaveLength(1);
    } finally {
      killMatching(`sleep ${seconds}`);
    }
  });

  it('session/load replays a saved session and continues it', async () => {
    writeFileSync(path.join(root, 'word.txt'), 'plover\n');
    const env = await modelEnv([
      {
        toolCalls: [
          {
            id: 'call_read',
            name: 'read_file',
            args: { absolute_path: path.join(root, 'word.txt') },
          },
        ],
      },
      { text: 'The word is plover.' },
      { text: 'Still plover.' },
    ]);
    const first = startEditor(env);
    const { sessionId } = await newSession(first);
    await prompt(first, sessionId, 'Remember the word plover.');
    expect(await first.close()).toBe(0);

    const second = startEditor(env);
    await initialize(second);
    const loaded = await second.connection.agent.request('session/load', {
      sessionId,
      cwd: root,
      mcpServers: [],
    });
    expect(loaded.modes?.currentModeId).toBe('default');
    expect(textOf(second, 'user_message_chunk')).toBe('Remember the word plover.');
    expect(textOf(second, 'agent_message_chunk')).toBe('The word is plover.');
    expect(updatesOf(second, 'tool_call')).toMatchObject([
      {
        toolCallId: 'call_read',
        kind: 'read',
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'plover\n' } }],
      },
    ]);
    const answer = await prompt(second, sessionId, 'What was the word?');
    expect(answer.stopReason).toBe('end_turn');
    const messages = server!.requests[2]!.body.messages.map((message) => message.content);
    expect(messages).toContain('Remember the word plover.');
    expect(messages).toContain('The word is plover.');
  });

  it("the editor's MCP server (stdio) is started for the session and its tool asked about and run", async () => {
    const env = await modelEnv([
      { toolCalls: [{ id: 'call_echo', name: 'echo', args: { message: 'from the editor' } }] },
      { text: 'Echoed.' },
    ]);
    const editor = startEditor(env, pick('allow_once'));
    await initialize(editor);
    const { sessionId } = await editor.connection.agent.request('session/new', {
      cwd: root,
      mcpServers: [
        { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] },
      ],
    });
    expect((await prompt(editor, sessionId, 'Echo something.')).stopReason).toBe('end_turn');
    expect(
      editor.permissions.map((request) => request.options.map((option) => option.name)),
    ).toEqual([
      [
        'Yes, this once',
        'Yes, and always allow echo this session',
        'Yes, and always allow every tool of everything this session',
        'Yes, and always allow mcp__everything__echo (saved in your settings)',
        'No',
      ],
    ]);
    const result = server!.requests[1]!.body.messages.find((message) => message.role === 'tool');
    expect(String(result?.content)).toContain('from the editor');
  });

  it("read_file reads the editor's unsaved buffer, and asks the editor only for what it may read", async () => {
    const open = path.join(root, 'open.ts');
    const saved = path.join(root, 'saved.ts');
    const outside = path.join(dirs.base, 'outside.ts');
    writeFileSync(open, 'const onDisk = 1;\n');
    writeFileSync(saved, 'const same = 2;\n');
    writeFileSync(outside, 'const secret = 3;\n');
    const buffers = new Map([
      [open, 'const inTheEditor = 1;\n'],
      [saved, 'const same = 2;\n'],
      [outside, 'const leaked = 3;\n'],
    ]);
    const env = await modelEnv([
      {
        toolCalls: [
          { id: 'call_open', name: 'read_file', args: { absolute_path: open } },
          { id: 'call_saved', name: 'read_file', args: { absolute_path: saved } },
          { id: 'call_outside', name: 'read_file', args: { absolute_path: outside } },
        ],
      },
      { text: 'Read.' },
    ]);
    // Nobody approves a read outside the workspace.
    const editor = startEditor(env, pick('reject_once'), buffers);
    const { sessionId } = await newSession(editor);
    expect((await prompt(editor, sessionId, 'Read them.')).stopReason).toBe('end_turn');
    const results = Object.fromEntries(
      server!.requests[1]!.body.messages.filter((message) => message.role === 'tool').map(
        (message) => [message.tool_call_id as string, String(message.content)],
      ),
    );
    expect(results.call_open).toContain('const inTheEditor = 1;');
    expect(results.call_open).toContain('unsaved changes in the editor');
    expect(results.call_saved).toContain('const same = 2;');
    expect(results.call_saved).not.toContain('unsaved');
    expect(results.call_outside).not.toContain('leaked');
    expect(editor.bufferReads.sort()).toEqual([open, saved].sort());
  });

  it('stop reasons: max_tokens when the answer stays cut off, max_turn_requests at the turn limit', async () => {
    const cutOff = ['It began', ' on a Monday,', ' went on through Tuesday', ' and never ended'];
    // Four answers cut off by the output limit, then tool calls that never end the run.
    const env = await modelEnv((_request, index) =>
      index < cutOff.length
        ? { text: cutOff[index]!, finishReason: 'length' }
        : { toolCalls: [{ name: 'glob', args: { pattern: `*.kind${index}` } }] },
    );
    const editor = startEditor(env, undefined, undefined, ['--max-session-turns', '4']);
    const { sessionId } = await newSession(editor);
    expect((await prompt(editor, sessionId, 'Talk at length.')).stopReason).toBe('max_tokens');
    expect(server!.requests).toHaveLength(4);
    expect((await prompt(editor, sessionId, 'List the folder.')).stopReason).toBe(
      'max_turn_requests',
    );
    expect(textOf(editor, 'agent_message_chunk')).toContain('turn limit');
  });

  it('a run that fails answers the prompt with an error saying why', async () => {
    const env = await modelEnv([{ status: 400, message: 'the model does not exist' }]);
    const editor = startEditor(env);
    const { sessionId } = await newSession(editor);
    await expect(prompt(editor, sessionId, 'Hello?')).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('the model does not exist'),
    });
  });

  it('--acp with a prompt is a usage error that says what to drop', () => {
    const result = runCli(['--acp', '-p', 'hello'], { cwd: root, home: dirs.home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--acp serves an editor');
    expect(result.stdout).toBe('');
  });

  it('without a model: an auth method says how to configure one, and a new session is refused', async () => {
    const editor = startEditor({});
    const init = await initialize(editor);
    expect(init.authMethods?.[0]?.description).toContain('OPENAI_MODEL');
    await expect(
      editor.connection.agent.request('session/new', { cwd: root, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32000 });
  });
});
