/**
 * Restoring a checkpoint through the conversation core (what the terminal's /restore
 * does): the files come back, and the model goes on from the conversation as it was,
 * checked by what the next request sends, and by the session file a resume reads.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listCheckpoints } from '../src/agent/checkpoints/restore-checkpoint.js';
import { findSession, loadSession } from '../src/agent/sessions/session-loader.js';
import { openConversation } from '../src/conversation/open-conversation.js';
import { scriptedEndpoint } from './helpers/agent-fixture.js';
import { type ModelServer, startModelServer } from './helpers/model-server.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  dirs?.cleanup();
  dirs = undefined;
});

describe('a conversation restoring a checkpoint', () => {
  it('brings the files back and goes on from before the prompt that changed them', async () => {
    const temp = makeTempDirs();
    dirs = temp;
    const file = path.join(temp.root, 'notes.txt');
    const write = (id: string, content: string) => ({
      toolCalls: [{ id, name: 'write_file', args: { file_path: file, content } }],
    });
    const scripted = await startModelServer(
      (_request, index) =>
        [write('w1', 'one\n'), { text: 'wrote one' }, write('w2', 'two\n'), { text: 'wrote two' }][
          index
        ] ?? { text: 'going on' },
    );
    server = scripted;
    const conversation = await openConversation({
      workspace: { root: temp.root },
      homeDir: temp.home,
      env: {},
      systemSettingsPath: path.join(temp.home, 'none.json'),
      approvalMode: 'yolo',
      endpoint: scriptedEndpoint(scripted, 'scripted-model', 'test'),
    });
    try {
      await conversation.send('first: write one');
      await conversation.send('second: write two');
      expect(readFileSync(file, 'utf8')).toBe('two\n');
      const [newest] = listCheckpoints(conversation.checkpointProject, {
        sessionId: conversation.id,
      });
      expect(newest).toBeDefined();

      const restored = await conversation.restoreCheckpoint(newest?.id.slice(0, 5) ?? '');
      expect(readFileSync(file, 'utf8')).toBe('one\n');
      expect(restored.conversation?.prompt).toBe('second: write two');

      // The model hears the first exchange, and nothing of the prompt the restore took back.
      await conversation.send('third');
      const sent = JSON.stringify(scripted.requests.at(-1)?.body.messages);
      expect(sent).toContain('first: write one');
      expect(sent).toContain('third');
      expect(sent).not.toContain('second: write two');
    } finally {
      await conversation.close();
    }
    // A resume reads the same conversation from the session file.
    const { userDir, targetDir } = conversation.config;
    const saved = findSession(userDir, targetDir, { id: conversation.id });
    if (typeof saved === 'string') throw new Error(saved);
    const resumed = JSON.stringify(loadSession(saved.file).history);
    expect(resumed).toContain('first: write one');
    expect(resumed).toContain('third');
    expect(resumed).not.toContain('second: write two');
  });
});
