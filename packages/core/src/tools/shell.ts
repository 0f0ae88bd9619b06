/**
 * run_shell_command: runs a bash command in the workspace, after checking every command in
 * it against the allow and deny rules (see shell/shell-permissions.ts).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { SETTING_DEFAULTS } from '../contract/settings-types.js';
import { deniedFileTest, sessionRules } from '../permissions/call-rules.js';
import { shellPolicyRules } from '../permissions/decision.js';
import type { CommandAnalysis } from '../shell/command-analysis.js';
import { SHELL_TOOL_NAME } from '../shell/command-rules.js';
import type { ProfileName } from '../shell/sandbox/profiles/profiles.js';
import { shellEnvironment } from '../shell/shell-environment.js';
import { runShellCommand, shellProgram } from '../shell/shell-execution.js';
import type { ShellDecision } from '../shell/shell-permissions.js';
import type { ShellRuntime } from './shell-runtime.js';
import {
  BaseTool,
  errorResult,
  Kind,
  ToolConfirmationOutcome,
  ToolErrorType,
  type ToolExecConfirmationDetails,
  type ToolLocation,
  type ToolResult,
  type UpdateOutput,
} from './tools.js';

export interface ShellToolParams {
  command: string;
  /** Optional since Qwen Code 0.24 (required in 0.1.x); left out means false. */
  is_background?: boolean;
  description?: string;
  directory?: string;
  timeout?: number;
  /** Asks the person to run this command without the OS sandbox. */
  outside_sandbox?: boolean;
}

export const DEFAULT_SHELL_TIMEOUT_MS = SETTING_DEFAULTS.tools.shell.defaultTimeout;
export const MAX_SHELL_TIMEOUT_MS = 600_000;

const DESCRIPTION = `Runs a bash command (bash -c) in the workspace and returns its output (stdout and stderr in the order they came), exit code or signal.
- Standard input is closed: commands that would wait for input end instead, so pass -y / --yes or other non-interactive flags.
- Long-running commands (servers, watchers) go in the background with is_background: true; do not add & yourself.
- A non-zero exit code is reported, not treated as a failure of this tool. Colour codes are removed; binary output is not shown.
- Do not cd out of the workspace; use directory instead.
- For files, prefer read_file, grep_search, glob, edit and write_file.
- Sandboxed commands can write only the workspace and /tmp, see no credentials, maybe no network; if one fails for that, retry with outside_sandbox: true (asks the person).
Every command in the line (pipelines, &&, ;, $(...), bash -c strings...) is checked against the person's rules: commands they have not allowed need their approval, and blocked ones are refused.`;

export class ShellTool extends BaseTool<ShellToolParams> {
  static readonly Name = SHELL_TOOL_NAME;
  /** The sandbox and the read-only analysis, loaded on the first call (see runtime). */
  private loaded: Promise<ShellRuntime> | undefined;
  /** Commands the person said yes to although the kernel cannot hold a deny rule for them. */
  private readonly gapConfirmed = new Set<string>();

