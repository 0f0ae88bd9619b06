/** What `toolhost --help` adds after the options: examples, exit codes, where settings live. */

/** Help lines stay within this many columns, however wide the terminal. */
export const HELP_WIDTH = 100;

export const EXAMPLES = `
Examples:
  $ toolhost -p "explain what src/main.ts does"        run the agent on one task and exit
  $ git diff | toolhost -p "review this change" -o json
  $ toolhost "add a --verbose flag" --approval-mode auto-edit --max-session-turns 30
  $ toolhost tools                          list the tools a model gets here
  $ toolhost tools --json                   the same, as function declarations
  $ toolhost call read_file '{"absolute_path": "/work/app/src/main.ts"}'
  $ toolhost call list_directory '{"path": "/work/app"}' --json
  $ echo '{"path": "/work/app"}' | toolhost call list_directory -
  $ toolhost call read_file '{"absolute_path": "/srv/notes.md"}' --include-directories /srv
  $ toolhost restore                        list checkpoints taken before the agent's changes
  $ toolhost restore 3f2a91c0               bring the files and the conversation back to one
  $ toolhost trust                          let this project's own settings apply in full
  $ toolhost doctor                         does the OS sandbox for commands work here?
  $ toolhost settings schema                the JSON Schema of settings.json
  $ toolhost mcp                            serve the tools to an MCP client over stdio
  $ toolhost mcp --http 8808 --approval-mode auto-edit
  $ toolhost --acp                          serve an editor (Zed, JetBrains...) over ACP on stdio

Exit codes of the agent: 0 done, 1 the run failed, 2 usage error (or no model configured),
53 the turn limit reached, 55 the tool-call or time budget spent, 130 interrupted (Ctrl+C;
143 and 129 after SIGTERM and SIGHUP).
Exit codes of "call": 0 success, 1 the tool reported an error, 2 usage error,
3 the call needed confirmation that was not given, 130 interrupted.
Model: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL; ANTHROPIC_MODEL, ANTHROPIC_API_KEY
(ANTHROPIC_BASE_URL); GEMINI_MODEL, GEMINI_API_KEY (or settings model.*, modelProviders,
or the flags).
In a terminal with no model configured, toolhost asks for one; /model switches between them.
Settings: ~/.toolhost/settings.json, <root>/.toolhost/settings.json, /etc/toolhost/settings.json.`;
