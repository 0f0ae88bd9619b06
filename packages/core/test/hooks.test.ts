/**
 * Hooks from settings around the real agent loop, the real tools and real hook scripts
 * (test/fixtures/hooks), against the scripted model: what blocks, what is asked, what the
 * model reads, and what a hook may not get past.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextCompressor } from '../src/agent/compression.js';
import { Config } from '../src/config/config.js';
import type { Settings } from '../src/config/settings-types.js';
import { HookRunner } from '../src/hooks/hook-runner.js';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import { type AgentHarness, startAgentHarness } from './helpers/agent-harness.js';
import type { Script } from './helpers/model-server.js';
import { processesMatching, uniqueSleep, waitUntil } from './helpers/processes.js';
import { FIXTURES } from './helpers/temp-workspace.js';

const HOOKS = path.join(FIXTURES, 'hooks');
/** A command line running one fixture script with its arguments. */
const script = (name: string, ...args: string[]) => quote(['sh', path.join(HOOKS, name), ...args]);
/** Logs each event's input into hook.log in the project (found through the hooks' own variable). */
const LOG = `sh ${quote([path.join(HOOKS, 'log-input.sh')])} "$CLAUDE_PROJECT_DIR/hook.log"`;

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(
  modelScript: Script,
  hooks: Settings['hooks'],
  config: { approvalMode?: 'plan' | 'default' | 'auto-edit' | 'yolo'; settings?: Settings } = {},
) {
  harness = await startAgentHarness(modelScript, {
    config: { ...config, settings: { ...config.settings, hooks } },
  });
  const runner = HookRunner.fromConfig(harness.ws.config);
  const messages: string[] = [];
  if (runner) runner.onMessage = (message) => messages.push(message);
  return { h: harness, runner: runner!, messages };
}

const never = () => new AbortController().signal;
type Message = { role: string; content?: unknown; tool_call_id?: string };
const toolMessage = (h: AgentHarness, request: number) =>
  String(
    (h.server.requests[request]!.body.messages as Message[]).find((m) => m.role === 'tool')
      ?.content,
  );
