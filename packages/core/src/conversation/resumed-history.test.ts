import { afterEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import type { ChatMessage } from '../models/model-types.js';
import { createToolRegistry } from '../tools/builtin.js';
import { resumedItems } from './resumed-history.js';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

describe('a resumed conversation', () => {
  it('describes each call as a live row does, a parameter under its other name included', () => {
    ws = makeWorkspace();
    const file = ws.write('src/math.js', 'export const add = (a, b) => a + b;\n');
    const messages: ChatMessage[] = [
      { role: 'user', content: 'read math.js' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          // read_file takes file_path for absolute_path, as Claude's Read names it.
          {
            id: 'a',
            type: 'function',
            function: { name: 'read_file', arguments: JSON.stringify({ file_path: file }) },
          },
          {
            id: 'b',
            type: 'function',
            function: { name: 'run_shell_command', arguments: '{"command":"ls"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'export const add' },
      { role: 'tool', tool_call_id: 'b', content: 'Error: the command failed' },
    ];
    const items = resumedItems(messages, createToolRegistry(ws.config));
    expect(items[0]).toEqual({ kind: 'user', text: 'read math.js' });
    expect(items[1]).toMatchObject({
      kind: 'tools',
      calls: [
        { displayName: 'ReadFile', description: 'Read src/math.js', status: 'success' },
        { toolName: 'run_shell_command', status: 'error', failure: 'the command failed' },
      ],
    });
  });
});
