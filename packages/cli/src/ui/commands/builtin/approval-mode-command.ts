/** /approval-mode: shows or sets when calls need the person's approval (yolo included). */
import { APPROVAL_MODES, type ApprovalMode } from '@toolhost/core/config';
import { APPROVAL_MODE_MEANINGS as MEANINGS } from '../../../conversation/approval-modes.js';
import type { SlashCommand } from '../command-types.js';

export const approvalModeCommand: SlashCommand = {
  name: 'approval-mode',
  description: 'Show or set when calls need your approval',
  argumentHint: '[plan|default|auto-edit|yolo]',
  source: 'built-in',
  takesArguments: true,
  run(context, args) {
    const wanted = args.trim();
    const current = context.config.getApprovalMode();
    if (!wanted) {
      const lines = APPROVAL_MODES.map(
        (mode) => `- \`${mode}\`${mode === current ? ' (now)' : ''}: ${MEANINGS[mode]}`,
      );
      context.print(
        `**Approval mode**: ${current}\n${lines.join('\n')}\n\nSet it with /approval-mode <mode>; Shift+Tab cycles default, auto-edit and plan.`,
      );
      return;
    }
    if (!(APPROVAL_MODES as readonly string[]).includes(wanted)) {
      context.print(
        `"${wanted}" is not an approval mode; use one of ${APPROVAL_MODES.join(', ')}.`,
        'error',
      );
      return;
    }
    context.config.setApprovalMode(wanted as ApprovalMode);
    context.print(`Approval mode: ${wanted} (${MEANINGS[wanted as ApprovalMode]}).`);
  },
  completeArguments: (context, args) =>
    APPROVAL_MODES.filter((mode) => mode.startsWith(args.trim())).map((mode) => ({
      value: mode,
      description: `${MEANINGS[mode]}${mode === context.config.getApprovalMode() ? ' (now)' : ''}`,
    })),
};
