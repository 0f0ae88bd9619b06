/**
 * The history the loop sends stays acceptable to a server that parses every tool call's
 * arguments (llama-server --jinja, imitated by the scripted server): a call cut off at
 * the output limit, or with arguments that are not JSON, must not break later requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentLoop } from '../src/agent/agent-loop.js';
import { type AgentHarness, startAgentHarness } from './helpers/agent-harness.js';
import type { Script } from './helpers/model-server.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const never = () => new AbortController().signal;
type Call = { id: string; function: { name: string; arguments: string } };
type Message = { role: string; content?: unknown; tool_call_id?: string; tool_calls?: Call[] };

describe('a history every server accepts', () => {
  it('survives a tool call cut off at the output limit, and tells the model what it sent', async () => {
    const cut = '{"file_path": "/w/big.txt", "content": "line one\\nline tw';
    harness = await startAgentHarness([
      {
        toolCalls: [{ id: 'cut', name: 'write_file', args: cut }],
        finishReason: 'length',
      },
      { text: 'I will write it in smaller parts.' },
      { text: 'Second prompt answered.' },
    ]);
    const loop = harness.loop();
    const first = await loop.run('write a big file', never());
    expect(first).toMatchObject({ status: 'success', text: 'I will write it in smaller parts.' });
    const sent = harness.server.requests[1]!.body.messages as Message[];
    const call = sent[2]!.tool_calls![0]!;
    expect(call).toMatchObject({ id: 'cut', function: { name: 'write_file', arguments: '{}' } });
    const result = String(sent[3]!.content);
    expect(result).toMatch(/output token limit/);
    expect(result).toContain(cut);
    // The session goes on: a later prompt is accepted too.
    const second = await loop.run('and now?', never());
    expect(second).toMatchObject({ status: 'success', text: 'Second prompt answered.' });
  });

  it('writes parsed arguments back as JSON and repairs a resumed history with raw text', async () => {
    const script: Script = [
      { toolCalls: [{ id: 'ok', name: 'list_directory', args: '  {"path" :"/nowhere"}  ' }] },
      { text: 'done' },
    ];
    harness = await startAgentHarness(script);
    const resumed = [
      { role: 'user' as const, content: 'earlier' },
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [
          {
            id: 'old',
            type: 'function' as const,
            function: { name: 'read_file', arguments: '{"absolute_path": "/x' },
          },
        ],
      },
      { role: 'tool' as const, tool_call_id: 'old', content: 'Error: not valid JSON' },
    ];
    const loop = new AgentLoop({
      config: harness.ws.config,
      registry: harness.registry,
      model: harness.model,
      systemPrompt: 'test',
      history: resumed,
    });
    const result = await loop.run('go on', never());
    expect(result.status).toBe('success');
    const sent = harness.server.requests[1]!.body.messages as Message[];
    expect(sent[2]!.tool_calls![0]!.function.arguments).toBe('{}');
    expect(sent[5]!.tool_calls![0]!.function.arguments).toBe('{"path":"/nowhere"}');
  });
});
