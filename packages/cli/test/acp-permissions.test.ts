/**
 * `toolhost --acp` asking the editor before a call runs (session/request_permission): the
 * answers it offers and what each does, a question left open when the prompt is cancelled,
 * the session's mode (yolo runs unasked, except what an ask rule covers), an editor's MCP
 * server's tool, and reads of the editor's buffers. Effects are checked where they land:
 * the file written or not, the process that ends, what reaches the model.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../core/test/helpers/mcp-servers.js';
import {
  killMatching,
  processesMatching,
  uniqueSleep,
  waitUntil,
} from '../../core/test/helpers/processes.js';
import { initialize, newSession, pick, prompt, updatesOf } from './helpers/acp-editor.js';
import { acpProject } from './helpers/acp-project.js';

const f = acpProject();

describe('toolhost --acp: questions to the editor', { timeout: 150_000 }, () => {
  it('a change asks through session/request_permission: allowed once, the file is written and its diff shown', async () => {
    const canary = path.join(f.root, 'canary.txt');
    const env = await f.modelEnv([
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
    const editor = f.startEditor(env, pick('allow_once'));
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
      name: `Yes, and always allow Edit(/${f.root}/**) (saved in your settings)`,
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
    const canary = path.join(f.root, 'canary.txt');
    const env = await f.modelEnv([
      {
        toolCalls: [
          { id: 'call_write', name: 'write_file', args: { file_path: canary, content: 'x' } },
        ],
      },
      { text: 'Written.' },
    ]);
    const editor = f.startEditor(env, (request) => {
      const option = request.options.find((candidate) => candidate.optionId === 'save-user');
      return { outcome: { outcome: 'selected', optionId: option!.optionId } };
    });
    const { sessionId } = await newSession(editor);
    await prompt(editor, sessionId, 'Write the canary.');
    expect(readFileSync(canary, 'utf8')).toBe('x');
    const settings = JSON.parse(
      readFileSync(path.join(f.dirs.home, '.toolhost', 'settings.json'), 'utf8'),
    );
    expect(settings.permissions.allow).toEqual([`Edit(/${f.root}/**)`]);
  });

  it('a change the editor rejects is not made, and the call ends failed', async () => {
    const canary = path.join(f.root, 'canary.txt');
    const env = await f.modelEnv([
      {
        toolCalls: [
          { id: 'call_write', name: 'write_file', args: { file_path: canary, content: 'x' } },
        ],
      },
      { text: 'I was not allowed.' },
    ]);
    const editor = f.startEditor(env, pick('reject_once'));
    const { sessionId } = await newSession(editor);
    const answer = await prompt(editor, sessionId, 'Write the canary.');
    expect(answer.stopReason).toBe('end_turn');
    expect(editor.permissions).toHaveLength(1);
    expect(existsSync(canary)).toBe(false);
    const last = updatesOf(editor, 'tool_call_update').at(-1);
    expect(last).toMatchObject({ toolCallId: 'call_write', status: 'failed' });
  });

  it('session/cancel while the editor has not answered a permission request: the call does not run', async () => {
    const canary = path.join(f.root, 'canary.txt');
    const env = await f.modelEnv([
      {
        toolCalls: [
          { id: 'call_write', name: 'write_file', args: { file_path: canary, content: 'x' } },
        ],
      },
      { text: 'should not be asked for' },
    ]);
    // An editor that shows the question and never answers it.
    const editor = f.startEditor(env, () => new Promise(() => undefined));
    const { sessionId } = await newSession(editor);
    const answer = prompt(editor, sessionId, 'Write the canary.');
    expect(await waitUntil(() => editor.permissions.length > 0, 60_000)).toBe(true);
    await editor.connection.agent.notify('session/cancel', { sessionId });
    expect((await answer).stopReason).toBe('cancelled');
    expect(existsSync(canary)).toBe(false);
    expect(f.server!.requests).toHaveLength(1);
  });

  it('yolo set as the session mode runs a command unasked; session/cancel ends it and the prompt stops cancelled', async () => {
    const seconds = uniqueSleep();
    try {
      const env = await f.modelEnv([
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
      const editor = f.startEditor(env);
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
      expect(f.server!.requests).toHaveLength(1);
    } finally {
      killMatching(`sleep ${seconds}`);
    }
  });

  it("the editor's MCP server (stdio) is started for the session and its tool asked about and run", async () => {
    const env = await f.modelEnv([
      { toolCalls: [{ id: 'call_echo', name: 'echo', args: { message: 'from the editor' } }] },
      { text: 'Echoed.' },
    ]);
    const editor = f.startEditor(env, pick('allow_once'));
    await initialize(editor);
    const { sessionId } = await editor.connection.agent.request('session/new', {
      cwd: f.root,
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
    const result = f.server!.requests[1]!.body.messages.find((message) => message.role === 'tool');
    expect(String(result?.content)).toContain('from the editor');
  });

  it("read_file reads the editor's unsaved buffer, and asks the editor only for what it may read", async () => {
    const open = path.join(f.root, 'open.ts');
    const saved = path.join(f.root, 'saved.ts');
    const outside = path.join(f.dirs.base, 'outside.ts');
    writeFileSync(open, 'const onDisk = 1;\n');
    writeFileSync(saved, 'const same = 2;\n');
    writeFileSync(outside, 'const secret = 3;\n');
    const buffers = new Map([
      [open, 'const inTheEditor = 1;\n'],
      [saved, 'const same = 2;\n'],
      [outside, 'const leaked = 3;\n'],
    ]);
    const env = await f.modelEnv([
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
    const editor = f.startEditor(env, pick('reject_once'), buffers);
    const { sessionId } = await newSession(editor);
    expect((await prompt(editor, sessionId, 'Read them.')).stopReason).toBe('end_turn');
    const results = Object.fromEntries(
      f
        .server!.requests[1]!.body.messages.filter((message) => message.role === 'tool')
        .map((message) => [message.tool_call_id as string, String(message.content)]),
    );
    expect(results.call_open).toContain('const inTheEditor = 1;');
    expect(results.call_open).toContain('unsaved changes in the editor');
    expect(results.call_saved).toContain('const same = 2;');
    expect(results.call_saved).not.toContain('unsaved');
    expect(results.call_outside).not.toContain('leaked');
    expect(editor.bufferReads.sort()).toEqual([open, saved].sort());
  });

  it('in yolo, a read an ask rule covers is still put to the editor; rejected, it is not read', async () => {
    mkdirSync(path.join(f.dirs.home, '.toolhost'), { recursive: true });
    writeFileSync(
      path.join(f.dirs.home, '.toolhost', 'settings.json'),
      JSON.stringify({ permissions: { ask: ['Read(./notes.txt)'] } }),
    );
    const notes = path.join(f.root, 'notes.txt');
    writeFileSync(notes, 'ASKED-NOTES-TEXT\n');
    const env = await f.modelEnv([
      { toolCalls: [{ id: 'call_read', name: 'read_file', args: { absolute_path: notes } }] },
      { text: 'Not read.' },
    ]);
    const editor = f.startEditor(env, pick('reject_once'));
    const { sessionId } = await newSession(editor);
    await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
    expect((await prompt(editor, sessionId, 'Read the notes.')).stopReason).toBe('end_turn');
    expect(editor.permissions).toHaveLength(1);
    // Offered only what the next call keeps: no "always" this session, no rule saved.
    expect(editor.permissions[0]!.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'reject_once',
    ]);
    const told = f.server!.requests[1]!.body.messages.find((message) => message.role === 'tool');
    expect(String(told?.content)).not.toContain('ASKED-NOTES-TEXT');
  });
});