  constructor(private readonly config: Config) {
    super(
      ShellTool.Name,
      'Shell',
      DESCRIPTION,
      Kind.Execute,
      {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'The bash command to run.' },
          is_background: {
            type: 'boolean',
            description:
              'true starts the command detached and returns at once with its PID and log file (read the log with read_file); false (the default) waits for it to end.',
          },
          description: {
            type: 'string',
            description: 'A short explanation of what the command does, shown to the person.',
          },
          directory: {
            type: 'string',
            description:
              'Absolute path of the folder to run in, inside the workspace (default: the project root).',
          },
          timeout: {
            type: 'number',
            minimum: 1,
            maximum: MAX_SHELL_TIMEOUT_MS,
            description: `Milliseconds before the whole process tree is ended (default ${DEFAULT_SHELL_TIMEOUT_MS}, at most ${MAX_SHELL_TIMEOUT_MS}); the output so far is returned.`,
          },
          outside_sandbox: {
            type: 'boolean',
            description:
              'true to ask the person to run this command without the OS sandbox, after it failed because of the sandbox. Default false.',
          },
        },
        required: ['command'],
      },
      { canUpdateOutput: true, isOutputMarkdown: false },
    );
  }

  /**
   * The sandbox, the permission analysis and the read-only git settings: some twenty
   * modules that only a call needs, imported on the first one, so listing the tools
   * (`toolhost tools`, an MCP server's start) does not load them.
   */
  private runtime(): Promise<ShellRuntime> {
    this.loaded ??= import('./shell-runtime.js').then(
      async ({ loadShellRuntime, sandboxSettings }) => {
        const modules = await loadShellRuntime();
        return {
          ...modules,
          sandbox: new modules.CommandSandbox(
            () => sandboxSettings(this.config),
            () => ({
              workspaceRoots: this.config.workspace.roots,
              projectTempDir: this.config.projectTempDir,
              homeDirs: modules.homeFolders(this.config.homeDir),
              promptFolders: modules.promptFolders,
            }),
          ),
        };
      },
    );
    return this.loaded;
  }

  protected override validateSemantics(params: ShellToolParams): string | null {
    if (params.command.trim() === '') return 'command must not be empty';
    if (params.directory !== undefined) {
      const check = this.config.workspace.check(params.directory, 'read');
      if (!check.ok) return `directory: ${check.message}`;
    }
    return null;
  }

  override getDescription(params: ShellToolParams): string {
    const where = params.directory
      ? ` [in ${this.config.workspace.relative(params.directory)}]`
      : '';
    const what = params.description ? ` (${params.description.replace(/\n/g, ' ')})` : '';
    const outside = params.outside_sandbox ? ' [outside the sandbox]' : '';
    return `${params.command}${where}${what}${params.is_background ? ' [background]' : ''}${outside}`;
  }

  override toolLocations(params: ShellToolParams): ToolLocation[] {
    return params.directory ? [{ path: params.directory }] : [];
  }

  override async shouldConfirmExecute(
    params: ShellToolParams,
  ): Promise<ToolExecConfirmationDetails | false> {
    const runtime = await this.runtime();
    const { analysis, decision } = await this.decide(params.command, this.workingDirectory(params));
    // A refusal is reported by execute, which runs even in yolo mode.
    if (decision.kind === 'deny') return false;
    // Leaving the sandbox is its own permission, asked even for allowed commands.
    const leaves = Boolean(params.outside_sandbox) && runtime.sandbox.confines();
    const uncontained = this.uncontained(runtime, decision, leaves);
    const { gap } = this.ruleGap(runtime, params, decision);
    if (decision.kind !== 'ask' && !leaves && !uncontained && !gap) return false;
    const roots =
      decision.kind === 'ask'
        ? decision.rootCommands
        : uncontained || gap
          ? [...new Set(analysis.commands.map((command) => command.name))]
          : [];
    const reasons = decision.kind === 'ask' ? [...decision.reasons] : [];
    if (uncontained) reasons.push(uncontained);
    if (gap) reasons.push(gap.reason);
    const askedByRules = decision.kind === 'ask' ? (decision.askedByRules ?? []) : [];
    if (leaves)
      reasons.unshift(
        'outside the OS sandbox: it could change any file you can and read your credentials',
      );
    return {
      type: 'exec',
      title: `Run this command${leaves ? ' outside the sandbox' : ''}? (${reasons.join('; ')})`,
      reasons,
      command: params.command,
      rootCommands: roots,
      // "Always" allows these command names for the session, not the whole tool.
      rememberAlways: 'tool-handles',
      ...(leaves ? { personOnly: true } : {}),
      ...(askedByRules.length > 0 ? { askedByRules } : {}),
      // Deny rules the kernel cannot hold ask in every approval mode, as ask rules do.
      ...(gap ? { unheldDenyRules: { rules: gap.rules, reason: gap.reason } } : {}),
      onConfirm: (outcome) => {
        if (gap && outcome !== ToolConfirmationOutcome.Cancel)
          this.gapConfirmed.add(params.command);
        // "Always" never extends to running outside the sandbox.
        if (outcome === ToolConfirmationOutcome.ProceedAlways && !leaves) {
          for (const root of roots) this.config.sessionAllowedShellCommands.add(root);
        }
      },
    };
  }

  /** The sandbox profile for a line, by who said yes to it (profiles/profiles.ts). */
  private profile(runtime: ShellRuntime, decision: ShellDecision): ProfileName {
    const blanketYes =
      this.config.getApprovalMode() === 'yolo' || runtime.isAllowedWithoutAsking(this.config, this);
    return runtime.profileFor(decision, blanketYes);
  }

  /**
   * Why the person's Read and Edit deny rules cannot be held for this command by the kernel
   * (rule-paths/rule-gap.ts), found at its start; null when they can.
   */
  private ruleGap(runtime: ShellRuntime, params: ShellToolParams, decision: ShellDecision) {
    const profile = this.profile(runtime, decision);
    const kernel = runtime.sandbox.mountsRulePaths(params.outside_sandbox, profile);
    const covered = runtime.coveredPaths(this.config);
    return { covered, gap: runtime.ruleGap(covered, kernel, decision, this.config.workspace) };
  }

  /**
   * Why a line proven read-only must still ask: nothing would contain it (the unasked
   * profile cannot run here) and the person's own settings do not take parsing alone as
   * enough. Null when it may run unasked.
   */
  private uncontained(
    runtime: ShellRuntime,
    decision: ShellDecision,
    leaves: boolean,
  ): string | null {
    if (this.profile(runtime, decision) !== 'unasked' || leaves) return null;
    const missing = runtime.sandbox.unaskedMissing();
    if (missing === null || this.config.parseOnlyAutoApproval) return null;
    return `it looks read-only, but no sandbox here would contain it if it is not (${missing}); tools.shell.parseOnlyAutoApproval in your own settings runs such commands without asking, trusting parsing alone`;
  }

  async execute(
    params: ShellToolParams,
    signal: AbortSignal,
    updateOutput?: UpdateOutput,
  ): Promise<ToolResult> {
    const cwd = this.workingDirectory(params);
    const runtime = await this.runtime();
    const { decision } = await this.decide(params.command, cwd);
    if (decision.kind === 'deny')
      return errorResult(ToolErrorType.EXECUTION_DENIED, decision.message);

    try {
      if (!(await stat(cwd)).isDirectory()) throw new Error('not a folder');
    } catch {
      return errorResult(
        ToolErrorType.PATH_IS_NOT_A_DIRECTORY,
        `${params.directory ?? cwd} is not an existing folder; pass a folder inside the workspace as directory.`,
      );
    }
    const env = shellEnvironment(process.env, this.config.settings.tools?.shell?.allowEnv);
    // A line run as read-only gets git config that stops the repository's from running programs.
    if (decision.kind === 'allow' && decision.reason === 'read_only')
      Object.assign(env, runtime.readOnlyGitEnvironment(env));
    // What the deny rules cover, found now: a link planted since the question leads nowhere.
    const { covered, gap } = this.ruleGap(runtime, params, decision);
    if (gap && !this.gapConfirmed.delete(params.command))
      return errorResult(
        ToolErrorType.EXECUTION_DENIED,
        `This command was not run: ${gap.reason}. The person must be asked first; call it again so they can be.`,
      );
    const launch = runtime.sandbox.plan(
      shellProgram(),
      cwd,
      params.outside_sandbox,
      params.is_background === true && this.config.backgroundProcesses.keepAfterExit,
      this.profile(runtime, decision),
      covered,
    );
    if (launch.kind === 'refused')
      return errorResult(ToolErrorType.EXECUTION_DENIED, launch.message);
    const shell = launch.kind === 'sandboxed' ? launch.shell : undefined;
    const notice = launch.kind === 'unsandboxed' ? launch.notice : undefined;

    if (params.is_background) {
      try {
        const started = this.config.backgroundProcesses.start(params.command, {
          cwd,
          env,
          logDir: path.join(this.config.projectTempDir, 'background'),
          shell,
        });
        const text = `Started in the background: ${params.command}\nDirectory: ${cwd}\nPID: ${started.pid}\nOutput is written to ${started.logPath}; read it with read_file. It is ended when the session ends.${notice ? `\n${notice}` : ''}`;
        return {
          llmContent: text,
          returnDisplay: `Started PID ${started.pid} in the background (log: ${started.logPath})${notice ? `\n${notice}` : ''}`,
        };
      } catch (error) {
        return errorResult(
          ToolErrorType.SHELL_EXECUTE_ERROR,
          `Could not start the command: ${(error as Error).message}`,
        );
      }
    }

    const timeoutMs = Math.min(
      MAX_SHELL_TIMEOUT_MS,
      params.timeout ??
        this.config.settings.tools?.shell?.defaultTimeout ??
        DEFAULT_SHELL_TIMEOUT_MS,
    );
    const result = await runShellCommand(params.command, {
      cwd,
      env,
      timeoutMs,
      signal,
      onOutput: updateOutput,
      shell,
    });
    if (result.spawnError) {
      return errorResult(
        ToolErrorType.SHELL_EXECUTE_ERROR,
        `Could not start the shell: ${result.spawnError}`,
      );
    }
    if (result.leftBehind.length > 0 && result.pid)
      this.config.backgroundProcesses.adopt(result.pid, params.command);
    // The report's formatting loads once a command has run, not with the tool's listing.
    const { shellReport } = await import('./shell-report.js');
    const report = shellReport(params.command, cwd, timeoutMs, result);
    const failed = !result.timedOut && !result.aborted && result.exitCode !== 0;
    const hint =
      launch.kind === 'sandboxed'
        ? runtime.sandboxFailureHint(
            result.output,
            failed,
            launch.network,
            runtime.sandbox.setting,
            launch.profile,
            covered.paths.length > 0,
            runtime.promptFolders,
          )
        : null;
    const note = hint ?? notice;
    if (!note) return report;
    return {
      llmContent: `${report.llmContent}\n${note}`,
      returnDisplay: `${report.returnDisplay}\n${note}`,
    };
  }

  private workingDirectory(params: ShellToolParams): string {
    const directory = params.directory
      ? this.config.workspace.check(params.directory, 'read')
      : null;
    return directory?.ok ? directory.realPath : this.config.workspace.projectRoot;
  }

  private async decide(
    command: string,
    cwd: string,
  ): Promise<{ analysis: CommandAnalysis; decision: ShellDecision }> {
    // The parser (tree-sitter's loader, the runner tables) loads with the first command,
    // like the runtime: listing the tools does not need it.
    const [analysis, { decideShell, editRules }] = await Promise.all([
      import('../shell/command-analysis.js').then(({ analyzeCommand }) => analyzeCommand(command)),
      this.runtime(),
    ]);
    const rules = shellPolicyRules(sessionRules(this.config));
    const workspace = this.config.workspace;
    const decision = decideShell(analysis, {
      allowRules: rules.allow,
      askRules: rules.ask,
      denyRules: rules.deny,
      allowAll: rules.allowAll,
      sessionAllowed: this.config.sessionAllowedShellCommands,
      readOnly: {
        cwd,
        canRead: (file) => workspace.check(file, 'read').ok,
        readDenied: deniedFileTest(this.config, 'read_file') ?? undefined,
        ...editRules(this.config),
        homeDir: this.config.homeDir,
      },
    });
    return { analysis, decision };
  }
}
