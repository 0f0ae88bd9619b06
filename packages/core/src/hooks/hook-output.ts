/**
 * What a hook said, read the way Qwen Code and Claude Code read it: exit code 0 is
 * success (its standard output may be a JSON decision), 2 blocks with standard error as the
 * reason, anything else (and a timeout) is an error shown to the person while the flow goes
 * on. The JSON fields: `continue`/`stopReason`, `systemMessage`, `suppressOutput`,
 * `decision`/`reason`, and `hookSpecificOutput` with `permissionDecision`,
 * `permissionDecisionReason`, `updatedInput` and `additionalContext`.
 */
import type { HookEventName } from '../contract/settings-types.js';
import type { ProcessResult } from '../utils/run-process.js';

export type PermissionDecision = 'allow' | 'deny' | 'ask';

/** What one event's hooks decided together. */
export interface HookOutcome {
  /** Exit code 2 or a blocking decision: the reasons, in the hooks' order. */
  blocked: string[];
  /** PreToolUse: deny over ask over allow. */
  permission?: PermissionDecision;
  permissionReasons: string[];
  /** PreToolUse: the parameters to use instead (the last hook's that gave some). */
  updatedInput?: Record<string, unknown>;
  /** Text for the model (additionalContext; plain output of UserPromptSubmit and SessionStart). */
  context: string[];
  /** `continue: false`: end the run, with the hooks' stopReason when given. */
  stop?: { reason: string | undefined };
  /** For the person: systemMessage, failures, and exit-2 reasons of events that cannot block. */
  messages: string[];
}

export function emptyOutcome(): HookOutcome {
  return { blocked: [], permissionReasons: [], context: [], messages: [] };
}

/** Events whose plain standard output (exit 0, not JSON) goes to the model, as in Claude Code. */
const OUTPUT_IS_CONTEXT = new Set<HookEventName>(['UserPromptSubmit', 'SessionStart']);
/** Events whose exit code 2 blocks something. */
const CAN_BLOCK = new Set<HookEventName>([
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
]);

const PERMISSION_RANK: Record<PermissionDecision, number> = { allow: 0, ask: 1, deny: 2 };

/** Adds what one hook said (its process result) to `outcome`. */
export function readHookResult(
  event: HookEventName,
  label: string,
  result: ProcessResult,
  timeoutMs: number,
  outcome: HookOutcome,
): void {
  const stderr = result.stderr.trim();
  const stdout = result.stdout.trim();
  if (result.spawnError) {
    outcome.messages.push(`Hook ${label} could not be started: ${result.spawnError}`);
    return;
  }
  if (result.timedOut) {
    outcome.messages.push(
      `Hook ${label} did not finish within ${timeoutMs / 1000} s; it was stopped and ignored.`,
    );
    return;
  }
  if (result.exitCode === 2) {
    const reason = stderr || `hook ${label} exited with code 2`;
    if (CAN_BLOCK.has(event)) outcome.blocked.push(reason);
    else outcome.messages.push(`Hook ${label}: ${reason}`);
    return;
  }
  if (result.exitCode !== 0) {
    const why = result.signal ? `was ended by ${result.signal}` : `exited with ${result.exitCode}`;
    outcome.messages.push(`Hook ${label} ${why}${stderr ? `: ${stderr.slice(0, 500)}` : '.'}`);
    return;
  }
  const json = parseJsonObject(stdout);
  if (!json) {
    if (stdout && OUTPUT_IS_CONTEXT.has(event)) outcome.context.push(stdout);
    return;
  }
  readJsonOutput(event, json, outcome);
}

function readJsonOutput(
  event: HookEventName,
  json: Record<string, unknown>,
  outcome: HookOutcome,
): void {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);
  if (json.continue === false) outcome.stop = { reason: text(json.stopReason) };
  const message = text(json.systemMessage);
  if (message) outcome.messages.push(message);
  const specific = isRecord(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const context = text(specific.additionalContext);
  if (context) outcome.context.push(context);
  const reason = text(json.reason);
  const decision = typeof json.decision === 'string' ? json.decision : undefined;
  if (event === 'PreToolUse') {
    // The older top-level decision (approve/block) and Qwen Code's allow/deny/ask.
    const legacy: Record<string, PermissionDecision> = {
      approve: 'allow',
      allow: 'allow',
      block: 'deny',
      deny: 'deny',
      ask: 'ask',
    };
    const permission =
      permissionOf(specific.permissionDecision) ??
      (decision ? legacy[decision] : undefined) ??
      undefined;
    if (permission) {
      addPermission(outcome, permission, text(specific.permissionDecisionReason) ?? reason);
    }
    if (isRecord(specific.updatedInput)) outcome.updatedInput = specific.updatedInput;
    return;
  }
  if (decision === 'block' || decision === 'deny') {
    const why = reason ?? 'a hook blocked it (no reason given)';
    if (CAN_BLOCK.has(event)) outcome.blocked.push(why);
    else outcome.messages.push(why);
  }
}

function addPermission(
  outcome: HookOutcome,
  permission: PermissionDecision,
  reason: string | undefined,
): void {
  const current = outcome.permission;
  if (!current || PERMISSION_RANK[permission] > PERMISSION_RANK[current]) {
    outcome.permission = permission;
    outcome.permissionReasons = [];
  }
  if (outcome.permission === permission && reason) outcome.permissionReasons.push(reason);
}

function permissionOf(value: unknown): PermissionDecision | undefined {
  return value === 'allow' || value === 'deny' || value === 'ask' ? value : undefined;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
