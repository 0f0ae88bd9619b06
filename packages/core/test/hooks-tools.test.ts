/**
 * PreToolUse and PostToolUse hooks from settings around the real agent loop, the real tools
 * and real hook scripts (test/fixtures/hooks), against the scripted model: what blocks, what
 * is asked, what the model reads, and what a hook may not get past.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import {
  closeHarness,
  current,
  LOG,
  logged,
  never,
  script,
  start,
  toolMessage,
  writeCall,
} from './helpers/hook-harness.js';
import { EVERYTHING } from './helpers/mcp-servers.js';

afterEach(closeHarness);

describe('PreToolUse', () => {
  it('exit code 2 blocks the call: the file is never written and the model reads the reason', async () => {
    const { h, runner } = await start(
      (_request, index) =>
        index === 0 ? writeCall(current.harness!.ws.p('canary.txt')) : { text: 'understood' },
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
      (_request, index) =>
        index === 0 ? writeCall(current.harness!.ws.p('secret.txt')) : { text: 'ok' },
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
      (_request, index) =>
        index === 0 ? writeCall(current.harness!.ws.p('out.txt')) : { text: 'ok' },
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
      (_request, index) =>
        index === 0 ? writeCall(current.harness!.ws.p('allowed.txt')) : { text: 'ok' },
      { PreToolUse: [{ hooks: [{ type: 'command', command: allow }] }] },
    );
    await h.loop({ hooks: runner }).run('write it', never());
    expect(existsSync(h.ws.p('allowed.txt'))).toBe(true);
    await h.close();

    ({ h, runner } = await start(
      (_request, index) =>
        index === 0 ? writeCall(current.harness!.ws.p('planned.txt')) : { text: 'ok' },
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
      (_request, index) =>
        index === 0 ? touch(current.harness!.ws.p('denied.txt')) : { text: 'ok' },
      { PreToolUse: [{ hooks: [{ type: 'command', command: allow }] }] },
      { settings: { tools: { exclude: ['run_shell_command(touch)'] } } },
    ));
    await h.loop({ hooks: runner }).run('touch it', never());
    expect(existsSync(h.ws.p('denied.txt'))).toBe(false);
    await h.close();

    ({ h, runner } = await start(
      (_request, index) =>
        index === 0 ? writeCall(current.harness!.ws.p('.git/hooks/pre-commit')) : { text: 'ok' },
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
          ? touch(current.harness!.ws.p('outside.txt'), { outside_sandbox: true })
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
                  args: { absolute_path: current.harness!.ws.p('notes.txt') },
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
                  args: { file_path: current.harness!.ws.p('a.txt'), content: 'a' },
                },
                {
                  id: 'b',
                  name: 'run_shell_command',
                  args: { command: `touch ${current.harness!.ws.p('b.txt')}` },
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

describe('matchers naming MCP tools', () => {
  it('mcp__ names read a server named my__srv as permission rules do', async () => {
    // Each hook proves it ran by a file in the project.
    const canary = (name: string) => `${script('touch-canary.sh')} "$CLAUDE_PROJECT_DIR/${name}"`;
    const { h, runner } = await start(
      (_request, index) =>
        index === 0
          ? { toolCalls: [{ id: 'e1', name: 'echo', args: { message: 'hi there' } }] }
          : { text: 'ok' },
      {
        PreToolUse: [
          { matcher: 'mcp__my__srv__ech*', hooks: [{ type: 'command', command: canary('glob') }] },
          {
            matcher: 'mcp__my__srv__other|mcp__my',
            hooks: [{ type: 'command', command: canary('wrong') }],
          },
        ],
        PostToolUse: [
          { matcher: 'mcp__my__srv', hooks: [{ type: 'command', command: canary('server') }] },
        ],
      },
      {
        approvalMode: 'yolo',
        settings: {
          mcpServers: {
            my__srv: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
          },
        },
      },
    );
    h.registry.startDiscovery();
    try {
      await h.registry.whenDiscoveryComplete();
      await h.loop({ hooks: runner }).run('echo it', never());
      expect(toolMessage(h, 1)).toContain('Echo: hi there');
      expect(existsSync(h.ws.p('glob')), 'mcp__my__srv__ech*').toBe(true);
      expect(existsSync(h.ws.p('server')), 'mcp__my__srv').toBe(true);
      expect(existsSync(h.ws.p('wrong'))).toBe(false);
    } finally {
      await h.registry.closeMcpServers();
    }
  }, 30_000);
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
        index === 0 ? writeCall(current.harness!.ws.p('a.txt'), 'no newline') : { text: 'ok' },
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
