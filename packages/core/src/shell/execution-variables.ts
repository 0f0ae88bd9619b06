/**
 * The variables that change which program a command runs, or make it run another one, or
 * load code or configuration that does: one table, each entry with the reason it is here.
 * Setting one of them anywhere in a line (`X=… cmd`, `env X=… cmd`, `export X`, `read X`,
 * `for X in`, `${X:=…}`) makes the line *unclear*: it asks the person, and it is refused
 * while any deny rule for commands exists, whatever allow rules say. The table is the
 * documented list (docs: permission rules); reading more here only asks more.
 */

export interface ExecutionVariable {
  /** The variable's name, or a pattern of names (`LD_*`, `GIT_*`). */
  name: string;
  /** Why setting it changes what runs. */
  why: string;
}

export const EXECUTION_VARIABLE_TABLE: readonly ExecutionVariable[] = [
  // Where programs are found and how they are loaded.
  { name: 'PATH', why: 'where programs are looked up' },
  { name: 'LD_*', why: 'the dynamic loader preloads or finds libraries (LD_PRELOAD)' },
  { name: 'DYLD_*', why: "macOS's dynamic loader, as LD_*" },
  { name: 'GCONV_PATH', why: 'glibc loads character-set modules from it' },
  // What the shell runs on its own.
  { name: 'BASH_ENV', why: 'a script every non-interactive bash runs first' },
  { name: 'ENV', why: 'a script sh and interactive shells run first' },
  { name: 'SHELLOPTS', why: 'turns on shell options (xtrace with PS4)' },
  { name: 'BASHOPTS', why: 'turns on shell options' },
  { name: 'PS4', why: 'expanded (and its substitutions run) before each traced command' },
  { name: 'IFS', why: 'changes how words split, so a line means another command' },
  { name: 'PROMPT_COMMAND', why: 'run before each prompt' },
  { name: 'BASH_FUNC_*', why: 'exported functions that stand in for commands' },
  { name: 'BASH_LOADABLES_PATH', why: 'where enable loads builtins from' },
  { name: 'BASH_CMDS', why: "bash's table of where commands are" },
  { name: 'BASH_ALIASES', why: 'aliases that stand in for commands' },
  { name: 'CDPATH', why: 'where cd goes, so later relative names mean other files' },
  { name: 'GLOBIGNORE', why: 'changes what patterns expand to' },
  { name: 'EXECIGNORE', why: 'changes which programs are found' },
  { name: 'SHELL', why: 'the shell programs start for commands (make, script, editors)' },
  { name: 'ZDOTDIR', why: 'where zsh reads its startup scripts' },
  { name: 'INPUTRC', why: "readline's key bindings, which can run commands" },
  // Configuration folders: a config file there can name programs to run.
  { name: 'HOME', why: 'where programs read their own configuration (~/.gitconfig, ~/.npmrc…)' },
  {
    name: 'XDG_CONFIG_HOME',
    why: 'where git and others read configuration ($XDG_CONFIG_HOME/git/config)',
  },
  { name: 'XDG_CONFIG_DIRS', why: 'more configuration folders, as XDG_CONFIG_HOME' },
  // Git: every GIT_ variable, named here by kind.
  {
    name: 'GIT_*',
    why: 'git reads configuration (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, GIT_CONFIG_PARAMETERS), programs (GIT_EXEC_PATH, GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_EDITOR, GIT_SSH, GIT_SSH_COMMAND, GIT_ASKPASS, GIT_PROXY_COMMAND) and which repository it works on (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY) from them',
  },
  // Programs other programs start.
  { name: 'PAGER', why: 'the pager git, man and others start' },
  { name: 'MANPAGER', why: 'the pager man starts' },
  { name: '*_PAGER', why: "a program's pager (SYSTEMD_PAGER, BAT_PAGER…)" },
  { name: 'EDITOR', why: 'the editor programs start' },
  { name: 'VISUAL', why: 'the editor programs start' },
  { name: '*_EDITOR', why: "a program's editor (SYSTEMD_EDITOR, SVN_EDITOR…)" },
  { name: 'BROWSER', why: 'the browser programs start' },
  { name: 'LESSOPEN', why: 'a program less runs on every file' },
  { name: 'LESSCLOSE', why: 'a program less runs after every file' },
  { name: 'SSH_ASKPASS', why: 'the program ssh asks for passwords with' },
  { name: 'SUDO_ASKPASS', why: 'the program sudo asks for passwords with' },
  { name: '*_COMMAND', why: 'a command line a program runs (FZF_DEFAULT_COMMAND…)' },
  { name: '*_CMD', why: 'a command line a program runs' },
  { name: '*_PROGRAM', why: 'a program another one runs' },
  // Interpreters that load code from their environment.
  { name: 'NODE_OPTIONS', why: 'node options, --require among them' },
  { name: 'NODE_PATH', why: 'where node finds modules' },
  {
    name: 'npm_config_*',
    why: 'npm configuration (script-shell, node-options…); npm reads it in any case',
  },
  { name: 'NPM_CONFIG_*', why: 'npm configuration, as npm_config_*' },
  {
    name: 'PYTHON*',
    why: 'python startup scripts, module paths and options (PYTHONSTARTUP, PYTHONPATH, PYTHONHOME…)',
  },
  { name: 'PERL5OPT', why: 'perl options, -M among them' },
  { name: 'PERL5LIB', why: 'where perl finds modules' },
  { name: 'PERLLIB', why: 'where perl finds modules' },
  { name: 'PERL5DB', why: "code perl's debugger runs" },
  { name: 'RUBYOPT', why: 'ruby options, -r among them' },
  { name: 'RUBYLIB', why: 'where ruby finds libraries' },
  { name: 'LUA_INIT*', why: 'code lua runs first' },
  { name: 'LUA_PATH*', why: 'where lua finds modules' },
  { name: 'JAVA_TOOL_OPTIONS', why: 'java options, -javaagent among them' },
  { name: '_JAVA_OPTIONS', why: 'java options' },
  { name: 'JDK_JAVA_OPTIONS', why: 'java options' },
  { name: 'CLASSPATH', why: 'where java finds classes' },
  { name: 'GOFLAGS', why: 'go flags, -toolexec among them' },
  { name: 'RUSTC_WRAPPER', why: 'a program cargo runs instead of rustc' },
  { name: 'CARGO_*', why: 'cargo configuration (runners, wrappers, its home folder)' },
  // Tools whose configuration runs programs.
  { name: 'RIPGREP_CONFIG_PATH', why: 'rg options, --pre (a program per file) among them' },
  { name: 'GREP_OPTIONS', why: 'grep options' },
  { name: 'TAR_OPTIONS', why: 'tar options, --to-command among them' },
  { name: 'DOCKER_CONFIG', why: 'docker configuration, credential helpers among it' },
  { name: 'KUBECONFIG', why: 'kubectl configuration, exec credential plugins among it' },
  { name: 'AWS_CONFIG_FILE', why: 'AWS configuration, credential_process among it' },
];

function namePattern(name: string): string {
  return name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '\\w*');
}

/** Every name of the table as one pattern. */
export const EXECUTION_VARIABLES = new RegExp(
  `^(?:${EXECUTION_VARIABLE_TABLE.map((entry) => namePattern(entry.name)).join('|')})$`,
);
