/**
 * `toolhost --acp` when the provider stops the answer: the prompt ends with ACP's stop
 * reason `refusal`, the text before the stop streamed and the reason said after it.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { newSession, prompt, textOf } from './helpers/acp-editor.js';
import { acpProject } from './helpers/acp-project.js';

const f = acpProject();

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
    const env = await f.modelEnv([
      {
        chunks: [
          chunk({ role: 'assistant', content: 'The start of it' }),
          chunk({}, 'content_filter'),
        ],
      },
    ]);
    const editor = f.startEditor(env);
    const { sessionId } = await newSession(editor);
    expect((await prompt(editor, sessionId, 'Tell me.')).stopReason).toBe('refusal');
    const said = textOf(editor, 'agent_message_chunk');
    expect(said).toMatch(/^The start of it/);
    expect(said).toMatch(/safety system stopped the answer \(content_filter\)/);
    expect(f.server?.requests).toHaveLength(1);
  });
});
