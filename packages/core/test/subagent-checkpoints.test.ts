/**
 * A subagent's own batches that change files take checkpoints, as the main agent's do:
 * the same store and session, marked with the subagent's name, placed in the main
 * conversation before the turn that started the subagent. Proven by effect: a scripted
 * model drives the `task` tool, the subagent writes a file twice, and restoring its
 * checkpoints brings back each earlier state.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-events.js';
import {
  describeCheckpoint,
  listCheckpoints,
  restoreCheckpoint,
} from '../src/agent/checkpoints/restore-checkpoint.js';
import { createAgent } from '../src/agent/create-agent.js';
import { SessionRecorder, sessionFile } from '../src/agent/sessions/session-file.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { agentFixture, scriptedEndpoint } from './helpers/agent-fixture.js';
import { type RecordedRequest, startModelServer } from './helpers/model-server.js';
import { makeWorkspace } from './helpers/temp-workspace.js';

const fx = agentFixture();

const isSubagent = (request: RecordedRequest) =>
  String(request.body.messages[0]?.content ?? '').includes('running as a subagent');

describe('checkpoints of a subagent', () => {
  it("takes one before each of the subagent's writing batches; restoring them brings the file back", async () => {
    fx.ws = makeWorkspace({ approvalMode: 'auto-edit' });
    const file = fx.ws.write('notes.txt', 'original\n');
    fx.server = await startModelServer((request) => {
      const turns = request.body.messages.length;
      if (isSubagent(request)) {
        // The subagent's turns: read, write, write again, then its answer.
        if (turns === 2)
          return { toolCalls: [{ name: 'read_file', args: { absolute_path: file } }] };
        if (turns === 4)
          return {
            toolCalls: [{ name: 'write_file', args: { file_path: file, content: 'first\n' } }],
          };
        if (turns === 6)
          return {
            toolCalls: [{ name: 'write_file', args: { file_path: file, content: 'second\n' } }],
          };
        return { text: 'Rewrote notes.txt twice.' };
      }
      return turns === 2
        ? {
            toolCalls: [
              {
                name: 'task',
                args: {
                  description: 'rewrite notes',
                  prompt: 'Rewrite notes.txt',
                  subagent_type: 'general-purpose',
                },
              },
            ],
          }
        : { text: 'The subagent rewrote it.' };
    });
    const { config } = fx.ws;
    const sessionPath = sessionFile(config.userDir, config.targetDir, config.sessionId);
    const recorder = new SessionRecorder(sessionPath, {
      sessionId: config.sessionId,
      cwd: config.targetDir,
      model: 'main-model',
    });
    const events: AgentEvent[] = [];
    const agent = createAgent({
      config,
      registry: createToolRegistry(config),
      endpoint: scriptedEndpoint(fx.server, 'main-model'),
      recorder,
      onEvent: (event) => events.push(event),
    });
    const result = await agent.loop.run('have notes rewritten', new AbortController().signal);
    expect(result.status).toBe('success');
    expect(readFileSync(file, 'utf8')).toBe('second\n');

    const project = { userDir: config.userDir, projectRoot: config.targetDir };
    // Newest first: the subagent's second write, its first, then the main agent's task call.
    const [beforeSecond, beforeFirst, beforeTask, ...others] = listCheckpoints(project, {
      sessionId: config.sessionId,
    });
    expect(others).toEqual([]);
    expect(beforeTask).toMatchObject({ toolCalls: [{ name: 'task' }] });
    expect(beforeTask?.subagent).toBeUndefined();
    for (const checkpoint of [beforeFirst, beforeSecond]) {
      expect(checkpoint).toMatchObject({
        kind: 'tool_calls',
        subagent: 'general-purpose',
        sessionId: config.sessionId,
        // Before the main agent's turn with the task call (after the prompt).
        messageIndex: 1,
        toolCalls: [{ name: 'write_file' }],
      });
    }
    expect(describeCheckpoint(beforeFirst!)).toMatch(
      /^\[subagent general-purpose\] write_file: .*notes\.txt/,
    );
    // The person saw them taken, as the subagent's.
    const seen = events.flatMap((event) =>
      event.type === 'subagent' && event.event.type === 'checkpoint'
        ? [event.event.checkpoint.id]
        : [],
    );
    expect(seen).toEqual([beforeFirst?.id, beforeSecond?.id]);

    // Between the subagent's two writes: only the main agent's checkpoint could not do this.
    await restoreCheckpoint(project, beforeSecond!.id);
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    const restored = await restoreCheckpoint(project, beforeFirst!.id);
    expect(readFileSync(file, 'utf8')).toBe('original\n');
    // The conversation goes back to before the turn that started the subagent.
    expect(restored.conversation?.history.map((m) => m.role)).toEqual([]);
    expect(restored.conversation?.prompt).toBe('have notes rewritten');
  });
});
