/**
 * Which calls run without asking: approval modes, permission rules (permissions/), "always"
 * answers, plan mode and writes into `.git/`.
 */
import type { Config } from '../config/config.js';
import type { ApprovalMode } from '../contract/settings-types.js';
import {
  isForcedQuestion,
  isReadOnlyKind,
  Kind,
  type ToolCallConfirmationDetails,
} from '../contract/tool-shapes.js';
import { isInsideGitFolder } from '../workspace/git-internals.js';
import { deniedMessage, type RuledTool, ruleVerdict } from './call-rules.js';
import type { PermissionRule } from './permission-rules.js';

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
export function refusedByPlanMode(config: Config, tool: RuledTool): boolean {
  return config.getApprovalMode() === 'plan' && !isReadOnlyKind(tool.kind);
}

/** File changes inside `.git/` ask in every mode but yolo (see workspace/git-internals.ts). */
export function changesGitFolder(
  config: Config,
  tool: RuledTool,
  params: Record<string, unknown>,
): boolean {
  if (tool.kind !== Kind.Edit && tool.kind !== Kind.Delete && tool.kind !== Kind.Move) return false;
  return tool
    .toolLocations(params)
    .some((location) => isInsideGitFolder(location.path, config.workspace));
}

/** Allowed "always" in this session, or the whole tool by an allow rule (`tools.allowed`...). */
export function isAllowedWithoutAsking(config: Config, tool: RuledTool): boolean {
  if (config.sessionAllowedTools.has(tool.name)) return true;
  return ruleVerdict(config, tool, {})?.kind === 'allow';
}

export interface RuleGate {
  /** What the model reads when a deny rule refuses the call. */
  refused?: string;
  /** The ask rule that makes the call be asked about in every approval mode. */
  askedBy?: PermissionRule;
  /** Runs without asking: an allow rule, or an "always" answer of this session. */
  allowed: boolean;
  /** It changes files inside `.git/`, which asks in every mode but yolo. */
  intoGit: boolean;
}

/** What the permission rules and this session's "always" answers say about a call. */
export function ruleGate(
  config: Config,
  tool: RuledTool,
  params: Record<string, unknown>,
): RuleGate {
  const intoGit = changesGitFolder(config, tool, params);
  const verdict = ruleVerdict(config, tool, params);
  if (verdict?.kind === 'deny')
    return { refused: deniedMessage(verdict, tool), allowed: false, intoGit };
  if (verdict?.kind === 'ask') return { askedBy: verdict.rule, allowed: false, intoGit };
  const allowed = verdict?.kind === 'allow' || config.sessionAllowedTools.has(tool.name);
  return { allowed: allowed && !intoGit, intoGit };
}

/**
 * The question to ask, marked with the ask rule that forces it. A tool that would not ask
 * at all (a read) gets a plain question saying which rule asks.
 */
export function withRuleQuestion(
  details: ToolCallConfirmationDetails | false,
  tool: RuledTool,
  params: Record<string, unknown>,
  rule: PermissionRule | undefined,
): ToolCallConfirmationDetails | false {
  if (!rule) return details;
  const why = `the rule ${rule.entry} in ${rule.source} asks`;
  // Marked like any other question the rule forces: an info question is one the approval
  // mode would answer by itself (auto-edit, yolo), which an ask rule's must never be.
  if (!details)
    return {
      type: 'info',
      title: `${tool.displayName}: ${tool.getDescription(params)}? (${why})`,
      prompt: tool.getDescription(params),
      askedByRules: [rule.entry],
      onConfirm: () => undefined,
    };
  return { ...details, askedByRules: [...(details.askedByRules ?? []), rule.entry] };
}

/**
 * Whether the approval mode answers the question by itself: never for one an ask rule or a
 * deny rule the sandbox cannot hold forces (isForcedQuestion).
 */
export function skipsQuestion(config: Config, details: ToolCallConfirmationDetails): boolean {
  return !isForcedQuestion(details) && approvalModeSkips(config, details);
}

/**
 * Why a question is asked in every approval mode and what lets the call run instead (one or
 * two sentences without the final stop), naming
 * what really forces it (an ask rule, or deny rules the sandbox cannot hold); undefined
 * when the approval mode could answer it.
 */
export function forcedQuestionReason(details: ToolCallConfirmationDetails): string | undefined {
  const reasons: string[] = [];
  const asked = details.askedByRules ?? [];
  if (asked.length > 0) {
    const one = asked.length === 1;
    reasons.push(
      `The ${one ? 'rule' : 'rules'} ${asked.join(', ')} in permissions.ask ${one ? 'asks' : 'ask'} about it in every approval mode (yolo and auto-edit included); only the person's answer, or taking the rule out of permissions.ask, lets it run`,
    );
  }
  const unheld = details.unheldDenyRules;
  if (unheld) {
    const one = unheld.rules.length === 1;
    reasons.push(
      `The deny ${one ? 'rule' : 'rules'} ${unheld.rules.join(', ')} (permissions.deny) ${one ? 'forces' : 'force'} this question in every approval mode (yolo and auto-edit included), because ${unheld.reason}; only the person's answer, or a sandbox that holds the rules (tools.shell.sandbox; toolhost doctor says what is missing), lets it run`,
    );
  }
  return reasons.length > 0 ? reasons.join('. ') : undefined;
}

/** What the model reads when a call needs a yes and nobody can be asked. */
export function cannotAskMessage(tool: RuledTool, details: ToolCallConfirmationDetails): string {
  const forced = forcedQuestionReason(details);
  if (forced)
    return `${tool.name} was not run: it needs the person's answer and this session cannot ask them. ${forced}. Do not try to get the same effect another way; tell the person what you wanted to run.`;
  return `${tool.name} needs the person's approval and this session cannot ask for it. The person can allow it in settings (permissions.allow or tools.allowed) or with another approval mode.`;
}

export function approvalModeSkips(config: Config, details: ToolCallConfirmationDetails): boolean {
  return approvalModesThatSkip(details.type).includes(config.getApprovalMode());
}
