/**
 * The titles MCP clients show for toolhost's tools. Built-in tools carry short internal
 * display names ("ReadFile", "Grep") that read like code in a client's tool list, so the
 * server gives each a title in words; other tools (an MCP server's, a discovered one) keep
 * the title they came with.
 */
const BUILT_IN_TITLES: Readonly<Record<string, string>> = {
  read_file: 'Read file',
  read_many_files: 'Read many files',
  write_file: 'Write file',
  edit: 'Edit file',
  list_directory: 'List directory',
  glob: 'Find files by name',
  grep_search: 'Search file contents',
  run_shell_command: 'Shell',
  web_fetch: 'Fetch web page',
  web_search: 'Web search',
  save_memory: 'Save memory',
  todo_write: 'Update to-do list',
  task: 'Hand task to a subagent',
  exit_plan_mode: 'Present plan',
  tool_search: 'Search tools',
};

/** A title for people: the built-in's, else the display name with CamelCase split into words. */
export function toolTitle(name: string, displayName: string): string {
  const builtIn = BUILT_IN_TITLES[name];
  if (builtIn) return builtIn;
  if (!/^[A-Z][a-z]+(?:[A-Z][a-z]+)+$/.test(displayName)) return displayName;
  const words = displayName.split(/(?=[A-Z])/);
  return [words[0], ...words.slice(1).map((word) => word.toLowerCase())].join(' ');
}
