/** todo_write: the model's task list for this session, replaced whole on every call. */
import path from 'node:path';
import type { Config } from '../config/config.js';
import { FileWriteError, writeFileAtomic } from '../utils/atomic-write.js';
import {
  BaseTool,
  errorResult,
  Kind,
  type TodoItem,
  ToolErrorType,
  type ToolResult,
} from './tools.js';

export interface TodoWriteParams {
  todos: TodoItem[];
}

const DESCRIPTION = `Keeps a task list for the current work, so you and the person can follow progress. Send the whole list every time (it replaces the previous one).
Use it for work with several steps: write the steps as pending, mark one in_progress when you start it (at most one at a time), and completed as soon as it is done. Skip it for single, trivial requests.`;

const MARK: Record<TodoItem['status'], string> = {
  completed: '[x]',
  in_progress: '[~]',
  pending: '[ ]',
};

export class TodoWriteTool extends BaseTool<TodoWriteParams> {
  static readonly Name = 'todo_write';

  constructor(private readonly config: Config) {
    super(TodoWriteTool.Name, 'TodoWrite', DESCRIPTION, Kind.Think, {
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          description: 'The complete, updated list.',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string', description: 'A short id, unique in the list.' },
              content: { type: 'string', minLength: 1, description: 'What the step is.' },
              status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
            },
            required: ['id', 'content', 'status'],
          },
        },
      },
      required: ['todos'],
    });
  }

  protected override validateSemantics(params: TodoWriteParams): string | null {
    const seen = new Set<string>();
    for (const [index, todo] of params.todos.entries()) {
      if (todo.content.trim() === '') return `todos[${index}].content must describe the step`;
      if (seen.has(todo.id)) return `todo ids must be unique; "${todo.id}" appears more than once`;
      seen.add(todo.id);
    }
    const active = params.todos.filter((todo) => todo.status === 'in_progress');
    if (active.length > 1) {
      return `only one todo may be in_progress at a time; ${active.map((t) => `"${t.id}"`).join(', ')} are. Mark the others pending or completed.`;
    }
    return null;
  }

  override getDescription(params: TodoWriteParams): string {
    return `Update the todo list (${params.todos.length} items)`;
  }

  /** Where front ends find this session's list. */
  get storePath(): string {
    return path.join(this.config.userDir, 'todos', `${this.config.sessionId}.json`);
  }

  async execute(params: TodoWriteParams): Promise<ToolResult> {
    const todos = params.todos.map(({ id, content, status }) => ({
      id,
      content: content.trim(),
      status,
    }));
    this.config.todos = todos;
    try {
      await writeFileAtomic(
        this.storePath,
        Buffer.from(`${JSON.stringify({ sessionId: this.config.sessionId, todos }, null, 2)}\n`),
        {
          createParents: true,
        },
      );
    } catch (error) {
      if (error instanceof FileWriteError) {
        return errorResult(
          ToolErrorType.FILE_WRITE_FAILURE,
          `The list was updated for this session but could not be saved: ${error.message}`,
        );
      }
      throw error;
    }
    const count = (status: TodoItem['status']) =>
      todos.filter((todo) => todo.status === status).length;
    const summary =
      todos.length === 0
        ? 'The todo list is now empty.'
        : `Todo list updated: ${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending.`;
    const list = todos
      .map((todo) => `${MARK[todo.status]} ${todo.content} (${todo.id})`)
      .join('\n');
    return {
      llmContent: list ? `${summary}\n${list}` : summary,
      returnDisplay: { type: 'todo_list', todos },
    };
  }
}
