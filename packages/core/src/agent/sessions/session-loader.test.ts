import { appendFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../../test/helpers/temp-workspace.js';
import type { ChatMessage } from '../../models/model-types.js';
import { SessionRecorder, sessionFile } from './session-file.js';
import { completeLength, findSession, listSessions, loadSession } from './session-loader.js';

let dirs: TempDirs;
/** The person's settings folder (~/.toolhost) the sessions are kept under. */
let userDir: string;
beforeEach(() => {
  dirs = makeTempDirs();
  userDir = dirs.home;
});
afterEach(() => dirs.cleanup());

const call = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'glob', arguments: '{"pattern":"*"}' },
});
const user = (content: string): ChatMessage => ({ role: 'user', content });
const answer = (content: string): ChatMessage => ({ role: 'assistant', content });
const calls = (...ids: string[]): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map(call),
});
const result = (id: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content: 'ok' });

describe('completeLength', () => {
  it('keeps whole exchanges and drops a cut-off tail', () => {
    expect(completeLength([user('a'), answer('b')])).toBe(2);
    expect(completeLength([user('a'), calls('1', '2'), result('1')])).toBe(0);
    expect(completeLength([user('a'), calls('1'), result('1'), calls('2')])).toBe(3);
    const media: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'img' }] };
    expect(completeLength([user('a'), calls('1'), result('1'), media])).toBe(4);
    expect(completeLength([user('a'), answer('b'), user('unanswered')])).toBe(2);
  });
});

describe('session files', () => {
  it('records, lists, finds and loads sessions; a cut line and a cut exchange are dropped', () => {
    const root = '/work/project';
    const file = sessionFile(userDir, root, 'aaaa-1111');
    const recorder = new SessionRecorder(file, { sessionId: 'aaaa-1111', cwd: root, model: 'm' });
    for (const message of [
      user('first task'),
      calls('1'),
      result('1'),
      answer('done'),
      user('next'),
      calls('2'),
    ]) {
      recorder.recordMessage(message);
    }
    recorder.recordUsage({ inputTokens: 10, outputTokens: 3 }, 'm');
    appendFileSync(file, '{"type":"message","at":"2026-01-01T00:0'); // killed mid-write

    const loaded = loadSession(file);
    expect(loaded.history).toEqual([user('first task'), calls('1'), result('1'), answer('done')]);
    expect(loaded.droppedMessages).toBe(2);
    expect(loaded.usage).toEqual({ inputTokens: 10, outputTokens: 3 });

    const other = new SessionRecorder(sessionFile(userDir, root, 'bbbb-2222'), {
      sessionId: 'bbbb-2222',
      cwd: root,
      model: 'm',
    });
    other.recordMessage(user('second session'));
    const list = listSessions(userDir, root);
    expect(list.map((s) => s.firstPrompt).sort()).toEqual(['first task', 'second session']);
    expect(findSession(userDir, root, { id: 'aaaa' })).toMatchObject({ id: 'aaaa-1111' });
    expect(findSession(userDir, root, { id: 'zzzz' })).toMatch(/No session "zzzz"/);
    expect(listSessions(userDir, '/work/other')).toEqual([]);
    expect(findSession(userDir, '/work/other', { latest: true })).toMatch(/no earlier session/);
  });

  it('a history record replaces the conversation (compression, resume)', () => {
    const file = sessionFile(userDir, '/p', 's');
    const recorder = new SessionRecorder(file, { sessionId: 's', cwd: '/p', model: 'm' });
    recorder.recordMessage(user('old'));
    recorder.recordMessage(answer('old answer'));
    recorder.recordHistoryReplaced([user('summary'), answer('ok')]);
    recorder.recordMessage(user('new'));
    recorder.recordMessage(answer('new answer'));
    expect(loadSession(file).history.map((m) => m.content)).toEqual([
      'summary',
      'ok',
      'new',
      'new answer',
    ]);
  });
});
