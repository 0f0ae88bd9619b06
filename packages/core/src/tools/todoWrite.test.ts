import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { TodoWriteTool } from './todoWrite.js';

let ws: TempWorkspace;
let tool: TodoWriteTool;
beforeEach(() => {
  ws = makeWorkspace();
  tool = new TodoWriteTool(ws.config);
});
afterEach(() => ws.cleanup());

const todos = [
  { id: '1', content: 'Read the code', status: 'completed' as const },
  { id: '2', content: 'Write the fix', status: 'in_progress' as const },
  { id: '3', content: 'Run the tests', status: 'pending' as const },
];

describe('todo_write', () => {
  it('keeps the list for the session, saves it, and gives it back to the model', async () => {
    const result = await tool.execute({ todos });
    expect(result.llmContent).toBe(
      'Todo list updated: 1 completed, 1 in progress, 1 pending.\n[x] Read the code (1)\n[~] Write the fix (2)\n[ ] Run the tests (3)',
    );
    expect(result.returnDisplay).toEqual({ type: 'todo_list', todos });
    expect(ws.config.todos).toEqual(todos);
    expect(tool.storePath).toBe(`${ws.home}/.toolhost/todos/${ws.config.sessionId}.json`);
    expect(JSON.parse(readFileSync(tool.storePath, 'utf8'))).toEqual({
      sessionId: ws.config.sessionId,
      todos,
    });
  });

  it('replaces the whole list each call', async () => {
    await tool.execute({ todos });
    await tool.execute({ todos: [{ id: '9', content: 'Only this', status: 'pending' }] });
    expect(ws.config.todos.map((t) => t.id)).toEqual(['9']);
    expect((await tool.execute({ todos: [] })).llmContent).toBe('The todo list is now empty.');
  });

  it('refuses duplicate ids, empty content and two steps in progress', () => {
    expect(tool.validateToolParams({ todos: [todos[0], { ...todos[1], id: '1' }] })).toBe(
      'todo ids must be unique; "1" appears more than once',
    );
    expect(tool.validateToolParams({ todos: [{ id: 'a', content: '', status: 'pending' }] })).toBe(
      'todos[0].content must NOT have fewer than 1 characters',
    );
    expect(
      tool.validateToolParams({ todos: [{ id: 'a', content: '   ', status: 'pending' }] }),
    ).toBe('todos[0].content must describe the step');
    expect(
      tool.validateToolParams({ todos: [{ ...todos[1] }, { ...todos[2], status: 'in_progress' }] }),
    ).toMatch(/only one todo may be in_progress at a time; "2", "3" are/);
    expect(tool.validateToolParams({ todos: [{ id: 'a', content: 'x', status: 'done' }] })).toBe(
      'todos[0].status must be one of "pending", "in_progress", "completed"',
    );
  });
});
