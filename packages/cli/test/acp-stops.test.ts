/**
 * `toolhost --acp` when the provider stops the answer: the prompt ends with ACP's stop
 * reason `refusal`, the text before the stop streamed and the reason said after it.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { type Editor, newSession, prompt, startEditor, textOf } from './helpers/acp-editor.js';

let dirs: TempDirs | undefined;
let server: ModelServer | undefined;
let editor: Editor | undefined;
afterEach(async () => {
  if (editor?.child.exitCode === null) editor.child.kill('SIGKILL');
  await server?.close();
  dirs?.cleanup();
  editor = server = dirs = undefined;
});

const chunk = (
  delta: ChatCompletionChunk.Choice.Delta,
  finish: ChatCompletionChunk.Choice['finish_reason'] = null,
): ChatCompletionChunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'scripted-model',
  choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
});

describe('toolhost --acp and stops', { timeout: 150_000 }, () => {
  it('a content filter ends the prompt with stop reason refusal, naming it', async () => {
    server = await startModelServer([
      {
        chunks: [
          chunk({ role: 'assistant', content: 'The start of it' }),
          chunk({}, 'content_filter'),
        ],
      },
    ]);
    dirs = makeTempDirs({ rootName: 'project' });
    editor = startEditor({
      cwd: dirs.root,
      home: dirs.home,
      env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'scripted-model' },
    });
    const { sessionId } = await newSession(editor);
    expect((await prompt(editor, sessionId, 'Tell me.')).stopReason).toBe('refusal');
    const said = textOf(editor, 'agent_message_chunk');
    expect(said).toMatch(/^The start of it/);
    expect(said).toMatch(/safety system stopped the answer \(content_filter\)/);
    expect(server.requests).toHaveLength(1);
  });
});
