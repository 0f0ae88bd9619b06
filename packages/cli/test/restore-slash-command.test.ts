/**
 * /restore against real checkpoints and a real conversation: the agent overwrites a file,
 * /restore brings it back through the conversation core, and the model goes on from there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Conversation, openConversation } from '@toolhost/core/conversation';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { restoreSlashCommand } from '../src/ui/commands/builtin/restore-slash-command.js';
import { makeTestSession, type TestSession } from './helpers/command-context.js';

let session: TestSession | undefined;
let server: ModelServer | undefined;
let conversation: Conversation | undefined;
afterEach(async () => {
  await conversation?.close();
  await session?.close();
  await server?.close();
  conversation = undefined;
});

describe('/restore', () => {
  it('lists the checkpoints, brings back an overwritten file and the conversation, and can be undone', async () => {
    let file = '';
    server = await startModelServer((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              { id: 'w1', name: 'write_file', args: { file_path: file, content: 'overwritten\n' } },
            ],
          }
        : { text: 'Done.' },
    );
    session = makeTestSession();
    const { dirs } = session;
    file = path.join(dirs.root, 'notes.txt');
    writeFileSync(file, 'original\n');
    const opened = await openConversation({
      workspace: { root: dirs.root },
      homeDir: dirs.home,
      env: {},
      systemSettingsPath: path.join(dirs.home, 'no-system-settings.json'),
      approvalMode: 'yolo',
      endpoint: {
        baseUrl: server.baseUrl,
        apiKey: 'test',
        model: 'test-model',
        contextWindow: 32_768,
        timeoutMs: 20_000,
        maxRetries: 0,
      },
    });
    conversation = opened;
    // The terminal's context: the conversation's settings, agent and restore.
    const context = {
      ...session.context,
      config: opened.config,
      registry: opened.registry,
      agent: opened.agent,
      restoreCheckpoint: (which: string) => opened.restoreCheckpoint(which),
    };

    await restoreSlashCommand.run(context, '');
    expect(session.output()).toContain('No checkpoints in this session yet');

    const result = await opened.send('rewrite notes.txt');
    expect(result.reason).toBe('success');
    expect(readFileSync(file, 'utf8')).toBe('overwritten\n');

    await restoreSlashCommand.run(context, '');
    const listing = session.printed.at(-1)?.text ?? '';
    expect(listing).toContain('**Checkpoints**');
    expect(listing).toContain('write_file');
    expect(listing).toContain('changed since: notes.txt');
    const id = /`([0-9a-f]+)`/.exec(listing)?.[1] ?? '';
    expect(restoreSlashCommand.completeArguments?.(context, id.slice(0, 2))?.[0]?.value).toBe(id);

    await restoreSlashCommand.run(context, id);
    expect(readFileSync(file, 'utf8')).toBe('original\n');
    const report = session.printed.at(-1)?.text ?? '';
    expect(report).toContain('brought back `notes.txt`');
    // Back to before the prompt that led to the change: the prompt is offered again.
    expect(opened.agent.loop.history).toEqual([]);
    expect(session.events).toEqual(['prompt text: rewrite notes.txt']);
    expect(report).toContain('The conversation is back to before the prompt');
    const undo = /\/restore ([0-9a-f]+)`/.exec(report)?.[1] ?? '';
    expect(undo).not.toBe('');

    await restoreSlashCommand.run(context, undo);
    expect(readFileSync(file, 'utf8')).toBe('overwritten\n');
    await restoreSlashCommand.run(context, 'ffffffffff');
    expect(session.printed.at(-1)?.kind).toBe('error');
  });
});
