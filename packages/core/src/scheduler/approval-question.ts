/**
 * Whether a call is put to the person, and with which question: the tool's own question,
 * the approval mode, writes into `.git/`, and what the call's PreToolUse hooks answered.
 */
import type { Config } from '../config/config.js';
import { hookQuestion } from '../hooks/tool-call-hooks.js';
import {
  type RuleGate,
  refusedByPlanMode,
  ruleGate,
  skipsQuestion,
  withRuleQuestion,
} from '../permissions/approval-rules.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import {
  type AnyTool,
  isForcedQuestion,
  type ToolCallConfirmationDetails,
} from '../tools/tools.js';
import { GIT_FOLDER_REASON } from '../workspace/git-internals.js';
import { callParams, toRequest } from './call-requests.js';
import type { ScheduleInput } from './tool-call-types.js';

/** What the call's PreToolUse hooks said about asking. */
export interface HookPermission {
  permission?: 'allow' | 'ask';
  reason?: string;
}

/**
 * The question for the person, or undefined when the call runs without one. An ask rule
 * (permissions.ask) and a hook's `ask` always ask; a hook's `allow` answers what the
 * approval mode would ask, but not an ask rule's question, one only the person may answer
 * (`personOnly`: leaving the sandbox) nor a write into `.git/`.
 */
export function questionFor(
  config: Config,
  tool: AnyTool,
  params: Record<string, unknown>,
  own: ToolCallConfirmationDetails | false,
  gate: RuleGate,
  hook: HookPermission = {},
): ToolCallConfirmationDetails | undefined {
  const details = withRuleQuestion(own, tool, params, gate.askedBy);
  const { intoGit } = gate;
  if (hook.permission === 'ask') {
    const question = details || hookQuestion(tool, params);
    const why = hook.reason ? `: ${hook.reason}` : '';
    return { ...question, title: `${question.title} (a hook asks${why})` };
  }
  if (!details) return undefined;
  if (intoGit && config.getApprovalMode() !== 'yolo')
    return { ...details, title: `${details.title} (${GIT_FOLDER_REASON})` };
  if (skipsQuestion(config, details)) return undefined;
  const onlyThePerson = details.personOnly || isForcedQuestion(details);
  if (hook.permission === 'allow' && !onlyThePerson) return undefined;
  return details;
}

/**
 * Whether running this call would ask the person: the same rules as the scheduler's
 * (approval mode, permission rules, what was allowed "always", the tool's own check), without
 * running it or its hooks. A call that would fail before asking (unknown tool, invalid
 * parameters, refused by plan mode) needs no approval: it ends with an error response.
 */
export async function callNeedsApproval(
  config: Config,
  registry: ToolRegistry,
  input: ScheduleInput,
  signal: AbortSignal,
): Promise<boolean> {
  const request = toRequest(input);
  const tool = registry.getTool(request.name);
  if (!tool) return false;
  const params = callParams(tool, request.args);
  if (tool.validateToolParams(params)) return false;
  if (refusedByPlanMode(config, tool)) return false;
  const gate = ruleGate(config, tool, params);
  if (gate.refused || gate.allowed) return false;
  const details = await tool.shouldConfirmExecute(params, signal);
  return questionFor(config, tool, params, details, gate) !== undefined;
}
