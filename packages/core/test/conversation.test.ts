/**
 * The conversation core driven as a library user drives it: open, send, answer questions
 * from the events, cancel, close, and resume, against the scripted model server with the
 * real tools in a temporary project. Effects are checked on the files themselves.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listCheckpoints } from '../src/agent/checkpoints/restore-checkpoint.js';
import { findSession, loadSession } from '../src/agent/sessions/session-loader.js';
import type { ConversationEvent } from '../src/conversation/conversation.js';
import { NoModelConfigured, openConversation } from '../src/conversation/open-conversation.js';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import { scriptedEndpoint } from './helpers/agent-fixture.js';
import { type ModelServer, type Script, startModelServer } from './helpers/model-server.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  dirs?.cleanup();
});

async function open(script: Script, extra: Parameters<typeof openConversation>[0] = {}) {
  dirs = makeTempDirs();
  server = await startModelServer(script);
  const events: ConversationEvent[] = [];
  const conversation = await openConversation({
    workspace: { root: dirs.root },
    homeDir: dirs.home,
    env: {},
    systemSettingsPath: path.join(dirs.home, 'none.json'),
    endpoint: scriptedEndpoint(server, 'scripted-model', 'test'),
    onEvent: (event) => events.push(event),
    ...extra,
  });
  return { conversation, events };
}

describe('a conversation', () => {
  it('asks its questions as events; a no leaves the file and no checkpoint, a yes writes it', async () => {
    const file = () => path.join(dirs.root, 'notes.txt');
    const { conversation, events } = await open(
      (_request, index) =>
        [
          {
            toolCalls: [
              { id: 'w1', name: 'write_file', args: { file_path: file(), content: 'no\n' } },
            ],
          },
          { text: 'declined' },
          {
            toolCalls: [
              { id: 'w2', name: 'write_file', args: { file_path: file(), content: 'yes\n' } },
            ],
          },
          { text: 'written' },
        ][index] ?? { text: 'no more steps' },
      { answersQuestions: true },
    );
    let answer = ToolConfirmationOutcome.Cancel;
    conversation.subscribe((event) => {
      if (event.type === 'question' && event.question.kind === 'approval')
        conversation.answer(event.id, { outcome: answer });
    });
    try {
      const first = await conversation.send('write notes.txt');
      expect(first.reason).toBe('success');
      expect(existsSync(file())).toBe(false);
      const { userDir, targetDir, sessionId } = conversation.config;
      expect(listCheckpoints({ userDir, projectRoot: targetDir }, { sessionId })).toEqual([]);
      answer = ToolConfirmationOutcome.ProceedOnce;
      const second = await conversation.send('write it after all');
      expect(second.result.text).toBe('written');
      expect(readFileSync(file(), 'utf8')).toBe('yes\n');
      expect(listCheckpoints({ userDir, projectRoot: targetDir }, { sessionId })).toHaveLength(1);
      expect(events.filter((e) => e.type === 'prompt_ended')).toHaveLength(2);
    } finally {
      await conversation.close();
    }
  });

  it('refuses what needs asking when nobody answers, and runs queued turns in order', async () => {
    const { conversation, events } = await open((request) => {
      const last = request.body.messages.at(-1);
      return last?.role === 'tool'
        ? { text: 'after the refusal' }
        : typeof last?.content === 'string' && last.content.includes('write')
          ? {
              toolCalls: [
                {
                  name: 'write_file',
                  args: { file_path: path.join(dirs.root, 'a.txt'), content: 'x' },
                },
              ],
            }
          : { text: `echo: ${String(last?.content)}` };
    });
    try {
      const [first, second] = await Promise.all([
        conversation.send('please write a.txt'),
        conversation.send('second'),
      ]);
      expect(first.result.permissionDenials.map((denial) => denial.toolName)).toEqual([
        'write_file',
      ]);
      expect(existsSync(path.join(dirs.root, 'a.txt'))).toBe(false);
      expect(second.result.text).toBe('echo: second');
      expect(events.some((e) => e.type === 'prompt_queued')).toBe(true);
    } finally {
      await conversation.close();
    }
  });

  it('cancels a running command (its process ends) and says so in the turn end', async () => {
    const marker = () => path.join(dirs.root, 'finished.txt');
    const { conversation, events } = await open(
      (_request, index) =>
        index === 0
          ? {
              toolCalls: [
                {
                  name: 'run_shell_command',
                  args: { command: `sleep 20 && echo done > ${marker()}` },
                },
              ],
            }
          : { text: 'stopped' },
      { approvalMode: 'yolo' },
    );
    try {
      conversation.subscribe((event) => {
        if (event.type === 'tool_calls' && event.calls.some((call) => call.status === 'executing'))
          conversation.cancel();
      });
      const outcome = await conversation.send('run the long command');
      expect(outcome.reason).toBe('cancelled');
      expect(events.at(-1)).toMatchObject({
        type: 'prompt_ended',
        outcome: { reason: 'cancelled' },
      });
      expect(existsSync(marker())).toBe(false);
    } finally {
      await conversation.close();
    }
  });

  it('is recorded, and a resumed conversation goes on from its history', async () => {
    const { conversation } = await open(() => ({ text: 'first answer' }));
    const { userDir, targetDir, sessionId } = conversation.config;
    await conversation.send('remember 42');
    await conversation.close();
    const found = findSession(userDir, targetDir, { id: sessionId });
    if (typeof found === 'string') throw new Error(found);
    const saved = server;
    server = await startModelServer(() => ({ text: 'resumed answer' }));
    await saved?.close();
    const resumed = await openConversation({
      workspace: { root: dirs.root },
      homeDir: dirs.home,
      env: {},
      resume: loadSession(found.file),
      endpoint: scriptedEndpoint(server, 'scripted-model', 'test'),
    });
    try {
      expect(resumed.id).toBe(sessionId);
      await resumed.send('what did I say?');
      const sent = server.requests[0]?.body.messages.map((m) => m.content);
      expect(sent).toContain('remember 42');
      expect(loadSession(found.file).history).toHaveLength(4);
    } finally {
      await resumed.close();
    }
  });

  it('without a model it says how to configure one', async () => {
    dirs = makeTempDirs();
    await expect(
      openConversation({ workspace: { root: dirs.root }, homeDir: dirs.home, env: {} }),
    ).rejects.toBeInstanceOf(NoModelConfigured);
  });

  it('offers trust for a project whose only settings file is .qwen/settings.json', async () => {
    dirs = makeTempDirs();
    mkdirSync(path.join(dirs.root, '.qwen'));
    writeFileSync(
      path.join(dirs.root, '.qwen', 'settings.json'),
      JSON.stringify({ tools: { discoveryCommand: 'echo []' } }),
    );
    const asked: ConversationEvent[] = [];
    const opening = openConversation({
      workspace: { root: dirs.root },
      homeDir: dirs.home,
      env: {},
      offerTrust: true,
      answersQuestions: true,
      onEvent: (event) => {
        asked.push(event);
        if (event.type === 'question') opening.answer(event.id, { trust: false });
      },
    });
    await expect(opening).rejects.toBeInstanceOf(NoModelConfigured);
    expect(asked[0]).toMatchObject({
      type: 'question',
      question: { kind: 'trust', offer: { keys: ['tools.discoveryCommand'] } },
    });
    // Recorded: the person is not asked again.
    expect(
      readFileSync(path.join(dirs.home, '.toolhost', 'trustedFolders.json'), 'utf8'),
    ).toContain('DO_NOT_TRUST');
  });
});
