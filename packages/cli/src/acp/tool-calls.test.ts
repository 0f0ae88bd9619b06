import type { ToolCall, ToolRegistry } from '@toolhost/core/tools';
import { type AnyTool, Kind } from '@toolhost/core/tools';
import { describe, expect, it } from 'vitest';
import { ToolCallTracker } from './tool-calls.js';

const writeTool = {
  name: 'write_file',
  displayName: 'WriteFile',
  kind: Kind.Edit,
  getDescription: (args: { file_path: string }) => `Write ${args.file_path}`,
  toolLocations: (args: { file_path: string }) => [{ path: args.file_path }],
} as unknown as AnyTool;
const registry = { getTool: () => writeTool } as unknown as ToolRegistry;

function call(status: ToolCall['status'], extra: Record<string, unknown> = {}): ToolCall {
  return {
    status,
    request: { callId: 'c1', name: 'write_file', args: { file_path: '/w/a.txt' } },
    ...(status === 'validating' ? {} : { tool: writeTool }),
    startTime: 0,
    ...extra,
  } as unknown as ToolCall;
}

const response = (resultDisplay: unknown, error?: string) => ({
  durationMs: 1,
  response: {
    callId: 'c1',
    llmContent: '',
    responseParts: [],
    resultDisplay,
    error: error ? { message: error, type: 'execution_failed' } : undefined,
  },
});

describe('ToolCallTracker', () => {
  it('a tool_call at first sight (the tool found by name while validating), then only changes', () => {
    const tracker = new ToolCallTracker(registry);
    expect(tracker.callsChanged([call('validating')])).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'WriteFile: Write /w/a.txt',
        kind: 'edit',
        status: 'pending',
        locations: [{ path: '/w/a.txt' }],
        rawInput: { file_path: '/w/a.txt' },
      },
    ]);
    // Waiting for approval is still pending: nothing new to say.
    expect(tracker.callsChanged([call('awaiting_approval')])).toEqual([]);
    expect(tracker.callsChanged([call('executing')])).toEqual([
      { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' },
    ]);
  });

  it('running output at most every 250 ms; a diff and a plan when done; a failure says why', () => {
    const tracker = new ToolCallTracker(registry);
    tracker.callsChanged([call('executing')]);
    expect(tracker.output('c1', 'one', 1000)).toMatchObject({
      content: [{ type: 'content', content: { type: 'text', text: 'one' } }],
    });
    expect(tracker.output('c1', 'one two', 1100)).toBeUndefined();
    expect(tracker.output('c1', 'one two three', 1300)).toBeDefined();
    const diff = {
      fileDiff: '',
      fileName: 'a.txt',
      filePath: '/w/a.txt',
      originalContent: 'old',
      newContent: 'new',
      diffStat: { linesAdded: 1, linesRemoved: 1, charsAdded: 3, charsRemoved: 3 },
    };
    expect(tracker.callsChanged([call('success', response(diff))])).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'completed',
        content: [{ type: 'diff', path: '/w/a.txt', oldText: 'old', newText: 'new' }],
      },
    ]);
    const todos = {
      type: 'todo_list',
      todos: [{ id: '1', content: 'Ship it', status: 'pending' }],
    };
    const other = new ToolCallTracker(registry);
    expect(other.callsChanged([call('success', response(todos))]).at(-1)).toEqual({
      sessionUpdate: 'plan',
      entries: [{ content: 'Ship it', priority: 'medium', status: 'pending' }],
    });
    const failed = new ToolCallTracker(registry);
    expect(failed.callsChanged([call('error', response(undefined, 'disk full'))]).at(-1)).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'disk full' } }],
    });
  });
});
