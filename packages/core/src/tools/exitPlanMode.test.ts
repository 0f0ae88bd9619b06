import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outputOf, scriptedScheduler } from '../../test/helpers/scheduler.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { ToolConfirmationOutcome, ToolErrorType } from './tools.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ approvalMode: 'plan' });
});
afterEach(() => ws.cleanup());

function session(answer: ToolConfirmationOutcome) {
  const { call, asked: shown } = scriptedScheduler(ws.config, { answer });
  return { call, shown };
}

const PLAN = '1. Change `a.ts`\n2. Run the tests';

describe('plan mode through the scheduler', () => {
  it('refuses changes in plan mode and points to exit_plan_mode', async () => {
    const { call } = session(ToolConfirmationOutcome.ProceedOnce);
    const write = await call('write_file', { file_path: ws.p('a.ts'), content: 'x' });
    expect(write.response.error?.type).toBe(ToolErrorType.EXECUTION_DENIED);
    expect(write.response.error?.message).toContain('exit_plan_mode');
  });

  it('proceed_once shows the plan, leaves plan mode for default, and changes then ask', async () => {
    const { call, shown } = session(ToolConfirmationOutcome.ProceedOnce);
    const done = await call('exit_plan_mode', { plan: PLAN });
    expect(shown[0]).toMatchObject({ type: 'plan', plan: PLAN });
    expect(ws.config.getApprovalMode()).toBe('default');
    expect(outputOf(done)).toContain('plan mode is off');
    const write = await call('write_file', { file_path: ws.p('a.ts'), content: 'x' });
    expect(write.status).toBe('success');
    expect(shown[1]?.type).toBe('edit');
  });

  it('proceed_always leaves plan mode for auto-edit', async () => {
    const { call, shown } = session(ToolConfirmationOutcome.ProceedAlways);
    await call('exit_plan_mode', { plan: PLAN });
    expect(ws.config.getApprovalMode()).toBe('auto-edit');
    await call('write_file', { file_path: ws.p('a.ts'), content: 'x' });
    expect(shown).toHaveLength(1);
  });

  it('cancel stays in plan mode and tells the model so', async () => {
    const { call } = session(ToolConfirmationOutcome.Cancel);
    const done = await call('exit_plan_mode', { plan: PLAN });
    expect(done.status).toBe('cancelled');
    expect(ws.config.getApprovalMode()).toBe('plan');
    expect(String(done.response.responseParts[0]?.functionResponse?.response?.error)).toContain(
      'you are still in plan mode',
    );
  });

  it('outside plan mode says there is nothing to exit, without asking', async () => {
    ws.config.setApprovalMode('default');
    const { call, shown } = session(ToolConfirmationOutcome.ProceedOnce);
    const done = await call('exit_plan_mode', { plan: PLAN });
    expect(shown).toEqual([]);
    expect(outputOf(done)).toContain('nothing to exit');
  });
});
