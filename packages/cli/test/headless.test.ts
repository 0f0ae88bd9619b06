import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Script, startModelServer } from '../../core/test/helpers/model-server.js';
import { processesMatching, uniqueSleep, waitUntil } from '../../core/test/helpers/processes.js';
import { modelProject } from './helpers/model-project.js';
import { runCliAsync, startInstalledCli } from './run-cli.js';

let root: string;
let home: string;
const project = modelProject((dirs) => {
  ({ root, home } = dirs);
});

async function withModel(script: Script) {
  project.server = await startModelServer(script);
  return {
    OPENAI_BASE_URL: project.server.baseUrl,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODEL: 'scripted-model',
  };
}

const agent = (args: string[], env: NodeJS.ProcessEnv, input?: string) =>
  runCliAsync(args, { cwd: root, home, env, ...(input !== undefined ? { input } : {}) });

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../core/test/fixtures',
);
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

type JsonEvent = Record<string, unknown> & { type: string };

// Each test starts the command several times; a loaded machine needs time.
describe('toolhost -p (headless)', { timeout: 180_000 }, () => {
  it('text: the answer on stdout, a line per tool call on stderr, piped input added', async () => {
    writeFileSync(path.join(root, 'notes.txt'), 'the secret word is plover\n');
    const env = await withModel((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              { name: 'read_file', args: { absolute_path: path.join(root, 'notes.txt') } },
            ],
          }
        : { text: 'The word is plover.' },
    );
    const result = await agent(['-p', 'What is the word?'], env, 'Context from a pipe.\n');
    expect(result.stderr).toMatch(/✓ read_file .*notes\.txt/);
    expect(result.stdout).toBe('The word is plover.\n');
    expect(result.code).toBe(0);
    const firstUser = project.server!.requests[0]!.body.messages[1]!;
    expect(firstUser.content).toBe('Context from a pipe.\n\nWhat is the word?');
    expect(String(project.server!.requests[0]!.body.messages[0]!.content)).toContain(root);
  });

  it("text: a tool call's row on stderr shows the command's control characters escaped", async () => {
    const command = 'echo ran #\r\u001b[2K\u001b[1Anpm test';
    const env = await withModel((_request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'run_shell_command', args: { command, is_background: false } }] }
        : { text: 'Done.' },
    );
    const result = await agent(['-p', 'run it', '--yolo'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('✓ run_shell_command echo ran #\\r\\e[2K\\e[1Anpm test');
    expect(result.stderr).not.toMatch(/[\r\u001b]/);
  });

  it('@ references attach files: an image and a PDF reach the model as content parts', async () => {
    writeFileSync(path.join(root, 'pic.png'), fixture('pixel.png'));
    writeFileSync(path.join(root, 'spec.pdf'), fixture('page.pdf'));
    writeFileSync(path.join(root, 'notes.txt'), 'the notes say plover\n');
    const env = await withModel([{ text: 'A single red pixel.' }]);
    const result = await agent(
      ['-p', '@pic.png what is this? see also @spec.pdf and @notes.txt. Mail me@example.com'],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('A single red pixel.\n');
    expect(result.code).toBe(0);
    const prompt = project.server!.requests[0]!.body.messages.at(-1)! as {
      role: string;
      content: Array<{
        type: string;
        text?: string;
        image_url?: { url: string };
        file?: { filename: string; file_data: string };
      }>;
    };
    expect(prompt.role).toBe('user');
    const texts = prompt.content.filter((part) => part.type === 'text').map((part) => part.text);
    expect(texts[0]).toMatch(
      /^@pic\.png what is this\? see also @spec\.pdf and @notes\.txt\. Mail me@example\.com\n/,
    );
    expect(texts.join('\n')).toContain('the notes say plover');
    const image = prompt.content.find((part) => part.type === 'image_url');
    expect(image?.image_url?.url).toBe(
      `data:image/png;base64,${fixture('pixel.png').toString('base64')}`,
    );
    const pdf = prompt.content.find((part) => part.type === 'file');
    expect(pdf?.file?.file_data).toBe(
      `data:application/pdf;base64,${fixture('page.pdf').toString('base64')}`,
    );
  });

  it('json: one array of Qwen Code / Claude Code message events, with the denial of an unapproved call', async () => {
    const target = path.join(root, 'canary.txt');
    const env = await withModel((_r, index) =>
      index === 0
        ? {
            text: 'Writing the file.',
            toolCalls: [
              { id: 'call_w', name: 'write_file', args: { file_path: target, content: 'x' } },
            ],
            usage: { prompt_tokens: 100, completion_tokens: 10 },
          }
        : {
            text: 'I was not allowed to write it.',
            usage: { prompt_tokens: 150, completion_tokens: 12 },
          },
    );
    const result = await agent(['write a file', '-o', 'json'], env);
    expect(result.code).toBe(0);
    expect(existsSync(target)).toBe(false);
    const events = JSON.parse(result.stdout) as JsonEvent[];
    expect(events.map((e) => e.type)).toEqual([
      'system',
      'assistant',
      'user',
      'assistant',
      'result',
    ]);
    const init = events[0]!;
    expect(init).toMatchObject({
      subtype: 'init',
      cwd: root,
      model: 'scripted-model',
      permission_mode: 'default',
      mcp_servers: [],
    });
    expect(init.tools).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'run_shell_command']),
    );
    const sessionId = init.session_id;
    expect(typeof sessionId).toBe('string');
    expect(events[1]).toEqual({
      type: 'assistant',
      uuid: expect.any(String),
      session_id: sessionId,
      parent_tool_use_id: null,
      message: {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        role: 'assistant',
        model: 'scripted-model',
        stop_reason: 'tool_use',
        stop_sequence: null,
        content: [
          { type: 'text', text: 'Writing the file.' },
          {
            type: 'tool_use',
            id: 'call_w',
            name: 'write_file',
            input: { file_path: target, content: 'x' },
          },
        ],
        usage: {
          input_tokens: 100,
          output_tokens: 10,
          total_tokens: 110,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        },
      },
    });
    const toolResult = (events[2]!.message as { content: Record<string, unknown>[] }).content[0]!;
    expect(toolResult).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'call_w',
      is_error: true,
    });
    expect(String(toolResult.content)).toMatch(/approval/);
    expect(events[4]).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'I was not allowed to write it.',
      session_id: sessionId,
      num_turns: 2,
      usage: { input_tokens: 250, output_tokens: 22, total_tokens: 272 },
      permission_denials: [
        {
          tool_name: 'write_file',
          tool_use_id: 'call_w',
          tool_input: { file_path: target, content: 'x' },
        },
      ],
    });
    expect(typeof events[4]!.duration_ms).toBe('number');
  });

  it('stream-json: one event per line; --yolo runs the call; --allowed-tools allows one tool', async () => {
    const target = path.join(root, 'made.txt');
    const script: Script = (_r, index) =>
      index % 2 === 0
        ? { toolCalls: [{ name: 'write_file', args: { file_path: target, content: 'made\n' } }] }
        : { text: 'Written.' };
    let env = await withModel(script);
    let result = await agent(['-p', 'make it', '-o', 'stream-json', '--yolo'], env);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as JsonEvent);
    expect(lines.map((e) => e.type)).toEqual([
      'system',
      'assistant',
      'user',
      'assistant',
      'result',
    ]);
    expect(lines[0]!.permission_mode).toBe('yolo');
    expect(readFileSync(target, 'utf8')).toBe('made\n');

    rmSync(target);
    await project.server!.close();
    env = await withModel(script);
    result = await agent(['-p', 'make it', '--allowed-tools', 'write_file'], env);
    expect(result.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('made\n');
  });

  it("stream-json: a subagent's messages name its task call; its refused call is in permission_denials", async () => {
    const canary = path.join(root, 'sub-canary.txt');
    const env = await withModel([
      {
        toolCalls: [
          {
            id: 'call_task',
            name: 'task',
            args: {
              description: 'write it',
              prompt: 'write the file',
              subagent_type: 'general-purpose',
            },
          },
        ],
      },
      {
        text: 'Writing.',
        toolCalls: [
          { id: 'call_sub', name: 'write_file', args: { file_path: canary, content: 'x' } },
        ],
      },
      { text: 'I was not allowed to.' },
      { text: 'The subagent could not write it.' },
    ]);
    const result = await agent(['-p', 'delegate it', '-o', 'stream-json'], env);
    expect(result.code).toBe(0);
    expect(existsSync(canary)).toBe(false);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as JsonEvent);
    expect(events.map((e) => [e.type, e.parent_tool_use_id])).toEqual([
      ['system', undefined],
      ['assistant', null],
      ['assistant', 'call_task'],
      ['user', 'call_task'],
      ['assistant', 'call_task'],
      ['user', null],
      ['assistant', null],
      ['result', undefined],
    ]);
    expect(JSON.stringify(events[3])).toContain('"tool_use_id":"call_sub"');
    expect(events.at(-1)?.permission_denials).toEqual([
      {
        tool_name: 'write_file',
        tool_use_id: 'call_sub',
        tool_input: { file_path: canary, content: 'x' },
      },
    ]);
  });

  it('exit 2 with one line when no model is configured, or a flag is wrong', async () => {
    let result = await agent(['frobnicate'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No model is configured/);
    result = await agent(['-p', 'hello'], {});
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/OPENAI_MODEL.*OPENAI_BASE_URL.*--model/);
    const env = await withModel([{ text: 'unused' }]);
    result = await agent(['-p', 'x', '--max-session-turns', 'lots'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--max-session-turns takes a whole number/);
    result = await agent(['-p', 'x', '-o', 'yaml'], env);
    expect(result.code).toBe(2);
    expect(project.server!.requests).toHaveLength(0);
  });

  it('exit 53 at the turn limit and 55 when the tool-call or time budget is spent', async () => {
    const looping: Script = (_r, index) => ({
      toolCalls: [{ name: 'glob', args: { pattern: `*.${index}` } }],
    });
    let env = await withModel(looping);
    let result = await agent(['-p', 'go', '--max-session-turns', '2', '-o', 'json'], env);
    expect(result.code).toBe(53);
    const last = (JSON.parse(result.stdout) as JsonEvent[]).at(-1)!;
    expect(last).toMatchObject({
      type: 'result',
      subtype: 'error_max_turns',
      is_error: true,
      num_turns: 2,
    });

    result = await agent(['-p', 'go', '--max-tool-calls', '3'], env);
    expect(result.code).toBe(55);
    expect(result.stderr).toMatch(/tool-call budget/);

    await project.server!.close();
    env = await withModel([{ hang: true }]);
    result = await agent(['-p', 'go', '--max-wall-time', '1s'], env);
    expect(result.code).toBe(55);
    expect(result.stderr).toMatch(/wall-time limit/);
  });

  it('exit 1 with one clear error when the endpoint stays unusable', async () => {
    const env = await withModel(() => ({ status: 502, message: 'bad gateway', retryAfter: '0' }));
    const result = await agent(['-p', 'go', '-o', 'json'], env);
    expect(result.code).toBe(1);
    const last = (JSON.parse(result.stdout) as JsonEvent[]).at(-1)!;
    expect(last).toMatchObject({
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
    });
    expect(String(last.error)).toContain('502');
    expect(String(last.error)).toContain(project.server!.baseUrl);
  });

  const signalExits = [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const;
  for (const [signal, exitCode] of signalExits) {
    it(`exit ${exitCode} on ${signal}: the running command's process group ends first`, async () => {
      const seconds = uniqueSleep();
      const env = await withModel([
        {
          toolCalls: [
            {
              name: 'run_shell_command',
              args: { command: `sleep ${seconds}`, is_background: false },
            },
          ],
        },
      ]);
      const running = startInstalledCli(['-p', 'wait', '--yolo', '-o', 'stream-json'], {
        cwd: root,
        home,
        env,
      });
      // Generous: on a loaded machine the command can take many seconds to start.
      const started = await waitUntil(
        () => processesMatching(`sleep ${seconds}`).length > 0,
        90_000,
      );
      expect(started, running.stderr()).toBe(true);
      running.child.kill(signal);
      const result = await running.done;
      expect(result.code).toBe(exitCode);
      expect(processesMatching(`sleep ${seconds}`)).toEqual([]);
      const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as JsonEvent;
      expect(last).toMatchObject({ type: 'result', is_error: true });
    }, 150_000);
  }
});
