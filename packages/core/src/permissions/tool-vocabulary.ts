/**
 * The tool names a rule may use: toolhost's own (`run_shell_command`, `read_file`...),
 * their display names, and the names Claude Code and Qwen Code users write (`Bash`, `Read`,
 * `Edit`, `Write`, `WebFetch`...). `Read` and `Edit` are groups, as in both of those:
 * `Read` covers every tool that reads files, `Edit` every tool that changes them.
 */

/** What kind of value a rule's specifier is matched against, by tool. */
export type SpecifierKind = 'command' | 'path' | 'domain' | 'literal';

export const SHELL_TOOL = 'run_shell_command';

/** Tools whose calls name files they read; `Read(...)` rules apply to all of them. */
export const READING_TOOLS: readonly string[] = [
  'read_file',
  'read_many_files',
  'grep_search',
  'glob',
  'list_directory',
];

/** Tools that change files; `Edit(...)` rules apply to both. */
export const EDITING_TOOLS: readonly string[] = ['edit', 'write_file'];

/** Rule names (any case as written here) and the toolhost tools they cover. */
const NAMES: Readonly<Record<string, readonly string[]>> = {
  Bash: [SHELL_TOOL],
  Shell: [SHELL_TOOL],
  ShellTool: [SHELL_TOOL],
  run_shell_command: [SHELL_TOOL],
  Read: READING_TOOLS,
  ReadFile: ['read_file'],
  ReadFileTool: ['read_file'],
  read_file: ['read_file'],
  ReadManyFiles: ['read_many_files'],
  read_many_files: ['read_many_files'],
  Grep: ['grep_search'],
  GrepTool: ['grep_search'],
  SearchFiles: ['grep_search'],
  SearchText: ['grep_search'],
  search_file_content: ['grep_search'],
  grep_search: ['grep_search'],
  Glob: ['glob'],
  GlobTool: ['glob'],
  FindFiles: ['glob'],
  glob: ['glob'],
  LS: ['list_directory'],
  ListFiles: ['list_directory'],
  ListFilesTool: ['list_directory'],
  ReadFolder: ['list_directory'],
  list_directory: ['list_directory'],
  Edit: EDITING_TOOLS,
  MultiEdit: ['edit'],
  EditTool: ['edit'],
  replace: ['edit'],
  edit: ['edit'],
  Write: ['write_file'],
  WriteFile: ['write_file'],
  WriteFileTool: ['write_file'],
  write_file: ['write_file'],
  WebFetch: ['web_fetch'],
  WebFetchTool: ['web_fetch'],
  web_fetch: ['web_fetch'],
  WebSearch: ['web_search'],
  WebSearchTool: ['web_search'],
  google_web_search: ['web_search'],
  web_search: ['web_search'],
  Task: ['task'],
  Agent: ['task'],
  agent: ['task'],
  task: ['task'],
  TodoWrite: ['todo_write'],
  todo_write: ['todo_write'],
  SaveMemory: ['save_memory'],
  save_memory: ['save_memory'],
  ExitPlanMode: ['exit_plan_mode'],
  exit_plan_mode: ['exit_plan_mode'],
};

/**
 * The one toolhost tool each tool name of Claude Code (and agents that copy its names)
 * stands for, where a single tool is meant rather than a rule's group: a subagent file's
 * `tools:` list and a hook's matcher name tools, so `Read` there is read_file alone.
 */
const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit',
  MultiEdit: 'edit',
  Grep: 'grep_search',
  Glob: 'glob',
  LS: 'list_directory',
  Bash: SHELL_TOOL,
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  TodoWrite: 'todo_write',
  Task: 'task',
  NotebookRead: 'read_file',
};

/** The toolhost tool a Claude Code tool name stands for, or undefined for another name. */
export function claudeToolTarget(name: string): string | undefined {
  return Object.hasOwn(CLAUDE_TOOL_NAMES, name) ? CLAUDE_TOOL_NAMES[name] : undefined;
}

/** The Claude Code names of a toolhost tool (`Bash` for run_shell_command), none for most. */
export function claudeNamesOf(tool: string): string[] {
  return Object.keys(CLAUDE_TOOL_NAMES).filter((name) => CLAUDE_TOOL_NAMES[name] === tool);
}

/**
 * The toolhost tools a rule name covers, or undefined for a name this table does not know
 * (an MCP or discovered tool's own name, matched as written).
 */
export function toolsNamed(ruleName: string): readonly string[] | undefined {
  return Object.hasOwn(NAMES, ruleName) ? NAMES[ruleName] : undefined;
}

export function specifierKind(tool: string): SpecifierKind {
  if (tool === SHELL_TOOL) return 'command';
  if (READING_TOOLS.includes(tool) || EDITING_TOOLS.includes(tool)) return 'path';
  if (tool === 'web_fetch') return 'domain';
  return 'literal';
}

/** The name a saved rule uses for a tool: Claude Code's, which Qwen Code reads too. */
export function ruleNameFor(tool: string): string {
  switch (tool) {
    case SHELL_TOOL:
      return 'Bash';
    case 'read_file':
    case 'read_many_files':
    case 'grep_search':
    case 'glob':
    case 'list_directory':
      return 'Read';
    case 'edit':
    case 'write_file':
      return 'Edit';
    case 'web_fetch':
      return 'WebFetch';
    case 'web_search':
      return 'WebSearch';
    default:
      return tool;
  }
}
