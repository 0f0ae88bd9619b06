/** The flags of the agent (`toolhost -p`, `toolhost "<prompt>"`), checked and turned into settings and limits. */

import { createRequire } from 'node:module';
import type { ApprovalMode, Settings } from '@toolhost/core/config';
import type { AgentLimits } from '@toolhost/core/conversation';
import type * as commander from 'commander';
import { UsageError } from '../errors.js';
import { providerFromAuthType } from './qwen-flags.js';

// Required, not imported, like program.ts does (why is said there).
const { Option } = createRequire(import.meta.url)('commander') as typeof commander;
type Command = commander.Command;

export type OutputFormat = 'text' | 'json' | 'stream-json';

/**
 * Claude Code's permission modes as toolhost's approval modes (toolhost's own names pass
 * too), for the flags and control requests of the SDKs.
 */
export const PERMISSION_MODES: Readonly<Record<string, ApprovalMode>> = {
  default: 'default',
  plan: 'plan',
  'auto-edit': 'auto-edit',
  yolo: 'yolo',
  acceptEdits: 'auto-edit',
  bypassPermissions: 'yolo',
};

export interface AgentFlags {
  prompt?: string;
  model?: string;
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  outputFormat?: string;
  includePartialMessages?: boolean;
  inputFormat?: string;
  jsonSchema?: string;
  approvalMode?: string;
  yolo?: boolean;
  allowedTools?: string[];
  excludeTools?: string[];
  mcpConfig?: string[];
  maxSessionTurns?: string;
  maxToolCalls?: string;
  maxWallTime?: string;
  maxSubagentDepth?: string;
  thinking?: string;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  continue?: boolean;
  resume?: string;
  sessionId?: string;
  /** Qwen Code's SDK names its channel; accepted so the SDK can start toolhost. */
  channel?: string;
  /** The Claude Agent SDK's flags for a stream-json session (see stream-input/). */
  verbose?: boolean;
  permissionPromptTool?: string;
  /** Claude's names for --approval-mode and --max-session-turns, as its SDK passes them. */
  permissionMode?: string;
  maxTurns?: string;
  root?: string;
  includeDirectories?: string[];
  screenReader?: boolean;
  acp?: boolean;
  /** Qwen Code's everyday flags (see qwen-flags.ts). */
  promptInteractive?: string;
  addDir?: string[];
  sandbox?: boolean;
  coreTools?: string[];
  authType?: string;
}

const collectList = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
];

export function addAgentOptions(command: Command): Command {
  return command
    .option('-p, --prompt <text>', 'run this prompt headless and exit (piped input is added to it)')
    .option('-m, --model <name>', 'model name (default: $OPENAI_MODEL or model.name)')
    .option('--openai-base-url <url>', 'OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)')
    .option('--openai-api-key <key>', 'API key (default: $OPENAI_API_KEY)')
    .addOption(
      new Option('-o, --output-format <format>', 'how the run is printed')
        .choices(['text', 'json', 'stream-json'])
        .default('text'),
    )
    .option(
      '--include-partial-messages',
      'with -o stream-json: also print the answer as it streams (stream_event lines)',
    )
    .addOption(
      new Option(
        '--input-format <format>',
        'stream-json: a multi-turn session fed JSON lines on stdin (needs -o stream-json)',
      ).choices(['text', 'stream-json']),
    )
    .option(
      '--json-schema <schema>',
      'the final answer must be JSON valid against this JSON Schema (JSON text or a file)',
    )
    .addOption(
      new Option('--approval-mode <mode>', 'when calls need approval').choices([
        'plan',
        'default',
        'auto-edit',
        'yolo',
      ]),
    )
    .option('-y, --yolo', 'approve every call (same as --approval-mode yolo)')
    .option(
      '--allowed-tools <tools>',
      'tools that run without asking, comma-separated; e.g. "run_shell_command(git)" (repeatable)',
      collectList,
    )
    .option(
      '--exclude-tools <tools>',
      'tools to leave out, comma-separated (repeatable)',
      collectList,
    )
    .option(
      '--mcp-config <file|json>',
      'more MCP servers for this run: a file or JSON with { "mcpServers": ... } (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--max-session-turns <n>', 'stop after this many model requests (exit 53)')
    .option('--max-tool-calls <n>', 'stop after this many tool calls (exit 55)')
    .option('--max-wall-time <duration>', 'stop after this long, e.g. 90s, 10m, 1h (exit 55)')
    .option('--max-subagent-depth <n>', 'how deep subagents may start subagents (default 2)')
    .option(
      '--thinking <level>',
      'ask the model to think before it answers: off, low, medium, high (model.thinking)',
    )
    .option('--system-prompt <text>', "replace toolhost's guidance in the system prompt")
    .option('--append-system-prompt <text>', 'add this to the system prompt')
    .option('-c, --continue', "continue this project's latest session")
    .option(
      '-r, --resume <session-id>',
      'continue the session with this id (see toolhost sessions)',
    )
    .option('--session-id <uuid>', 'start the new session under this id (for SDKs that name it)')
    .addOption(new Option('--channel <name>', 'accepted from SDKs; changes nothing').hideHelp())
    .addOption(new Option('--verbose', 'accepted from SDKs; changes nothing').hideHelp())
    .addOption(
      new Option('--permission-mode <mode>', 'Claude Code’s name for --approval-mode')
        .choices(Object.keys(PERMISSION_MODES))
        .hideHelp(),
    )
    .addOption(
      new Option('--max-turns <n>', 'Claude Code’s name for --max-session-turns').hideHelp(),
    )
    .addOption(
      new Option(
        '--permission-prompt-tool <name>',
        'stdio: approvals asked on stdout (the stream-json session does)',
      ).hideHelp(),
    )
    .option('--root <dir>', 'project root folder (default: the current folder)')
    .option(
      '--include-directories <dirs>',
      'more workspace folders, comma-separated (repeatable)',
      collectList,
    )
    .option(
      '-i, --prompt-interactive <text>',
      'run this prompt in the interactive terminal, then go on there',
    )
    .option(
      '--add-dir <dirs>',
      'same as --include-directories (Claude Code and Qwen Code)',
      collectList,
    )
    .option('-s, --sandbox', 'commands run only in the OS sandbox (tools.shell.sandbox "on")')
    .option(
      '--core-tools <tools>',
      'only these built-in tools, comma-separated (tools.core; repeatable)',
      collectList,
    )
    .option(
      '--auth-type <type>',
      "the model API: openai, anthropic or gemini (Qwen Code's name; as model.provider)",
    )
    .option('--acp', 'serve an editor over the Agent Client Protocol (JSON-RPC on stdin/stdout)')
    .option(
      '--screen-reader',
      'interactive terminal: plain lines for screen readers (no spinners or redrawn areas)',
    );
}

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
    throw new UsageError(`${flag} takes a whole number of 1 or more; got "${value}".`);
  }
  return Number(value);
}

