/**
 * The `toolhost` command line. Each command's code (and the core, MCP, web and model
 * modules behind it) is imported only when that command runs, so `toolhost --version` or
 * `toolhost tools` never loads what `toolhost mcp` needs: keep new commands' imports inside
 * their action, as below.
 */
import { createRequire } from 'node:module';
import type * as commander from 'commander';
import { addExtensionsCommands } from './commands/extensions/extensions-commands.js';
import type { McpCommandOptions } from './commands/mcp-command.js';
import { addMcpManageCommands } from './commands/mcp-manage/mcp-commands.js';
import type { RestoreOptions } from './commands/restore-command.js';
import { type AgentFlags, addAgentOptions } from './conversation/agent-flags.js';
import { checkPromptInteractive } from './conversation/qwen-flags.js';
import { ExitCode, UsageError } from './errors.js';
import { EXAMPLES, HELP_WIDTH } from './help-text.js';
import { createStyle, wantsColor } from './render.js';
import { collectDirectories, type WorkspaceOptions } from './workspace-options.js';

const requireHere = createRequire(import.meta.url);
const { version } = requireHere('../package.json') as { version: string };
// commander is CommonJS: required, Node loads it as it is; imported, Node also loads its ES
// module wrapper and scans its source for the names it exports, a few ms of every start.
// Either way Node's own resolution finds it from here (the "require" entry of its exports).
const { Command, CommanderError, Option } = requireHere('commander') as typeof commander;
type Command = commander.Command;

/** Gathers a repeatable option's values. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

function addWorkspaceOptions(command: Command): Command {
  return command
    .option('--root <dir>', 'project root folder (default: the current folder)')
    .option(
      '--include-directories <dirs>',
      'more workspace folders, comma-separated (repeatable)',
      collectDirectories,
    )
    .addOption(
      new Option('--approval-mode <mode>', 'when calls need confirmation').choices([
        'plan',
        'default',
        'auto-edit',
        'yolo',
      ]),
    )
    .option(
      '--mcp-config <file|json>',
      'more MCP servers for this run: a file or JSON with { "mcpServers": ... } (repeatable)',
      collect,
    );
}

export interface ProgramIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Whether stdin is a terminal, asked without making process.stdin (see index.ts). */
  stdinIsTerminal?: () => boolean;
  /** Ends the process at once (a second Ctrl+C); defaults to process.exit. */
  exitNow?: (code: number) => void;
}