const logged = (h: AgentHarness) =>
  existsSync(h.ws.p('hook.log'))
    ? readFileSync(h.ws.p('hook.log'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];

const writeCall = (file: string, content = 'written by the model\n') => ({
  toolCalls: [{ id: 'w1', name: 'write_file', args: { file_path: file, content } }],
});

describe('PreToolUse', () => {
  it('exit code 2 blocks the call: the file is never written and the model reads the reason', async () => {
    const { h, runner } = await start(
      (_request, index) =>
        index === 0 ? writeCall(harness!.ws.p('canary.txt')) : { text: 'understood' },
      {
        PreToolUse: [
          {
            matcher: 'Write',
            hooks: [{ type: 'command', command: script('block.sh', 'no writes on Fridays') }],
          },
          {
            matcher: 'read_file',
            hooks: [{ type: 'command', command: script('touch-canary.sh', '/dev/null/x') }],
          },
        ],
      },
      { approvalMode: 'yolo' },
    );
    const result = await h.loop({ hooks: runner }).run('write the canary', never());
    expect(result.status).toBe('success');
    expect(existsSync(h.ws.p('canary.txt'))).toBe(false);
    expect(toolMessage(h, 1)).toContain(
      'A PreToolUse hook blocked this call: no writes on Fridays',
    );
  });

  it('a JSON deny blocks with its reason; the input names the tool, its arguments and the session', async () => {
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'secrets stay put',
      },
    });
    const { h, runner } = await start(
      (_request, index) => (index === 0 ? writeCall(harness!.ws.p('secret.txt')) : { text: 'ok' }),
      {
        PreToolUse: [
          { matcher: 'write_file|edit', hooks: [{ type: 'command', command: LOG }] },
          { matcher: '.*_file', hooks: [{ type: 'command', command: script('answer.sh', deny) }] },
        ],
      },
      { approvalMode: 'yolo' },
    );
    await h.loop({ hooks: runner }).run('write it', never());
    expect(existsSync(h.ws.p('secret.txt'))).toBe(false);
    expect(toolMessage(h, 1)).toContain('secrets stay put');
    const [input] = logged(h);
    expect(input).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'write_file',
      tool_input: { file_path: h.ws.p('secret.txt'), content: 'written by the model\n' },
      tool_use_id: 'w1',
      cwd: h.ws.root,
      session_id: h.ws.config.sessionId,
      permission_mode: 'yolo',
    });
  });

  it('updatedInput changes what runs, and additionalContext reaches the model with the result', async () => {
    const rewrite = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { content: 'rewritten by the hook\n' },
        additionalContext: 'the hook rewrote the content',
      },
    });
    const { h, runner } = await start(
      (_request, index) => (index === 0 ? writeCall(harness!.ws.p('out.txt')) : { text: 'ok' }),
      {
        PreToolUse: [
          { matcher: 'Write', hooks: [{ type: 'command', command: script('answer.sh', rewrite) }] },
        ],
      },
      { approvalMode: 'auto-edit' },
    );
    await h.loop({ hooks: runner }).run('write it', never());
    expect(readFileSync(h.ws.p('out.txt'), 'utf8')).toBe('rewritten by the hook\n');
    expect(toolMessage(h, 1)).toContain('the hook rewrote the content');
  });

  it("allow answers the person's question, but not plan mode, a deny rule, .git or leaving the sandbox", async () => {
    const allow = script(
      'answer.sh',
      JSON.stringify({ hookSpecificOutput: { permissionDecision: 'allow' } }),
    );
    // Default mode and nobody to ask: without the hook this write would be refused.
    let { h, runner } = await start(
      (_request, index) => (index === 0 ? writeCall(harness!.ws.p('allowed.txt')) : { text: 'ok' }),
      { PreToolUse: [{ hooks: [{ type: 'command', command: allow }] }] },
    );
    await h.loop({ hooks: runner }).run('write it', never());
    expect(existsSync(h.ws.p('allowed.txt'))).toBe(true);
    await h.close();

    ({ h, runner } = await start(
      (_request, index) => (index === 0 ? writeCall(harness!.ws.p('planned.txt')) : { text: 'ok' }),
      { PreToolUse: [{ hooks: [{ type: 'command', command: allow }] }] },
      { approvalMode: 'plan' },
    ));
    await h.loop({ hooks: runner }).run('write it', never());
    expect(existsSync(h.ws.p('planned.txt'))).toBe(false);
    await h.close();

    const touch = (file: string, extra: object = {}) => ({
      toolCalls: [
        { id: 's1', name: 'run_shell_command', args: { command: `touch ${file}`, ...extra } },
      ],
    });
    ({ h, runner } = await start(
      (_request, index) => (index === 0 ? touch(harness!.ws.p('denied.txt')) : { text: 'ok' }),
      { PreToolUse: [{ hooks: [{ type: 'command', command: allow }] }] },
      { settings: { tools: { exclude: ['run_shell_command(touch)'] } } },
    ));
    await h.loop({ hooks: runner }).run('touch it', never());
    expect(existsSync(h.ws.p('denied.txt'))).toBe(false);
    await h.close();

    ({ h, runner } = await start(
      (_request, index) =>
        index === 0 ? writeCall(harness!.ws.p('.git/hooks/pre-commit')) : { text: 'ok' },
      { PreToolUse: [{ hooks: [{ type: 'command', command: allow }] }] },
      { approvalMode: 'auto-edit' },
    ));
    h.ws.write('.git/HEAD', 'ref: refs/heads/main\n');
    await h.loop({ hooks: runner }).run('add a git hook', never());
    expect(existsSync(h.ws.p('.git/hooks/pre-commit'))).toBe(false);
    await h.close();

    const asked: string[] = [];
    ({ h, runner } = await start(
      (_request, index) =>
        index === 0
          ? touch(harness!.ws.p('outside.txt'), { outside_sandbox: true })
          : { text: 'ok' },
      { PreToolUse: [{ hooks: [{ type: 'command', command: allow }] }] },
      { approvalMode: 'auto-edit' },
    ));
    await h
      .loop({
        hooks: runner,
        onConfirmationRequest: async (call) => {
          asked.push(call.confirmationDetails.title);
          return { outcome: ToolConfirmationOutcome.Cancel };
        },
      })
      .run('touch it outside', never());
    // Where no sandbox works the question is still the person's; the file is never made.
    expect(existsSync(h.ws.p('outside.txt'))).toBe(false);
    if (asked.length > 0) expect(asked[0]).toContain('outside the sandbox');
  });

  it('ask puts even a read-only call to the person, and a no stops it', async () => {
    const ask = script(
      'answer.sh',
      JSON.stringify({
        hookSpecificOutput: {
          permissionDecision: 'ask',
          permissionDecisionReason: 'reads of notes are audited',
        },
      }),
    );
    const { h, runner } = await start(
      (_request, index) =>
        index === 0
          ? {
              toolCalls: [
                {
                  id: 'r1',
                  name: 'read_file',
                  args: { absolute_path: harness!.ws.p('notes.txt') },
                },
              ],
            }
          : { text: 'ok' },
      { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: ask }] }] },
      { approvalMode: 'yolo' },
    );
    h.ws.write('notes.txt', 'private notes\n');
    const titles: string[] = [];
    await h
      .loop({
        hooks: runner,
        onConfirmationRequest: async (call) => {
          titles.push(call.confirmationDetails.title);
          return { outcome: ToolConfirmationOutcome.Cancel };
        },
      })
      .run('read the notes', never());
    expect(titles).toHaveLength(1);
    expect(titles[0]).toContain('reads of notes are audited');
    expect(toolMessage(h, 1)).not.toContain('private notes');
  });
  it('reads the older decision field, continue: false and systemMessage as Claude Code does', async () => {
    const answer = (json: object) => ({
      type: 'command' as const,
      command: script('answer.sh', JSON.stringify(json)),
    });
    const { h, runner, messages } = await start(
      (_request, index) =>
        index === 0
          ? {
              toolCalls: [
                {
                  id: 'a',
                  name: 'write_file',
                  args: { file_path: harness!.ws.p('a.txt'), content: 'a' },
                },
                {
                  id: 'b',
                  name: 'run_shell_command',
                  args: { command: `touch ${harness!.ws.p('b.txt')}` },
                },
              ],
            }
          : { text: 'ok' },
      {
        PreToolUse: [
          { matcher: 'Write', hooks: [answer({ decision: 'block', reason: 'old-style block' })] },
          { matcher: 'Bash', hooks: [answer({ continue: false, stopReason: 'halt here' })] },
        ],
        UserPromptSubmit: [{ hooks: [answer({ systemMessage: 'prompt seen by the audit hook' })] }],
      },
      { approvalMode: 'yolo' },
    );
    await h.loop({ hooks: runner }).run('write both', never());
    expect(existsSync(h.ws.p('a.txt'))).toBe(false);
    expect(existsSync(h.ws.p('b.txt'))).toBe(false);
    const sent = JSON.stringify(h.server.requests[1]!.body.messages);
    expect(sent).toContain('old-style block');
    expect(sent).toContain('halt here');
    expect(messages).toEqual(['prompt seen by the audit hook']);
  });
});

