/** /restore against real checkpoints: the agent overwrites a file, /restore brings it back. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { restoreSlashCommand } from '../src/ui/commands/builtin/restore-slash-command.js';
import { makeTestSession, type TestSession } from './helpers/command-context.js';

let session: TestSession | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await session?.close();
  await server?.close();
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
    session = makeTestSession({ baseUrl: server.baseUrl, record: true, approvalMode: 'yolo' });
    file = path.join(session.dirs.root, 'notes.txt');
    writeFileSync(file, 'original\n');
    const context = session.context;
    expect(session.context.config.getApprovalMode()).toBe('yolo');

    await restoreSlashCommand.run(context, '');
    expect(session.output()).toContain('No checkpoints in this session yet');

    const result = await session.agent.loop.run('rewrite notes.txt', new AbortController().signal);
    expect(result.status).toBe('success');
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
    expect(session.agent.loop.history).toEqual([]);
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
