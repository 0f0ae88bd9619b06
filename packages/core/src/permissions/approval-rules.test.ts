import { describe, expect, it } from 'vitest';
import { call, proceed, schedulerFixture, signal } from '../../test/helpers/scheduler-fixture.js';
import { RecordingTool } from '../../test/helpers/test-tools.js';
import { Kind, ToolConfirmationOutcome, ToolErrorType } from '../tools/tools.js';
import { approvalModesThatSkip } from './approval-rules.js';

const f = schedulerFixture();

describe('CoreToolScheduler: approval', () => {
  it('shows the confirmation details to the front end', async () => {
    const { scheduler, asked } = f.setup({ answer: proceed });
    await scheduler.schedule(call('write_thing', { content: 'hello', path: '/f' }), signal());
    expect(asked[0]?.confirmationDetails).toMatchObject({ type: 'edit', newContent: 'hello' });
    expect(f.writer.confirmedOutcomes).toEqual(['proceed_once']);
  });

  it('cancels a call the person declines, with a response for the model', async () => {
    const { scheduler } = f.setup({ answer: () => ({ outcome: ToolConfirmationOutcome.Cancel }) });
    const [done] = await scheduler.schedule(call('write_thing'), signal());
    expect(done?.status).toBe('cancelled');
    expect(done?.response.responseParts[0]?.functionResponse?.response?.error).toMatch(/declined/);
    expect(f.log.events).toEqual([]);
  });

  it('refuses calls that need approval when nobody can be asked', async () => {
    const { scheduler } = f.setup();
    const [done] = await scheduler.schedule(call('write_thing'), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error?.type).toBe(ToolErrorType.EXECUTION_DENIED);
  });

  it('default mode asks for edits and commands', async () => {
    const { scheduler, asked } = f.setup({ answer: proceed });
    await scheduler.schedule([call('write_thing'), call('run_thing')], signal());
    expect(asked.map((c) => c.confirmationDetails.type)).toEqual(['edit', 'exec']);
  });

  it('auto-edit approves edits by itself but still asks for commands', async () => {
    const { scheduler, asked } = f.setup({ approvalMode: 'auto-edit', answer: proceed });
    const done = await scheduler.schedule([call('write_thing'), call('run_thing')], signal());
    expect(done.map((c) => c.status)).toEqual(['success', 'success']);
    expect(asked.map((c) => c.confirmationDetails.type)).toEqual(['exec']);
  });

  it('yolo approves everything', async () => {
    const { scheduler, asked } = f.setup({ approvalMode: 'yolo', answer: proceed });
    const done = await scheduler.schedule([call('write_thing'), call('run_thing')], signal());
    expect(done.map((c) => c.status)).toEqual(['success', 'success']);
    expect(asked).toEqual([]);
  });

  it('plan mode refuses changing kinds with a way out, and runs read-only ones', async () => {
    const { scheduler } = f.setup({ approvalMode: 'plan', answer: proceed });
    const [write, read] = await scheduler.schedule(
      [call('write_thing'), call('read_thing')],
      signal(),
    );
    expect(write?.status).toBe('error');
    expect(write?.response.error?.type).toBe(ToolErrorType.EXECUTION_DENIED);
    expect(write?.response.error?.message).toMatch(/Plan mode is on.*exit_plan_mode/);
    expect(read?.status).toBe('success');
  });

  it('a plan confirmation is asked even in yolo mode', async () => {
    const planner = new RecordingTool('plan_thing', Kind.Think, f.log, { confirmation: 'plan' });
    const { scheduler, registry, asked } = f.setup({ approvalMode: 'yolo', answer: proceed });
    registry.registerTool(planner);
    await scheduler.schedule(call('plan_thing'), signal());
    expect(asked).toHaveLength(1);
  });

  it('tools.allowed entries skip confirmation', async () => {
    const { scheduler, asked } = f.setup({
      settings: { tools: { allowed: ['write_thing'] } },
      answer: proceed,
    });
    const [done] = await scheduler.schedule(call('write_thing'), signal());
    expect(done?.status).toBe('success');
    expect(asked).toEqual([]);
  });

  it('remembers proceed_always for the session', async () => {
    const { scheduler, asked } = f.setup({
      answer: () => ({ outcome: ToolConfirmationOutcome.ProceedAlways }),
    });
    await scheduler.schedule(call('write_thing', {}, 'one'), signal());
    await scheduler.schedule(call('write_thing', {}, 'two'), signal());
    expect(asked.map((c) => c.request.callId)).toEqual(['one']);
  });

  it('leaves "always" to the tool when it keeps its own memory', async () => {
    f.runner.rememberAlways = 'tool-handles';
    const { scheduler, asked, config } = f.setup({
      answer: () => ({ outcome: ToolConfirmationOutcome.ProceedAlways }),
    });
    await scheduler.schedule(call('run_thing', {}, 'one'), signal());
    await scheduler.schedule(call('run_thing', {}, 'two'), signal());
    expect(asked).toHaveLength(2);
    expect(config.sessionAllowedTools.has('run_thing')).toBe(false);
    expect(f.runner.confirmedOutcomes).toEqual(['proceed_always', 'proceed_always']);
  });
});

describe('approvalModesThatSkip', () => {
  it('lets auto-edit skip edits and notes, only yolo skip the rest, and nothing skip a plan', () => {
    expect(approvalModesThatSkip('edit')).toEqual(['auto-edit', 'yolo']);
    expect(approvalModesThatSkip('info')).toEqual(['auto-edit', 'yolo']);
    expect(approvalModesThatSkip('exec')).toEqual(['yolo']);
    expect(approvalModesThatSkip('mcp')).toEqual(['yolo']);
    expect(approvalModesThatSkip('plan')).toEqual([]);
  });
});
