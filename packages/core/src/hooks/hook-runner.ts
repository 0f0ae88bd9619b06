/**
 * Hooks: the person's commands run at points of the agent's flow, configured under `hooks`
 * in settings in Qwen Code's and Claude Code's format (events PreToolUse, PostToolUse,
 * UserPromptSubmit, Stop, SubagentStop, SessionStart, SessionEnd, PreCompact, Notification;
 * matcher groups; command hooks with a timeout). This folder owns finding the hooks of an
 * event, running them (the event as JSON on standard input, all of an event's hooks side by
 * side) and reading what they answer into one HookOutcome; the scheduler
 * (tool-call-hooks.ts) and the agent loop act on it. It does not decide what settings may
 * hold hooks: an untrusted project's `hooks` never reach here (trust/setting-effects.ts
 * drops them), and a hook's "allow" is only an answer to the person's question, never a
 * way past deny rules, plan mode or the sandbox.
 */
import type { Config } from '../config/config.js';
import type {
  CommandHookSettings,
  HookEventName,
  HookGroupSettings,
} from '../contract/settings-types.js';
import { HOOK_EVENTS } from '../contract/settings-types.js';
import { configuredServers } from '../permissions/mcp-servers.js';
import type { AnyTool } from '../tools/tools.js';
import { hookTimeoutMs, runHookCommand } from './hook-command.js';
import { type MatchTarget, matcherFits, toolMatchTarget } from './hook-matcher.js';
import { emptyOutcome, type HookOutcome, readHookResult } from './hook-output.js';

export type { HookOutcome, PermissionDecision } from './hook-output.js';

/** One configured hook, for `/hooks`. */
export interface ConfiguredHook {
  event: HookEventName;
  matcher: string;
  hook: CommandHookSettings;
}

/** Approval modes under the names Qwen Code's hooks receive. */
const PERMISSION_MODE = {
  plan: 'plan',
  default: 'default',
  'auto-edit': 'auto_edit',
  yolo: 'yolo',
};

export class HookRunner {
  /** Where to show what hooks say to the person (systemMessage, failures). */
  onMessage: ((message: string) => void) | undefined;

  private constructor(
    private readonly config: Config,
    private readonly groups: Readonly<Partial<Record<HookEventName, HookGroupSettings[]>>>,
    private readonly transcriptPath: () => string | undefined,
  ) {}

  /** The hooks of settings, or undefined when settings configure none (or disableAllHooks). */
  static fromConfig(
    config: Config,
    transcriptPath: () => string | undefined = () => undefined,
  ): HookRunner | undefined {
    if (config.settings.disableAllHooks) return undefined;
    const hooks = config.settings.hooks ?? {};
    const groups: Partial<Record<HookEventName, HookGroupSettings[]>> = {};
    for (const event of HOOK_EVENTS) {
      const usable = (hooks[event] ?? [])
        .map((group) => ({
          ...group,
          hooks: group.hooks.filter(isCommandHook),
        }))
        .filter((group) => group.hooks.length > 0);
      if (usable.length > 0) groups[event] = usable;
    }
    if (Object.keys(groups).length === 0) return undefined;
    return new HookRunner(config, groups, transcriptPath);
  }

  /** Every configured hook, by event, for the person to see. */
  list(): ConfiguredHook[] {
    return listHooks(this.groups);
  }

  /** What the matchers of tool events are compared with for `tool`. */
  toolTarget(tool: AnyTool): MatchTarget {
    return toolMatchTarget(
      tool,
      configuredServers(this.config).map(([alias]) => alias),
    );
  }

  has(event: HookEventName): boolean {
    return (this.groups[event]?.length ?? 0) > 0;
  }

  /**
   * Runs the hooks of `event` whose matcher fits `matchNames` (a tool's: toolTarget) (every hook of the event
   * when it has no matcher target), with `fields` added to the common input. Never throws:
   * a hook that fails is a message for the person.
   */
  async run(
    event: HookEventName,
    fields: Record<string, unknown>,
    matchNames: MatchTarget | readonly string[] | undefined,
    signal?: AbortSignal,
  ): Promise<HookOutcome> {
    const outcome = emptyOutcome();
    const hooks = (this.groups[event] ?? [])
      .filter((group) => matchNames === undefined || matcherFits(group.matcher, matchNames))
      .flatMap((group) => group.hooks);
    // The same command in two groups runs once, as in Claude Code.
    const unique = [...new Map(hooks.map((hook) => [hook.command, hook])).values()];
    if (unique.length === 0) return outcome;
    const input = { ...this.commonInput(event), ...fields };
    const results = await Promise.all(
      unique.map((hook) => runHookCommand(hook, input, this.config.targetDir, signal)),
    );
    for (const [index, result] of results.entries()) {
      const hook = unique[index]!;
      readHookResult(event, hookLabel(hook), result, hookTimeoutMs(hook), outcome);
    }
    for (const message of outcome.messages) this.onMessage?.(message);
    return outcome;
  }

  private commonInput(event: HookEventName): Record<string, unknown> {
    const transcript = this.transcriptPath();
    return {
      session_id: this.config.sessionId,
      ...(transcript ? { transcript_path: transcript } : {}),
      cwd: this.config.targetDir,
      hook_event_name: event,
      permission_mode: PERMISSION_MODE[this.config.getApprovalMode()],
      timestamp: new Date().toISOString(),
    };
  }
}

/** The hooks of settings (as configured, before any is found unusable), by event. */
export function listHooks(
  groups: Readonly<Partial<Record<HookEventName, HookGroupSettings[]>>> | undefined,
): ConfiguredHook[] {
  return HOOK_EVENTS.flatMap((event) =>
    (groups?.[event] ?? []).flatMap((group) =>
      group.hooks
        .filter(isCommandHook)
        .map((hook) => ({ event, matcher: group.matcher ?? '', hook })),
    ),
  );
}

/** A hook that can run: settings keep what is left of a refused one (an `http` hook) as `{}`. */
function isCommandHook(hook: CommandHookSettings): boolean {
  return hook.type === 'command' && typeof hook.command === 'string' && hook.command.trim() !== '';
}

/** How a hook is named in messages: its name, else its command (shortened). */
export function hookLabel(hook: CommandHookSettings): string {
  if (hook.name) return `"${hook.name}"`;
  const command = hook.command.replace(/\s+/g, ' ').trim();
  return `"${command.length > 60 ? `${command.slice(0, 57)}...` : command}"`;
}
