/** Which calls run without asking: approval modes, allow-lists, "always" answers, plan mode and writes into `.git/`. */
import type { Config } from '../config/config.js';
import type { ApprovalMode } from '../config/settings-types.js';
import {
  type AnyTool,
  isReadOnlyKind,
  Kind,
  type ToolCallConfirmationDetails,
} from '../tools/tools.js';
import { isInsideGitFolder } from '../workspace/git-internals.js';

export const PLAN_MODE_MESSAGE =
  'Plan mode is on: tools that change files, run commands or have other effects are not available. Keep investigating with read-only tools, then present your plan with exit_plan_mode; the person decides whether to leave plan mode.';

/** Confirmation types that auto-edit mode approves by itself. */
const AUTO_EDIT_TYPES = new Set<ToolCallConfirmationDetails['type']>(['edit', 'info']);

/**
 * The approval modes that run a call of this confirmation type without asking. A plan is
 * always the person's decision.
 */
export function approvalModesThatSkip(type: ToolCallConfirmationDetails['type']): ApprovalMode[] {
  if (type === 'plan') return [];
  return AUTO_EDIT_TYPES.has(type) ? ['auto-edit', 'yolo'] : ['yolo'];
}

/** Plan mode refuses every kind that changes something. */
export function refusedByPlanMode(config: Config, tool: AnyTool): boolean {
  return config.getApprovalMode() === 'plan' && !isReadOnlyKind(tool.kind);
}

/** File changes inside `.git/` ask in every mode but yolo (see workspace/git-internals.ts). */
export function changesGitFolder(
  config: Config,
  tool: AnyTool,
  params: Record<string, unknown>,
): boolean {
  if (tool.kind !== Kind.Edit && tool.kind !== Kind.Delete && tool.kind !== Kind.Move) return false;
  return tool
    .toolLocations(params)
    .some((location) => isInsideGitFolder(location.path, config.workspace));
}

/** Allowed "always" in this session, or listed in `tools.allowed`. */
export function isAllowedWithoutAsking(config: Config, tool: AnyTool): boolean {
  if (config.sessionAllowedTools.has(tool.name)) return true;
  const allowed = config.settings.tools?.allowed ?? [];
  return allowed.some((entry) => entry === tool.name || entry === tool.displayName);
}

export function approvalModeSkips(config: Config, details: ToolCallConfirmationDetails): boolean {
  return approvalModesThatSkip(details.type).includes(config.getApprovalMode());
}