/** `90`, `90s`, `10m`, `1.5h`, `500ms` → milliseconds. */
export function parseDuration(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(value.trim());
  const amount = match ? Number(match[1]) : Number.NaN;
  if (!match || !(amount > 0)) {
    throw new UsageError(`${flag} takes a duration such as 90s, 10m or 1h; got "${value}".`);
  }
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's'] ?? 1000;
  return Math.round(amount * unit);
}

export function limitsFrom(flags: AgentFlags): AgentLimits {
  const maxTurns =
    flags.maxTurns !== undefined && flags.maxSessionTurns === undefined
      ? positiveInteger('--max-turns', flags.maxTurns)
      : positiveInteger('--max-session-turns', flags.maxSessionTurns);
  const maxToolCalls = positiveInteger('--max-tool-calls', flags.maxToolCalls);
  const maxWallTimeMs = parseDuration('--max-wall-time', flags.maxWallTime);
  return {
    ...(maxTurns ? { maxTurns } : {}),
    ...(maxToolCalls ? { maxToolCalls } : {}),
    ...(maxWallTimeMs ? { maxWallTimeMs } : {}),
  };
}

/** The flag's depth; undefined leaves it to model.maxSubagentDepth (default 2). */
export function subagentDepthFrom(flags: AgentFlags): number | undefined {
  if (flags.maxSubagentDepth === '0') return 0;
  return positiveInteger('--max-subagent-depth', flags.maxSubagentDepth);
}

/** The settings the flags give: the highest layer, above files and environment. */
export function settingsFrom(flags: AgentFlags): Settings {
  const model: NonNullable<Settings['model']> = {};
  if (flags.model) model.name = flags.model;
  if (flags.openaiBaseUrl) model.baseUrl = flags.openaiBaseUrl;
  if (flags.openaiApiKey) model.apiKey = flags.openaiApiKey;
  const provider = providerFromAuthType(flags.authType);
  if (provider) model.provider = provider;
  if (flags.thinking !== undefined) model.thinking = thinkingFrom(flags.thinking);
  const tools: NonNullable<Settings['tools']> = {};
  if (flags.allowedTools?.length) tools.allowed = flags.allowedTools;
  if (flags.excludeTools?.length) tools.exclude = flags.excludeTools;
  if (flags.coreTools?.length) tools.core = flags.coreTools;
  if (flags.sandbox) tools.shell = { sandbox: 'on' };
  return {
    ...(Object.keys(model).length > 0 ? { model } : {}),
    ...(Object.keys(tools).length > 0 ? { tools } : {}),
  };
}

const THINKING_LEVELS = ['off', 'low', 'medium', 'high'] as const;

function thinkingFrom(value: string): (typeof THINKING_LEVELS)[number] {
  const level = THINKING_LEVELS.find((known) => known === value.trim().toLowerCase());
  if (!level)
    throw new UsageError(
      `--thinking takes ${THINKING_LEVELS.join(', ')}; "${value}" is none of them.`,
    );
  return level;
}

export function approvalModeFrom(flags: AgentFlags): string | undefined {
  const claudeMode = flags.permissionMode ? PERMISSION_MODES[flags.permissionMode] : undefined;
  if (claudeMode && flags.approvalMode && flags.approvalMode !== claudeMode) {
    throw new UsageError(
      `--permission-mode ${flags.permissionMode} and --approval-mode ${flags.approvalMode} contradict each other; pass one.`,
    );
  }
  const mode = flags.approvalMode ?? claudeMode;
  if (flags.yolo && mode && mode !== 'yolo') {
    throw new UsageError(`--yolo and --approval-mode ${mode} contradict each other; pass one.`);
  }
  return flags.yolo ? 'yolo' : mode;
}
