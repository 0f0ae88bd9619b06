/**
 * Which calls of a batch may change files, so that the batch needs a checkpoint first.
 * Fails closed: only calls proven read-only are exempt (a built-in kind that reads,
 * searches, thinks or fetches, except save_memory which writes a memory file; a shell
 * line proven read-only by the same check that lets it run without asking). MCP and
 * discovered tools, unknown tools, and anything not understood count as changes.
 */
import type { Config } from '../../config/config.js';
import { sessionRules } from '../../permissions/call-rules.js';
import { shellPolicyRules } from '../../permissions/decision.js';
import { analyzeCommand } from '../../shell/command-analysis.js';
import { decideShell } from '../../shell/shell-permissions.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import { isReadOnlyKind } from '../../tools/tools.js';
import type { AgentToolCall } from '../agent-events.js';
import type { CheckpointToolCall } from './checkpoint-types.js';

const MAX_DESCRIPTION = 200;
const WRITING_THINK_TOOLS = new Set(['save_memory']);

/** The calls of the batch that may change files, described; empty when none may. */
export async function changingCalls(
  calls: readonly AgentToolCall[],
  registry: ToolRegistry,
  config: Config,
): Promise<CheckpointToolCall[]> {
  const changing: CheckpointToolCall[] = [];
  for (const call of calls) {
    // Answered with an error without running.
    if (call.malformedArguments !== undefined) continue;
    if (await mayChangeFiles(call, registry, config)) {
      changing.push({ name: call.name, description: describe(call, registry) });
    }
  }
  return changing;
}

async function mayChangeFiles(
  call: AgentToolCall,
  registry: ToolRegistry,
  config: Config,
): Promise<boolean> {
  const tool = registry.getTool(call.name);
  // A tool that has not arrived yet (an MCP server still connecting) may be waited for.
  if (!tool) return true;
  if (tool.name === 'run_shell_command') return !(await shellIsReadOnly(call.args, config));
  return !isReadOnlyKind(tool.kind) || WRITING_THINK_TOOLS.has(tool.name);
}

/** True when the line cannot change files: proven read-only, or refused by a deny rule. */
async function shellIsReadOnly(args: Record<string, unknown>, config: Config): Promise<boolean> {
  if (typeof args.command !== 'string') return false;
  const workspace = config.workspace;
  const directory =
    typeof args.directory === 'string' ? workspace.check(args.directory, 'read') : undefined;
  const cwd = directory?.ok ? directory.realPath : workspace.projectRoot;
  try {
    const analysis = await analyzeCommand(args.command);
    // A command a deny rule refuses never runs (the shell tool refuses it in every mode).
    const { deny } = shellPolicyRules(sessionRules(config));
    const readOnly = {
      cwd,
      canRead: (file: string) => workspace.check(file, 'read').ok,
      homeDir: config.homeDir,
    };
    const refused = decideShell(analysis, {
      allowRules: [],
      denyRules: deny,
      sessionAllowed: new Set(),
      readOnly,
    });
    if (refused.kind === 'deny') return true;
    // No allow rules and no "always" answers: a command allowed by a rule still changes files.
    const decision = decideShell(analysis, {
      allowRules: [],
      denyRules: [],
      sessionAllowed: new Set(),
      readOnly,
    });
    return decision.kind === 'allow' && decision.reason === 'read_only';
  } catch {
    return false;
  }
}

function describe(call: AgentToolCall, registry: ToolRegistry): string {
  let text: string;
  try {
    text = registry.getTool(call.name)?.getDescription(call.args) ?? JSON.stringify(call.args);
  } catch {
    text = JSON.stringify(call.args);
  }
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_DESCRIPTION ? `${line.slice(0, MAX_DESCRIPTION - 1)}…` : line;
}