describe('PostToolUse', () => {
  it('sees the result, and its block reason and context are added to what the model reads', async () => {
    const post = JSON.stringify({
      decision: 'block',
      reason: 'the file must end with a newline',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint ran' },
    });
    const { h, runner } = await start(
      (_request, index) =>
        index === 0 ? writeCall(harness!.ws.p('a.txt'), 'no newline') : { text: 'ok' },
      {
        PostToolUse: [
          { matcher: 'write_file', hooks: [{ type: 'command', command: LOG }] },
          { matcher: 'Write', hooks: [{ type: 'command', command: script('answer.sh', post) }] },
        ],
      },
      { approvalMode: 'yolo' },
    );
    await h.loop({ hooks: runner }).run('write it', never());
    expect(readFileSync(h.ws.p('a.txt'), 'utf8')).toBe('no newline');
    const message = toolMessage(h, 1);
    expect(message).toContain('the file must end with a newline');
    expect(message).toContain('lint ran');
    const [input] = logged(h);
    expect(input).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'write_file' });
    expect(JSON.stringify(input!.tool_response)).toContain('a.txt');
  });
});

describe('UserPromptSubmit, Stop and failures', () => {
  it('exit code 2 keeps the prompt from the model; plain output is added as context', async () => {
    let { h, runner } = await start([{ text: 'never sent' }], {
      UserPromptSubmit: [
        { hooks: [{ type: 'command', command: script('block.sh', 'no passwords in prompts') }] },
      ],
    });
    const blocked = await h.loop({ hooks: runner }).run('my password is hunter2', never());
    expect(blocked.status).toBe('error');
    expect(blocked.message).toContain('no passwords in prompts');
    expect(h.server.requests).toHaveLength(0);
    await h.close();

    ({ h, runner } = await start([{ text: 'ok' }], {
      UserPromptSubmit: [
        { hooks: [{ type: 'command', command: script('answer.sh', 'Today is a release day.') }] },
      ],
    }));
    await h.loop({ hooks: runner }).run('what now?', never());
    const user = (h.server.requests[0]!.body.messages as Message[]).find((m) => m.role === 'user');
    expect(JSON.stringify(user?.content)).toContain('Today is a release day.');
    expect(JSON.stringify(user?.content)).toContain('what now?');
  });

  it('a Stop hook keeps the agent going with its reason, once; a subagent fires SubagentStop', async () => {
    let { h, runner } = await start([{ text: 'done' }, { text: 'tests pass, done' }], {
      Stop: [
        {
          hooks: [
            { type: 'command', command: script('keep-going-once.sh') },
            { type: 'command', command: LOG },
          ],
        },
      ],
      SubagentStop: [{ hooks: [{ type: 'command', command: LOG }] }],
    });
    const result = await h.loop({ hooks: runner }).run('finish the work', never());
    expect(result).toMatchObject({ status: 'success', text: 'tests pass, done', turns: 2 });
    const second = JSON.stringify(h.server.requests[1]!.body.messages);
    expect(second).toContain('Run the tests before you stop.');
    expect(logged(h).map((input) => [input.hook_event_name, input.stop_hook_active])).toEqual([
      ['Stop', false],
      ['Stop', true],
    ]);
    await h.close();

    ({ h, runner } = await start([{ text: 'reviewed' }], {
      Stop: [{ hooks: [{ type: 'command', command: LOG }] }],
      SubagentStop: [{ matcher: 'reviewer', hooks: [{ type: 'command', command: LOG }] }],
    }));
    await h.loop({ hooks: runner, subagent: 'reviewer' }).run('review', never());
    expect(logged(h)).toMatchObject([
      {
        hook_event_name: 'SubagentStop',
        agent_type: 'reviewer',
        last_assistant_message: 'reviewed',
      },
    ]);
  });

  it('a failing hook is told to the person and changes nothing; a hung one is killed with its children', async () => {
    const sleep = uniqueSleep();
    const { h, runner, messages } = await start(
      (_request, index) => (index === 0 ? writeCall(harness!.ws.p('b.txt')) : { text: 'ok' }),
      {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: script('fail.sh', 'missing jq') },
              { type: 'command', command: script('hang.sh', sleep), timeout: 1 },
            ],
          },
        ],
      },
      { approvalMode: 'yolo' },
    );
    const started = Date.now();
    await h.loop({ hooks: runner }).run('write it', never());
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(h.ws.p('b.txt'))).toBe(true);
    expect(messages.join('\n')).toContain('hook is broken: missing jq');
    expect(messages.join('\n')).toContain('did not finish within 1 s');
    expect(await waitUntil(() => processesMatching(`sleep ${sleep}`).length === 0)).toBe(true);
  });

  it('PreCompact runs before the history is summarised, with its trigger', async () => {
    const { h, runner } = await start(
      (request) =>
        JSON.stringify(request.body.messages).includes('The conversation so far')
          ? { text: 'a summary' }
          : { text: 'an answer' },
      {
        PreCompact: [
          {
            matcher: 'auto',
            hooks: [{ type: 'command', command: script('touch-canary.sh', '/dev/null/x') }],
          },
          { matcher: 'manual', hooks: [{ type: 'command', command: LOG }] },
        ],
      },
    );
    const compressor = new ContextCompressor(h.model, 32_000, h.loop().usage);
    const loop = h.loop({ hooks: runner, compressor });
    await loop.run('first question', never());
    await loop.run('second question', never());
    expect(logged(h)).toEqual([]);
    expect(await loop.compressNow(never())).toBe(true);
    expect(logged(h)).toMatchObject([{ hook_event_name: 'PreCompact', trigger: 'manual' }]);
  });

  it('a hook of another type is left out with a warning; the command hook beside it still runs', async () => {
    const { h } = await start([{ text: 'unused' }], {});
    const home = path.join(h.ws.base, 'person');
    mkdirSync(path.join(home, '.toolhost'), { recursive: true });
    writeFileSync(
      path.join(home, '.toolhost', 'settings.json'),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                { type: 'http', url: 'http://127.0.0.1:9/' },
                { type: 'command', command: LOG },
              ],
            },
          ],
        },
      }),
    );
    const loaded = Config.load({
      root: h.ws.root,
      homeDir: home,
      env: {},
      systemSettingsPath: path.join(home, 'none'),
    });
    expect(loaded.settings.warnings.map((warning) => warning.key)).toContain(
      'hooks.UserPromptSubmit[0].hooks[0].type',
    );
    const runner = HookRunner.fromConfig(loaded.config)!;
    expect(runner.list()).toHaveLength(1);
    await runner.run('UserPromptSubmit', { prompt: 'hello' }, undefined);
    expect(logged(h)).toMatchObject([{ hook_event_name: 'UserPromptSubmit', prompt: 'hello' }]);
  });
});
