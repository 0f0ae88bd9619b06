import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpointer } from '../src/agent/checkpoints/checkpointer.js';
import { listCheckpoints, restoreCheckpoint } from '../src/agent/checkpoints/restore-checkpoint.js';
import { SessionRecorder, sessionFile } from '../src/agent/sessions/session-file.js';
import { loadSession } from '../src/agent/sessions/session-loader.js';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import { startAgentHarness } from './helpers/agent-harness.js';
import { write } from './helpers/checkpoint-project.js';

describe('checkpoints in the agent loop', () => {
  it('a batch that writes gets a checkpoint in the session; restoring it brings back the file and the conversation', async () => {
    let file = '';
    const h = await startAgentHarness(
      (_request, index) =>
        [
          { toolCalls: [{ id: 'c1', name: 'read_file', args: { absolute_path: file } }] },
          {
            toolCalls: [
              { id: 'c2', name: 'write_file', args: { file_path: file, content: 'overwritten\n' } },
            ],
          },
          { text: 'done' },
        ][index] ?? { text: 'no more steps' },
      { config: { approvalMode: 'auto-edit' } },
    );
    try {
      file = h.ws.write('notes.txt', 'original\n');
      const { config } = h.ws;
      const sessionPath = sessionFile(config.userDir, config.targetDir, config.sessionId);
      const recorder = new SessionRecorder(sessionPath, {
        sessionId: config.sessionId,
        cwd: config.targetDir,
        model: 'scripted-model',
      });
      const result = await h
        .loop({ checkpoints: new Checkpointer(config, h.registry), recorder })
        .run('rewrite notes.txt', new AbortController().signal);
      expect(result.status).toBe('success');
      expect(readFileSync(file, 'utf8')).toBe('overwritten\n');
      // Only the writing batch needed one: read_file is read-only.
      expect(h.events.filter((e) => e.type === 'checkpoint')).toHaveLength(1);
      const project = { userDir: config.userDir, projectRoot: config.targetDir };
      const [checkpoint] = listCheckpoints(project, { sessionId: config.sessionId });
      expect(checkpoint).toMatchObject({
        kind: 'tool_calls',
        sessionId: config.sessionId,
        messageIndex: 3,
        toolCalls: [{ name: 'write_file' }],
      });
      expect(checkpoint?.toolCalls[0]?.description).toContain('notes.txt');

      const restored = await restoreCheckpoint(project, checkpoint?.id ?? '');
      expect(readFileSync(file, 'utf8')).toBe('original\n');
      // The checkpoint is in the middle of the turn (after the read): the conversation goes
      // back to before the turn's prompt, and the prompt is offered again.
      expect(restored.conversation?.history).toEqual([]);
      expect(restored.conversation?.prompt).toBe('rewrite notes.txt');
      expect(restored.conversation?.removedMessages).toBe(6);
      expect(loadSession(sessionPath).history).toEqual(restored.conversation?.history);
    } finally {
      await h.close();
    }
  });

  it('a checkpoint that fails stops the run before the batch, with a notice (default policy)', async () => {
    let file = '';
    const h = await startAgentHarness(
      () => ({
        toolCalls: [{ id: 'c1', name: 'write_file', args: { file_path: file, content: 'x' } }],
      }),
      { config: { approvalMode: 'auto-edit' } },
    );
    try {
      file = h.ws.write('notes.txt', 'original\n');
      write(path.join(h.ws.config.userDir, 'history'), 'a file where the folder should be\n');
      const result = await h
        .loop({ checkpoints: new Checkpointer(h.ws.config, h.registry) })
        .run('rewrite notes.txt', new AbortController().signal);
      expect(result.status).toBe('error');
      expect(result.message).toMatch(/No checkpoint could be taken before write_file/);
      expect(readFileSync(file, 'utf8')).toBe('original\n');
      const notices = h.events.filter((e) => e.type === 'notice' && e.level === 'warning');
      expect(notices).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('takes none for calls that never run: a deny rule refuses one, the person declines another', async () => {
    let file = '';
    const h = await startAgentHarness(
      (_request, index) =>
        [
          {
            toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'rm -rf build' } }],
          },
          {
            toolCalls: [
              { id: 'c2', name: 'write_file', args: { file_path: file, content: 'declined\n' } },
            ],
          },
          { text: 'done' },
        ][index] ?? { text: 'no more steps' },
      { config: { settings: { permissions: { deny: ['Bash(rm:*)'] } } } },
    );
    try {
      file = h.ws.write('notes.txt', 'original\n');
      h.ws.write('build/out.txt', 'built\n');
      const { config } = h.ws;
      const result = await h
        .loop({
          checkpoints: new Checkpointer(config, h.registry),
          onConfirmationRequest: async () => ({ outcome: ToolConfirmationOutcome.Cancel }),
        })
        .run('clean up and rewrite notes.txt', new AbortController().signal);
      expect(result.status).toBe('success');
      // By effect: nothing ran, and nothing to restore was recorded.
      expect(readFileSync(file, 'utf8')).toBe('original\n');
      expect(readFileSync(h.ws.p('build/out.txt'), 'utf8')).toBe('built\n');
      expect(h.events.filter((e) => e.type === 'checkpoint')).toEqual([]);
      const project = { userDir: config.userDir, projectRoot: config.targetDir };
      expect(listCheckpoints(project, { sessionId: config.sessionId })).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
