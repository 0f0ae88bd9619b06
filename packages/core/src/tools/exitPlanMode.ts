/** exit_plan_mode: presents the plan and, when the person approves it, leaves plan mode. */
import type { Config } from '../config/config.js';
import {
  BaseTool,
  Kind,
  ToolConfirmationOutcome,
  type ToolPlanConfirmationDetails,
  type ToolResult,
} from './tools.js';

export interface ExitPlanModeParams {
  plan: string;
}

const DESCRIPTION = `Presents your plan to the person and asks to leave plan mode so you can carry it out. Use it in plan mode once you have investigated enough to propose concrete steps (files to change, commands to run, how to check the result). The plan is Markdown. If the person declines, stay in plan mode and refine the plan with them.`;

export class ExitPlanModeTool extends BaseTool<ExitPlanModeParams> {
  static readonly Name = 'exit_plan_mode';
  /** Calls whose plan the person approved, and the mode they chose (keyed by the call's params). */
  private readonly approved = new WeakMap<ExitPlanModeParams, string>();

  constructor(private readonly config: Config) {
    super(ExitPlanModeTool.Name, 'ExitPlanMode', DESCRIPTION, Kind.Think, {
      type: 'object',
      properties: { plan: { type: 'string', description: 'The plan, in Markdown.' } },
      required: ['plan'],
    });
  }

  protected override validateSemantics(params: ExitPlanModeParams): string | null {
    return params.plan.trim() === '' ? 'plan must contain the steps you propose' : null;
  }

  override getDescription(): string {
    return 'Present the plan and leave plan mode';
  }

  override async shouldConfirmExecute(
    params: ExitPlanModeParams,
  ): Promise<ToolPlanConfirmationDetails | false> {
    if (this.config.getApprovalMode() !== 'plan') return false;
    return {
      type: 'plan',
      title: 'Carry out this plan?',
      plan: params.plan,
      declineMessage:
        'The person did not approve the plan; you are still in plan mode and cannot make changes. Ask what they want changed, refine the plan, and present it again with exit_plan_mode.',
      onConfirm: (outcome) => {
        if (outcome === ToolConfirmationOutcome.ProceedAlways)
          this.config.setApprovalMode('auto-edit');
        else if (outcome === ToolConfirmationOutcome.ProceedOnce)
          this.config.setApprovalMode('default');
        else return;
        this.approved.set(params, this.config.getApprovalMode());
      },
    };
  }

  async execute(params: ExitPlanModeParams): Promise<ToolResult> {
    const mode = this.config.getApprovalMode();
    const approvedMode = this.approved.get(params);
    let text: string;
    if (approvedMode === 'auto-edit') {
      text =
        'The plan was approved and plan mode is off. File edits are now approved automatically; commands still ask. Carry out the plan.';
    } else if (approvedMode === 'default') {
      text =
        'The plan was approved and plan mode is off. Changes will ask the person for approval as usual. Carry out the plan.';
    } else if (mode === 'plan') {
      // Reached only when nobody could be asked (no front end for approvals).
      text = 'Plan mode is still on: the plan was not approved. Wait for the person to approve it.';
    } else {
      text = `Plan mode is not on (the approval mode is ${mode}), so there is nothing to exit. Go ahead with the work.`;
    }
    return { llmContent: text, returnDisplay: text };
  }
}
