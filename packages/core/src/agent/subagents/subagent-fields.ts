/**
 * The optional front-matter fields of a subagent file beyond name, description and tools:
 * Qwen Code's `approvalMode`, `maxTurns`, `color` and `model`, and Claude Code's
 * `permissionMode` (its names mapped onto approval modes). A field toolhost does not know,
 * or knows and does not support, is named in a warning instead of being passed over in
 * silence; a bad value is a warning and the field is left out.
 */
import { APPROVAL_MODES, type ApprovalMode } from '../../contract/settings-types.js';

export interface SubagentFields {
  approvalMode?: ApprovalMode;
  maxTurns?: number;
  color?: string;
  warnings: string[];
}

/** The fields parseSubagentFile reads itself. */
const READ_ELSEWHERE = new Set(['name', 'description', 'tools', 'model']);

/** Fields Qwen Code or Claude Code know that toolhost does not act on. */
const NOT_SUPPORTED = new Set([
  'disallowedTools',
  'mcpServers',
  'hooks',
  'effort',
  'skills',
  'initialPrompt',
  'memory',
  'isolation',
  'runConfig',
  'modelConfig',
  'background',
]);

/** Claude Code's permission modes as approval modes (dontAsk and auto have none). */
const PERMISSION_MODES: Readonly<Record<string, ApprovalMode>> = {
  default: 'default',
  plan: 'plan',
  acceptEdits: 'auto-edit',
  bypassPermissions: 'yolo',
};

/** Qwen Code's colors (Claude Code's list), and its `auto`. */
const COLORS = new Set(['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan']);

export function readSubagentFields(fields: Record<string, unknown>): SubagentFields {
  const result: SubagentFields = { warnings: [] };
  const warn = (message: string) => result.warnings.push(message);

  const mode = fields.approvalMode ?? undefined;
  const permission = fields.permissionMode ?? undefined;
  if (mode !== undefined) {
    if ((APPROVAL_MODES as readonly unknown[]).includes(mode))
      result.approvalMode = mode as ApprovalMode;
    else
      warn(
        `"approvalMode" ${JSON.stringify(mode)} is not one of ${APPROVAL_MODES.join(', ')}; the subagent runs in the session's mode.`,
      );
  } else if (permission !== undefined) {
    const mapped = typeof permission === 'string' ? PERMISSION_MODES[permission] : undefined;
    if (mapped) result.approvalMode = mapped;
    else
      warn(
        `"permissionMode" ${JSON.stringify(permission)} has no toolhost approval mode (use ${Object.keys(PERMISSION_MODES).join(', ')}); the subagent runs in the session's mode.`,
      );
  }

  const maxTurns = fields.maxTurns ?? undefined;
  if (maxTurns !== undefined) {
    if (typeof maxTurns === 'number' && Number.isInteger(maxTurns) && maxTurns >= 1)
      result.maxTurns = maxTurns;
    else warn(`"maxTurns" must be a whole number of 1 or more; got ${JSON.stringify(maxTurns)}.`);
  }

  const color = fields.color ?? undefined;
  if (color !== undefined && color !== 'auto') {
    if (typeof color === 'string' && COLORS.has(color)) result.color = color;
    else warn(`"color" must be one of ${[...COLORS].join(', ')}; got ${JSON.stringify(color)}.`);
  }

  const known = new Set([...READ_ELSEWHERE, 'approvalMode', 'permissionMode', 'maxTurns', 'color']);
  const unsupported = Object.keys(fields).filter((key) => NOT_SUPPORTED.has(key));
  const unknown = Object.keys(fields).filter((key) => !known.has(key) && !NOT_SUPPORTED.has(key));
  if (unsupported.length > 0)
    warn(
      `${list(unsupported)} ${unsupported.length === 1 ? 'is' : 'are'} not supported by toolhost and ${unsupported.length === 1 ? 'was' : 'were'} ignored.`,
    );
  if (unknown.length > 0)
    warn(
      `${list(unknown)} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of subagent files and ${unknown.length === 1 ? 'was' : 'were'} ignored (known: name, description, tools, model, approvalMode, maxTurns, color).`,
    );
  return result;
}

const list = (keys: string[]) => keys.map((key) => `"${key}"`).join(', ');

/** Approval modes from the strictest. */
const ORDER: readonly ApprovalMode[] = ['plan', 'default', 'auto-edit', 'yolo'];

/**
 * The mode a subagent runs in: the one its file asks for, except that a session in plan
 * mode keeps its subagents in plan mode, a session in auto-edit or yolo mode is not made
 * stricter (as in Qwen Code), and a file of a project the person has not trusted never
 * makes it looser than the session's.
 */
export function subagentApprovalMode(
  session: ApprovalMode,
  asked: ApprovalMode | undefined,
  mayLoosen: boolean,
): ApprovalMode {
  if (asked === undefined || session === 'plan') return session;
  const rank = (mode: ApprovalMode) => ORDER.indexOf(mode);
  if (rank(asked) < rank(session) && rank(session) >= rank('auto-edit')) return session;
  if (rank(asked) > rank(session) && !mayLoosen) return session;
  return asked;
}
