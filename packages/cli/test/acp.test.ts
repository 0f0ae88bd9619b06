/**
 * `toolhost --acp` driven as an editor drives it: the installed command started as a
 * subprocess, the ACP SDK's client side on its standard input and output, the scripted
 * model server behind it. Here a session's life: initialize, prompts and what reaches the
 * model, session/load, stop reasons and failures. Questions and what runs unasked are in
 * acp-permissions.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { initialize, newSession, prompt, textOf, updatesOf } from './helpers/acp-editor.js';
import { acpProject } from './helpers/acp-project.js';
import { runCli } from './run-cli.js';

const f = acpProject();

// Each test starts the command (some twice); a loaded machine needs time.
describe('toolhost --acp (an editor over the Agent Client Protocol)', { timeout: 150_000 }, () => {
  it('initialize, a new session in the editor folder, a prompt answered in streamed chunks', async () => {
    const env = await f.modelEnv([
      { reasoning: 'The person greets me.', text: 'Hello from toolhost, streamed in pieces.' },
    ]);
    const editor = f.startEditor(env);
    const init = await initialize(editor);
    expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
    });
    expect(init.authMethods).toEqual([]);
    const session = await editor.connection.agent.request('session/new', {
      cwd: f.root,
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
    expect(String(f.server!.requests[0]!.body.messages[0]!.content)).toContain(f.root);
    expect(await editor.close()).toBe(0);
  });

  it('a prompt of text, a link to a file, an embedded resource and an image reaches the model whole', async () => {
    writeFileSync(path.join(f.root, 'linked notes.txt'), 'the linked file says plover\n');
    const pixel = readFileSync(
      path.resolve(import.meta.dirname, '../../core/test/fixtures/pixel.png'),
    ).toString('base64');
    const env = await f.modelEnv([{ text: 'Seen.' }]);
    const editor = f.startEditor(env);
    const { sessionId } = await newSession(editor);
    const answer = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'Compare' },
        {
          type: 'resource_link',
          name: 'linked notes.txt',
          uri: pathToFileURL(path.join(f.root, 'linked notes.txt')).href,
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
    const sent = f.server!.requests[0]!.body.messages.at(-1)! as {
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

  it('session/load replays a saved session and continues it', async () => {
    writeFileSync(path.join(f.root, 'word.txt'), 'plover\n');
    const env = await f.modelEnv([
      {
        toolCalls: [
          {
            id: 'call_read',
            name: 'read_file',
            args: { absolute_path: path.join(f.root, 'word.txt') },
          },
        ],
      },
      { text: 'The word is plover.' },
      { text: 'Still plover.' },
    ]);
    const first = f.startEditor(env);
    const { sessionId } = await newSession(first);
    await prompt(first, sessionId, 'Remember the word plover.');
    expect(await first.close()).toBe(0);

    const second = f.startEditor(env);
    await initialize(second);
    const loaded = await second.connection.agent.request('session/load', {
      sessionId,
      cwd: f.root,
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
    const messages = f.server!.requests[2]!.body.messages.map((message) => message.content);
    expect(messages).toContain('Remember the word plover.');
    expect(messages).toContain('The word is plover.');
  });

  it('stop reasons: max_tokens when the answer stays cut off, max_turn_requests at the turn limit', async () => {
    const cutOff = ['It began', ' on a Monday,', ' went on through Tuesday', ' and never ended'];
    // Four answers cut off by the output limit, then tool calls that never end the run.
    const env = await f.modelEnv((_request, index) =>
      index < cutOff.length
        ? { text: cutOff[index]!, finishReason: 'length' }
        : { toolCalls: [{ name: 'glob', args: { pattern: `*.kind${index}` } }] },
    );
    const editor = f.startEditor(env, undefined, undefined, ['--max-session-turns', '4']);
    const { sessionId } = await newSession(editor);
    expect((await prompt(editor, sessionId, 'Talk at length.')).stopReason).toBe('max_tokens');
    expect(f.server!.requests).toHaveLength(4);
    expect((await prompt(editor, sessionId, 'List the folder.')).stopReason).toBe(
      'max_turn_requests',
    );
    expect(textOf(editor, 'agent_message_chunk')).toContain('turn limit');
  });

  it('a run that fails answers the prompt with an error saying why', async () => {
    const env = await f.modelEnv([{ status: 400, message: 'the model does not exist' }]);
    const editor = f.startEditor(env);
    const { sessionId } = await newSession(editor);
    await expect(prompt(editor, sessionId, 'Hello?')).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('the model does not exist'),
    });
  });

  it('--acp with a prompt is a usage error that says what to drop', () => {
    const result = runCli(['--acp', '-p', 'hello'], { cwd: f.root, home: f.dirs.home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--acp serves an editor');
    expect(result.stdout).toBe('');
  });

  it('without a model: an auth method says how to configure one, and a new session is refused', async () => {
    const editor = f.startEditor({});
    const init = await initialize(editor);
    expect(init.authMethods?.[0]?.description).toContain('OPENAI_MODEL');
    await expect(
      editor.connection.agent.request('session/new', { cwd: f.root, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32000 });
  });
});
