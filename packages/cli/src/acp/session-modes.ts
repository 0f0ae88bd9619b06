/** toolhost's approval modes offered to the editor as ACP session modes. */
import type { SessionModeState } from '@agentclientprotocol/sdk';
import { APPROVAL_MODES, type ApprovalMode } from '@toolhost/core/config';
import { APPROVAL_MODE_MEANINGS } from '../conversation/approval-modes.js';

const NAMES: Record<ApprovalMode, string> = {
  plan: 'Plan',
  default: 'Ask',
  'auto-edit': 'Auto-edit',
  yolo: 'YOLO',
};

export function sessionModes(current: ApprovalMode): SessionModeState {
  return {
    currentModeId: current,
    availableModes: APPROVAL_MODES.map((mode) => ({
      id: mode,
      name: NAMES[mode],
      description: APPROVAL_MODE_MEANINGS[mode],
    })),
  };
}

export function isApprovalMode(value: string): value is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(value);
}
