/**
 * What a tool is and shows, as every layer sees it: its kind (which decides parallelism,
 * plan mode and approvals), the files a call touches, and the displays a call leaves for
 * the person (a file change, a todo list). The tool contract itself (BaseTool) is
 * tools/tools.ts, which re-exports these.
 */

/** What a tool does to the world; decides parallelism, plan mode and approvals. */
export enum Kind {
  Read = 'read',
  Edit = 'edit',
  Delete = 'delete',
  Move = 'move',
  Search = 'search',
  Execute = 'execute',
  Think = 'think',
  Fetch = 'fetch',
  Other = 'other',
}

/** Kinds that leave the workspace unchanged: they may run side by side, and in plan mode. */
export const READ_ONLY_KINDS: ReadonlySet<Kind> = new Set([
  Kind.Read,
  Kind.Search,
  Kind.Think,
  Kind.Fetch,
]);

export function isReadOnlyKind(kind: Kind): boolean {
  return READ_ONLY_KINDS.has(kind);
}

/** A JSON Schema object, as tools declare their parameters. */
export type JsonSchema = Record<string, unknown>;

/** A file (and optionally a line) that a call reads or changes. */
export interface ToolLocation {
  path: string;
  line?: number;
}

/** Added/removed line and character counts of a change. */
export interface DiffStat {
  linesAdded: number;
  linesRemoved: number;
  charsAdded: number;
  charsRemoved: number;
}

/** The person-facing view of a file change. */
export interface FileDiff {
  fileDiff: string;
  fileName: string;
  filePath?: string;
  originalContent: string | null;
  newContent: string;
  diffStat: DiffStat;
}

export interface TodoItem {
  id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** A structured todo list, rendered by front ends as a checklist. */
export interface TodoListDisplay {
  type: 'todo_list';
  todos: TodoItem[];
}

export type ToolResultDisplay = string | FileDiff | TodoListDisplay;