/** Runs the command line and resolves with the exit code. */
export async function runProgram(argv: string[], io: ProgramIo): Promise<number> {
  const warn = (line: string) => io.stderr.write(`toolhost: ${line}\n`);
  let exitCode: number = ExitCode.Success;
  const program = new Command('toolhost')
    .description(
      'The tools core of a coding agent: run its tools from the terminal, list them for a model, or serve them.',
    )
    .version(version, '-v, --version')
    .showHelpAfterError('(run toolhost --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    // At most 100 columns however wide the terminal (longer lines are hard to read).
    .configureHelp({
      helpWidth: Math.min(io.stdout.columns || 80, HELP_WIDTH),
      // Long option names (mcp add ...) still leave their descriptions a column to wrap in.
      minWidthToWrap: 20,
    })
    .addHelpText('after', EXAMPLES)
    .exitOverride()
    // The agent's options go before a subcommand's name; a subcommand keeps its own.
    .enablePositionalOptions()
    .argument('[prompt...]', 'the task for the agent (headless: runs it and exits)');
  addAgentOptions(program).action(async (positional: string[], flags: AgentFlags) => {
    if (flags.acp) {
      if (positional.length > 0 || flags.prompt !== undefined) {
        throw new UsageError(
          '--acp serves an editor, which sends the prompts; drop the prompt, or drop --acp to run it here.',
        );
      }
      const { runAcp } = await import('./acp/acp-agent.js');
      exitCode = await runAcp(flags, io);
      return;
    }
    // Only the agent's own start needs it: the subcommands never load it.
    const { rejectMistypedCommand } = await import('./mistyped-command.js');
    rejectMistypedCommand(
      program.commands.map((command) => command.name()),
      positional,
      flags.prompt,
    );
    if (flags.inputFormat === 'stream-json') {
      // The session reads standard input line by line for as long as it stays open.
      const { runStreamConversation } = await import('./stream-input/stream-conversation.js');
      exitCode = await runStreamConversation(flags, positional, {
        ...io,
        exitNow: io.exitNow ?? ((code) => process.exit(code)),
        version,
      });
      return;
    }
    const { readPipedInput, runHeadless } = await import('./agent/headless.js');
    const piped = await readPipedInput(io.stdin);
    checkPromptInteractive(flags, positional, piped, Boolean(io.stdin.isTTY && io.stdout.isTTY));
    if (!piped.trim() && positional.length === 0 && flags.prompt === undefined) {
      if (io.stdin.isTTY && io.stdout.isTTY) {
        // `toolhost` alone in a terminal: the interactive app (Ink is loaded only here).
        const { runInteractive } = await import('./ui/interactive.js');
        exitCode = await runInteractive(flags, io);
        return;
      }
      // Nothing to do and nobody to talk to: say what the command does.
      program.outputHelp();
      return;
    }
    exitCode = await runHeadless(flags, positional, piped, {
      ...io,
      exitNow: io.exitNow ?? ((code) => process.exit(code)),
      version,
    });
  });

  addWorkspaceOptions(
    program
      .command('tools')
      .description('List the active tools with their declarations.')
      .option(
        '--json',
        'print a JSON array of function declarations (name, description, parametersJsonSchema)',
      ),
  ).action(async (options: WorkspaceOptions & { json?: boolean }) => {
    const { openWorkspaceToolsFromFlags, closeWorkspaceTools } = await import(
      './workspace-tools.js'
    );
    const { runToolsCommand } = await import('./commands/tools-command.js');
    const session = await openWorkspaceToolsFromFlags(options, warn);
    try {
      // A listing is complete only once every source has answered or failed.
      await session.registry.whenDiscoveryComplete();
      io.stdout.write(
        `${runToolsCommand(session, options, createStyle(wantsColor(io.stdout)), warn)}\n`,
      );
    } finally {
      await closeWorkspaceTools(session);
    }
  });

  addWorkspaceOptions(
    program
      .command('call')
      .description(
        'Run one tool call, as a model would, through validation, confirmation and execution.',
      )
      .argument('<tool>', 'the tool name, e.g. read_file')
      .argument(
        '[json-args]',
        'the arguments as one JSON object, or - to read them from standard input',
      )
      .option('--json', 'print one JSON object with the result and the exact function response')
      .option('-y, --yes', 'approve the call if it needs confirmation'),
  ).action(
    async (
      toolName: string,
      rawArgs: string | undefined,
      options: WorkspaceOptions & { json?: boolean; yes?: boolean },
    ) => {
      const { openWorkspaceToolsFromFlags, closeWorkspaceTools } = await import(
        './workspace-tools.js'
      );
      const { runCallCommand } = await import('./commands/call-command.js');
      // On a terminal the person answers the call's questions (unless stdin carries the arguments).
      const urlElicitation = rawArgs !== '-' && (io.stdinIsTerminal?.() ?? Boolean(io.stdin.isTTY));
      const session = await openWorkspaceToolsFromFlags(
        { ...options, urlElicitation },
        warn,
        toolName,
      );
      try {
        exitCode = await runCallCommand(session, toolName, rawArgs, options, {
          stdout: io.stdout,
          stderr: io.stderr,
          // Read only if the call reads its arguments or asks (see index.ts).
          get stdin() {
            return io.stdin;
          },
          style: createStyle(wantsColor(io.stdout)),
        });
      } finally {
        // The session ends with this one call: MCP servers (even those still starting) and
        // background commands end too, unless settings keep the latter.
        await closeWorkspaceTools(session);
      }
    },
  );

  const mcp = addWorkspaceOptions(
    program
      .command('mcp')
      .description("Serve toolhost's tools over MCP (stdio by default) to any MCP client.")
      .option(
        '--http [port]',
        'serve streamable HTTP instead, on 127.0.0.1 unless --host says otherwise (no port or 0: a free one)',
      )
      .option(
        '--host <address>',
        'HTTP: the address to listen on (default 127.0.0.1; 0.0.0.0 in a container, behind a router; needs a token you chose)',
      )
      .option(
        '--allowed-hosts <names>',
        'HTTP: host names (comma-separated) clients may reach it by, besides 127.0.0.1 and localhost',
      )
      .option(
        '--token <token>',
        'bearer token HTTP clients must send (default: $TOOLHOST_MCP_TOKEN, else a new one, printed)',
      )
      .option(
        '--token-file <path>',
        'HTTP: read the bearer token from this file (a mounted secret)',
      )
      .option(
        '--session-idle-timeout <seconds>',
        'HTTP: end a session after this long without requests (default 1800)',
      )
      .option(
        '--max-sessions <n>',
        'HTTP: live sessions at most; at the limit the least recently used idle one ends (default 100)',
      )
      .option(
        '--max-sessions-per-client <n>',
        'HTTP: sessions one client address may hold (default 0: no limit of its own)',
      )
      .option(
        '--keep-alive <seconds>',
        'HTTP: keep-alive and liveness ping on open streams this often; unresponsive ones close (default 15)',
      )
      .option(
        '--shutdown-grace <seconds>',
        'HTTP: on SIGTERM, time running calls get to finish before they are cancelled (default 10)',
      )
      .option('--log-json', 'HTTP: one JSON line on stderr per session start/end and refusal'),
  ).action(async (options: WorkspaceOptions & McpCommandOptions) => {
    const { openWorkspaceToolsFromFlags, closeWorkspaceTools } = await import(
      './workspace-tools.js'
    );
    const { runMcpCommand } = await import('./commands/mcp-command.js');
    const session = await openWorkspaceToolsFromFlags(options, warn);
    try {
      exitCode = await runMcpCommand(session, options, io.stderr, version);
    } finally {
      await closeWorkspaceTools(session);
    }
  });
  mcp
    .command('auth')
    .description('Sign in to a remote MCP server with OAuth (opens the sign-in page in a browser).')
    .argument('<server>', 'the server name in mcpServers')
    .option('--no-browser', 'only print the sign-in page, do not open a browser')
    .action(async (server: string, options: { browser?: boolean }) => {
      const { runMcpAuthCommand } = await import('./commands/mcp-auth-command.js');
      // --root belongs to "mcp" and may stand before or after "auth".
      await runMcpAuthCommand(server, { ...mcp.opts<WorkspaceOptions>(), ...options }, io.stderr);
    });
  addMcpManageCommands(mcp, {
    stdout: io.stdout,
    stderr: io.stderr,
    warn,
    done: (code) => {
      exitCode = code;
    },
  });
  mcp
    .command('logout')
    .description("Sign out of a remote MCP server: delete toolhost's tokens for it.")
    .argument('<server>', 'the server name in mcpServers')
    .action(async (server: string) => {
      const { runMcpLogoutCommand } = await import('./commands/mcp-auth-command.js');
      await runMcpLogoutCommand(server, mcp.opts<WorkspaceOptions>(), io.stderr);
    });

  addExtensionsCommands(program, io, (code) => {
    exitCode = code;
  });

  program
    .command('sessions')
    .description("List this project's agent sessions, newest first (resume one with -r <id>).")
    .option('--root <dir>', 'project root folder (default: the current folder)')
    .option('--json', 'print them as a JSON array')
    .action(async (options: { root?: string; json?: boolean }) => {
      const { runSessionsCommand } = await import('./commands/sessions-command.js');
      runSessionsCommand(options, io.stdout);
    });

  program
    .command('restore')
    .description(
      "List the project's checkpoints, or bring the files and the conversation back to one.",
    )
    .argument('[id]', 'the checkpoint to restore (or a unique prefix); without it, list them')
    .option('--root <dir>', 'project root folder (default: the current folder)')
    .option('-y, --yes', 'restore without asking (for scripts)')
    .option('--session <id>', "list only this session's checkpoints")
    .option('--all', 'list every checkpoint, not only the newest 20')
    .option('--json', 'print the list as a JSON array')
    .action(async (id: string | undefined, options: RestoreOptions) => {
      const { runRestoreCommand } = await import('./commands/restore-command.js');
      exitCode = await runRestoreCommand(id, options, io);
    });

  program
    .command('trust')
    .description(
      'Trust a project folder, so its own settings apply in full (untrusted, they may only make toolhost stricter).',
    )
    .argument('[dir]', 'the folder (default: the current folder)')
    .option('--revoke', 'stop trusting it')
    .action(async (dir: string | undefined, options: { revoke?: boolean }) => {
      const { runTrustCommand } = await import('./commands/trust-command.js');
      await runTrustCommand(dir, options, io.stdout);
    });

  const settingsCommand = program.command('settings').description('Help with settings files.');
  settingsCommand
    .command('schema')
    .description(
      'Print the JSON Schema of settings.json (save it and point "$schema" at it, or use --path).',
    )
    .option('--path', 'print where the installed schema file is instead')
    .action(async (options: { path?: boolean }) => {
      const { getSettingsSchema, settingsSchemaPath } = await import('@toolhost/core/config');
      io.stdout.write(
        options.path
          ? `${settingsSchemaPath()}\n`
          : `${JSON.stringify(getSettingsSchema(), null, 2)}\n`,
      );
    });

  program
    .command('doctor')
    .description('Check whether this machine runs commands as toolhost promises (the OS sandbox).')
    .option(
      '--root <dir>',
      'project root folder whose settings apply (default: the current folder)',
    )
    .action(async (options: { root?: string }) => {
      const { runDoctorCommand } = await import('./commands/doctor-command.js');
      exitCode = runDoctorCommand(options, io.stdout);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      const benign = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
      return benign.includes(error.code) ? ExitCode.Success : ExitCode.Usage;
    }
    if (error instanceof UsageError) {
      warn(error.message);
      return ExitCode.Usage;
    }
    throw error;
  }
}
