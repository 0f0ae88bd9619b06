import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../../test/helpers/temp-workspace.js';
import { createToolRegistry } from '../../tools/builtin.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { AgentToolCall } from '../agent-events.js';
import { changingCalls } from './batch-changes.js';

let ws: TempWorkspace;
let registry: ToolRegistry;
beforeEach(() => {
  ws = makeWorkspace();
  registry = createToolRegistry(ws.config);
});
afterEach(async () => {
  await ws.config.dispose();
  ws.cleanup();
});

const call = (name: string, args: Record<string, unknown>): AgentToolCall => ({
  id: name,
  name,
  args,
});
const shell = (command: string) => call('run_shell_command', { command, is_background: false });
const changing = async (...calls: AgentToolCall[]) =>
  (await changingCalls(calls, registry, ws.config)).map((c) => c.name);

describe('which batches need a checkpoint', () => {
  it('reads, searches and read-only shell lines do not', async () => {
    ws.write('a.txt', 'a');
    expect(
      await changing(
        call('read_file', { absolute_path: ws.p('a.txt') }),
        call('glob', { pattern: '*.txt' }),
        call('grep_search', { pattern: 'a' }),
        call('todo_write', { todos: [] }),
        shell('ls -la && cat a.txt | wc -l'),
        shell('git status'),
      ),
    ).toEqual([]);
  });

  it('writes, edits, memory, changing or unclear shell lines, unknown tools and subagents do', async () => {
    expect(
      await changing(
        call('write_file', { file_path: ws.p('b.txt'), content: 'b' }),
        call('save_memory', { fact: 'x' }),
        shell('rm -rf build'),
        shell('cat a.txt > b.txt'),
        shell('eval "$(cat script)"'),
        call('some_mcp_tool_not_here', {}),
      ),
    ).toEqual([
      'write_file',
      'save_memory',
      'run_shell_command',
      'run_shell_command',
      'run_shell_command',
      'some_mcp_tool_not_here',
    ]);
  });

  it('describes each changing call on one line, and skips calls with unparseable arguments', async () => {
    const described = await changingCalls(
      [
        call('write_file', { file_path: ws.p('notes.txt'), content: 'x\ny' }),
        { id: 'bad', name: 'write_file', args: {}, malformedArguments: '{oops' },
      ],
      registry,
      ws.config,
    );
    expect(described).toHaveLength(1);
    expect(described[0]?.description).toContain('notes.txt');
    expect(described[0]?.description).not.toContain('\n');
  });
});
