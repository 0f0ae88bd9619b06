/** Tool names in Claude Code's and other agents' subagent files, mapped to toolhost's. */
export const FOREIGN_TOOL_NAMES: Readonly<Record<string, string>> = {
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit',
  MultiEdit: 'edit',
  Grep: 'grep_search',
  Glob: 'glob',
  LS: 'list_directory',
  Bash: 'run_shell_command',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  TodoWrite: 'todo_write',
  Task: 'task',
  NotebookRead: 'read_file',
};
