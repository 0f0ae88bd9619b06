/**
 * Qwen Code's everyday flags, run as a person would: each works with Qwen Code's meaning
 * (`--auth-type` picks the model API, `--core-tools` the built-in tools, `--add-dir` a
 * folder of the workspace, `-s` commands only in the OS sandbox, `-i` a first prompt in
 * the terminal), or is refused with one line naming toolhost's way.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import {
  type ProviderServer,
  startProviderServer,
} from '../../core/test/helpers/provider-servers.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, openApp } from './helpers/tui-app.js';
import { runCliAsync } from './run-cli.js';

let dirs: TempDirs;
let server: ModelServer | undefined;
let claude: ProviderServer | undefined;
let app: AppUnderTest | undefined;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(async () => {
  await server?.close();
  await claude?.close();
  await app?.close();
  server = undefined;
  claude = undefined;
  app = undefined;
  dirs.cleanup();
});

const openaiEnv = (baseUrl: string) => ({
  OPENAI_BASE_URL: baseUrl,
  OPENAI_API_KEY: 'sk-test',
  OPENAI_MODEL: 'scripted-model',
});
const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCliAsync(args, { cwd: dirs.root, home: dirs.home, env });
const toolResult = (index: number) =>
  String(
    server?.requests[index]?.body.messages.find((message) => message.role === 'tool')?.content ??
      '',
  );

describe("Qwen Code's flags", { timeout: 120_000 }, () => {
  it('--auth-type anthropic sends the prompt to the Anthropic API, not the OpenAI one', async () => {
    server = await startModelServer([{ text: 'From the OpenAI API.' }]);
    claude = await startProviderServer('anthropic', [{ text: 'From the Anthropic API.' }]);
    const result = await run(['-p', 'hello', '--auth-type', 'anthropic'], {
      ...openaiEnv(server.baseUrl),
      ANTHROPIC_BASE_URL: claude.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_MODEL: 'claude-scripted',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('From the Anthropic API.');
    expect(claude.requests).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
  });

  it('--auth-type qwen-oauth, vertex-ai and unknown types are refused in one line naming the way here', async () => {
    for (const [type, named] of [
      ['qwen-oauth', /DashScope API key with --auth-type openai/],
      ['vertex-ai', /--auth-type gemini with GEMINI_API_KEY/],
      ['bogus', /takes openai, anthropic or gemini/],
    ] as const) {
      const result = await run(
        ['-p', 'hello', '--auth-type', type],
        openaiEnv('http://127.0.0.1:9'),
      );
      expect(result.code, type).toBe(2);
      expect(result.stderr.trim().split('\n'), type).toHaveLength(1);
      expect(result.stderr, type).toMatch(named);
      expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
    }
  });

  it('--core-tools offers the model only those built-in tools', async () => {
    server = await startModelServer([{ text: 'Done.' }]);
    const result = await run(
      ['-p', 'hello', '--core-tools', 'read_file,list_directory'],
      openaiEnv(server.baseUrl),
    );
    expect(result.code).toBe(0);
    const offered = (server.requests[0]?.body.tools ?? []).map(
      (tool: { function?: { name?: string } }) => tool.function?.name,
    );
    expect(offered.sort()).toEqual(['list_directory', 'read_file']);
  });

  it('--add-dir adds a folder to the workspace, as --include-directories does', async () => {
    const other = path.join(dirs.base, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'note.txt'), 'the word is heron\n');
    server = await startModelServer((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              { name: 'read_file', args: { absolute_path: path.join(other, 'note.txt') } },
            ],
          }
        : { text: 'Read it.' },
    );
    const result = await run(['-p', 'read it', '--add-dir', other], openaiEnv(server.baseUrl));
    expect(result.code).toBe(0);
    expect(toolResult(1)).toContain('the word is heron');
  });

  it('-s runs commands only in the OS sandbox: one asking to leave it is refused and runs nowhere', async () => {
    const canary = path.join(dirs.home, 'outside-canary');
    server = await startModelServer((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              {
                name: 'run_shell_command',
                args: { command: `touch ${canary}`, outside_sandbox: true },
              },
            ],
          }
        : { text: 'Tried.' },
    );
    const result = await run(['-p', 'touch it', '-s', '-y'], openaiEnv(server.baseUrl));
    expect(result.code).toBe(0);
    expect(toolResult(1)).toContain('tools.shell.sandbox is "on"');
    expect(existsSync(canary)).toBe(false);
  });

  it('-i needs a terminal, and refuses a second prompt', async () => {
    const piped = await run(['-i', 'hello'], openaiEnv('http://127.0.0.1:9'));
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/-i \(--prompt-interactive\) needs a terminal; use -p/);
    const both = await run(['-i', 'hello', '-p', 'bye'], openaiEnv('http://127.0.0.1:9'));
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/drop the other prompt/);
  });
});

describe.skipIf(!hasTmux)(`-i in the terminal${tmuxSkipReason}`, { timeout: 120_000 }, () => {
  it('-i "<prompt>" sends it first, then the terminal takes more', async () => {
    app = await openApp([{ text: 'First answer.' }, { text: 'Second answer.' }], {
      args: ['-i', 'the first prompt'],
    });
    const terminal: Terminal = app.terminal;
    await terminal.waitFor('First answer.');
    expect(app.server.requests[0]?.body.messages.at(-1)?.content).toBe('the first prompt');
    await terminal.waitFor('Ask anything');
    terminal.type('the second prompt');
    terminal.press('Enter');
    await terminal.waitFor('Second answer.');
  });
});
