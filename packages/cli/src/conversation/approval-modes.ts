/**
 * What each approval mode means, in a line, for every front end that lets a person choose
 * one: the terminal's /approval-mode and the modes an editor shows over ACP.
 */
import type { ApprovalMode } from '@toolhost/core/config';

export const APPROVAL_MODE_MEANINGS: Record<ApprovalMode, string> = {
  plan: 'read-only: the model investigates and proposes a plan, nothing is changed',
  default: 'ask before every change and every command not known to be safe',
  'auto-edit': 'file edits run without asking; commands still ask',
  yolo: 'everything runs without asking (deny rules and the sandbox still apply)',
};
