/**
 * `toolhost -p` against a server as strict as llama-server: it waits for the MCP servers
 * before its first request (each bounded by its start timeout), so a one-turn task sees
 * their tools and the init event says how each server ended; it learns the model server's
 * context size before that request; and a tool call cut off at the output limit does not
 * break the run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lateEverything } from '../../core/test/helpers/mcp-servers.js';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { processesMatching, uniqueSleep } from '../../core/test/helpers/processes.js';
import { modelProject } from './helpers/model-project.js';
import { runCliAsync } from './run-cli.js';

const project = modelProject();

type JsonEvent = Record<string, unknown> & { type: string };

describe('toolhost -p against strict servers', { timeout: 120_000 }, () => {
  it('waits for a late server (its tools in the first request), not past a hanging one’s start timeout', async () => {
    const marker = uniqueSleep();
    mkdirSync(path.join(project.dirs.home, '.toolhost'), { recursive: true });
    writeFileSync(
      path.join(project.dirs.home, '.toolhost', 'settings.json'),
      JSON.stringify({
        mcpServers: {
          late: { ...lateEverything(1500), trust: true },
          hangs: { command: 'sleep', args: [marker], startTimeout: 2000 },
        },
      }),
    );
    project.server = await startModelServer(
      (request, index) =>
        index === 0 && request.body.tools?.some((tool) => tool.function.name === 'echo')
          ? { toolCalls: [{ name: 'echo', args: { message: 'from the late server' } }] }
          : { text: index === 0 ? 'No echo tool.' : 'Echoed.' },
      { contextSize: 40_000 },
    );
    const started = Date.now();
    const result = await runCliAsync(['-p', 'echo something', '-o', 'stream-json'], {
      cwd: project.dirs.root,
      home: project.dirs.home,
      env: {
        OPENAI_BASE_URL: project.server.baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'scripted-model',
      },
    });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as JsonEvent);
    const init = events[0]!;
    expect(init).toMatchObject({ type: 'system', subtype: 'init' });
    expect(init.mcp_servers).toEqual(
      expect.arrayContaining([
        { name: 'late', status: 'connected' },
        { name: 'hangs', status: 'failed' },
      ]),
    );
    expect(init.tools).toEqual(expect.arrayContaining(['echo', 'read_file']));
    const toolResult = events.find((event) => event.type === 'user') as unknown as {
      message: { content: Array<{ content: string; is_error: boolean }> };
    };
    expect(toolResult.message.content[0]).toMatchObject({
      is_error: false,
      content: expect.stringContaining('Echo: from the late server'),
    });
    expect(events.at(-1)).toMatchObject({ type: 'result', result: 'Echoed.' });
    // The size llama-server publishes sized the answer: a quarter of 40,000 tokens.
    expect(project.server.requests[0]!.body.max_tokens).toBe(10_000);
    // Bounded by the hanging server's 2 s start timeout, not its 10-minute call timeout.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(processesMatching(`sleep ${marker}`)).toEqual([]);
  });

  it('survives a tool call cut off at the output limit (the server parses history arguments)', async () => {
    project.server = await startModelServer([
      {
        toolCalls: [{ name: 'write_file', args: '{"file_path": "/tmp/x", "content": "unfinis' }],
        finishReason: 'length',
      },
      { text: 'Done in smaller parts.' },
    ]);
    const result = await runCliAsync(['-p', 'write a long file'], {
      cwd: project.dirs.root,
      home: project.dirs.home,
      env: {
        OPENAI_BASE_URL: project.server.baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'scripted-model',
      },
    });
    expect(result.stdout).toBe('Done in smaller parts.\n');
    expect(result.stderr).toMatch(/✗ write_file.*output token limit/);
    expect(result.code).toBe(0);
    expect(project.server.refusals).toEqual([]);
  });
});
