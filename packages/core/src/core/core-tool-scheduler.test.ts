import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitUntil } from '../../test/helpers/processes.js';
import { ImageTool, newRunLog, RecordingTool, type RunLog } from '../../test/helpers/test-tools.js';
import { Config } from '../config/config.js';
import type { ApprovalMode, Settings } from '../config/settings.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { Kind, ToolConfirmationOutcome, ToolErrorType } from '../tools/tools.js';
import { CoreToolScheduler, type CoreToolSchedulerOptions } from './core-tool-scheduler.js';
import type { ConfirmationDecision, ToolCall, WaitingToolCall } from './tool-call-types.js';

let base: string;
let log: RunLog;
let reader: RecordingTool;
let writer: RecordingTool;
let runner: RecordingTool;

beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'toolhost-sched-'));
  log = newRunLog();
  reader = new RecordingTool('read_thing', Kind.Read, log);
  writer = new RecordingTool('write_thing', Kind.Edit, log, { confirmation: 'edit' });
  runner = new RecordingTool('run_thing', Kind.Execute, log, {
    confirmation: 'exec',
    streams: true,
  });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function setup(
  options: {
    settings?: Settings;
    approvalMode?: ApprovalMode;
    answer?: (call: WaitingToolCall) => Promise<ConfirmationDecision> | ConfirmationDecision;
  } & Partial<CoreToolSchedulerOptions> = {},
) {
  const config = new Config({
    roots: [base],
    settings: options.settings ?? {},
    approvalMode: options.approvalMode,
    homeDir: path.join(base, 'home'),
  });
  const registry = new ToolRegistry(config);
  for (const tool of [reader, writer, runner, new ImageTool()]) registry.registerTool(tool);
  const updates: ToolCall[][] = [];
  const asked: WaitingToolCall[] = [];
  const answer = options.answer;
  const scheduler = new CoreToolScheduler({
    config,
    toolRegistry: registry,
    onToolCallsUpdate: (calls) => updates.push([...calls]),
    ...(answer
      ? {
          onConfirmationRequest: async (call) => {
            asked.push(call);
            return answer(call);
          },
        }
      : {}),
    ...options,
  });
  return { config, registry, scheduler, updates, asked };
}

const proceed = (): ConfirmationDecision => ({ outcome: ToolConfirmationOutcome.ProceedOnce });
const call = (name: string, args: Record<string, unknown> = {}, callId = name) => ({
  callId,
  name,
  args,
});
const signal = () => new AbortController().signal;

describe('CoreToolScheduler: lookup and validation', () => {
  it('runs a read-only call to success and answers with a function response', async () => {
    const { scheduler } = setup();
    const [done] = await scheduler.schedule(call('read_thing', { id: 'a' }), signal());
    expect(done?.status).toBe('success');
    expect(done?.response.responseParts).toEqual([
      {
        functionResponse: { id: 'read_thing', name: 'read_thing', response: { output: 'done a' } },
      },
    ]);
  });

  it('accepts a model FunctionCall with its id', async () => {
    const { scheduler } = setup();
    const [done] = await scheduler.schedule({ id: 'fc-1', name: 'read_thing', args: {} }, signal());
    expect(done?.request.callId).toBe('fc-1');
    expect(done?.response.responseParts[0]?.functionResponse?.id).toBe('fc-1');
  });

  it('answers an unknown tool with the closest registered names', async () => {
    const { scheduler } = setup();
    const [done] = await scheduler.schedule(call('read_thingy'), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error?.type).toBe(ToolErrorType.TOOL_NOT_REGISTERED);
    expect(done?.response.error?.message).toContain('Did you mean "read_thing"');
    expect(done?.response.responseParts[0]?.functionResponse?.response?.error).toContain(
      'read_thing',
    );
  });

  it('says when settings turned a tool off', async () => {
    const { scheduler } = setup({ settings: { tools: { exclude: ['read_thing'] } } });
    const [done] = await scheduler.schedule(call('read_thing'), signal());
    expect(done?.response.error?.type).toBe(ToolErrorType.TOOL_NOT_REGISTERED);
    expect(done?.response.error?.message).toMatch(/turned off by this session's settings/);
  });

  it('rejects invalid parameters naming the parameter', async () => {
    const { scheduler } = setup();
    const [done] = await scheduler.schedule(call('read_thing', { delayMs: 'soon' }), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error).toEqual({
      type: ToolErrorType.INVALID_TOOL_PARAMS,
      message: 'Invalid parameters for read_thing: delayMs must be number',
    });
    expect(log.events).toEqual([]);
  });

  it('turns a thrown error into execution_failed', async () => {
    const { scheduler } = setup();
    const [done] = await scheduler.schedule(call('read_thing', { fail: 'throw' }), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error?.type).toBe(ToolErrorType.EXECUTION_FAILED);
    expect(done?.response.error?.message).toContain('boom');
  });

  it('reports a tool error result as an error with the tool-provided type', async () => {
    const { scheduler } = setup();
    const [done] = await scheduler.schedule(call('read_thing', { fail: 'error' }), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error?.type).toBe(ToolErrorType.FILE_NOT_FOUND);
    expect(done?.response.responseParts[0]?.functionResponse?.response).toEqual({
      error: 'it failed',
    });
  });
});

describe('CoreToolScheduler: states and approval', () => {
  it('passes through every state of an approved call', async () => {
    const { scheduler, updates } = setup({ answer: proceed });
    await scheduler.schedule(call('write_thing', { content: 'x' }), signal());
    const states = updates.map((calls) => calls[0]?.status).filter((s, i, all) => s !== all[i - 1]);
    expect(states).toEqual([
      'validating',
      'scheduled',
      'awaiting_approval',
      'executing',
      'success',
    ]);
  });

  it('shows the confirmation details to the front end', async () => {
    const { scheduler, asked } = setup({ answer: proceed });
    await scheduler.schedule(call('write_thing', { content: 'hello', path: '/f' }), signal());
    expect(asked[0]?.confirmationDetails).toMatchObject({ type: 'edit', newContent: 'hello' });
    expect(writer.confirmedOutcomes).toEqual(['proceed_once']);
  });

  it('cancels a call the person declines, with a response for the model', async () => {
    const { scheduler } = setup({ answer: () => ({ outcome: ToolConfirmationOutcome.Cancel }) });
    const [done] = await scheduler.schedule(call('write_thing'), signal());
    expect(done?.status).toBe('cancelled');
    expect(done?.response.responseParts[0]?.functionResponse?.response?.error).toMatch(/declined/);
    expect(log.events).toEqual([]);
  });

  it('refuses calls that need approval when nobody can be asked', async () => {
    const { scheduler } = setup();
    const [done] = await scheduler.schedule(call('write_thing'), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error?.type).toBe(ToolErrorType.EXECUTION_DENIED);
  });

  it('default mode asks for edits and commands', async () => {
    const { scheduler, asked } = setup({ answer: proceed });
    await scheduler.schedule([call('write_thing'), call('run_thing')], signal());
    expect(asked.map((c) => c.confirmationDetails.type)).toEqual(['edit', 'exec']);
  });

  it('auto-edit approves edits by itself but still asks for commands', async () => {
    const { scheduler, asked } = setup({ approvalMode: 'auto-edit', answer: proceed });
    const done = await scheduler.schedule([call('write_thing'), call('run_thing')], signal());
    expect(done.map((c) => c.status)).toEqual(['success', 'success']);
    expect(asked.map((c) => c.confirmationDetails.type)).toEqual(['exec']);
  });

  it('yolo approves everything', async () => {
    const { scheduler, asked } = setup({ approvalMode: 'yolo', answer: proceed });
    const done = await scheduler.schedule([call('write_thing'), call('run_thing')], signal());
    expect(done.map((c) => c.status)).toEqual(['success', 'success']);
    expect(asked).toEqual([]);
  });

  it('plan mode refuses changing kinds with a way out, and runs read-only ones', async () => {
    const { scheduler } = setup({ approvalMode: 'plan', answer: proceed });
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
    const planner = new RecordingTool('plan_thing', Kind.Think, log, { confirmation: 'plan' });
    const { scheduler, registry, asked } = setup({ approvalMode: 'yolo', answer: proceed });
    registry.registerTool(planner);
    await scheduler.schedule(call('plan_thing'), signal());
    expect(asked).toHaveLength(1);
  });

  it('tools.allowed entries skip confirmation', async () => {
    const { scheduler, asked } = setup({
      settings: { tools: { allowed: ['write_thing'] } },
      answer: proceed,
    });
    const [done] = await scheduler.schedule(call('write_thing'), signal());
    expect(done?.status).toBe('success');
    expect(asked).toEqual([]);
  });

  it('remembers proceed_always for the session', async () => {
    const { scheduler, asked } = setup({
      answer: () => ({ outcome: ToolConfirmationOutcome.ProceedAlways }),
    });
    await scheduler.schedule(call('write_thing', {}, 'one'), signal());
    await scheduler.schedule(call('write_thing', {}, 'two'), signal());
    expect(asked.map((c) => c.request.callId)).toEqual(['one']);
  });

  it('leaves "always" to the tool when it keeps its own memory', async () => {
    runner.rememberAlways = 'tool-handles';
    const { scheduler, asked, config } = setup({
      answer: () => ({ outcome: ToolConfirmationOutcome.ProceedAlways }),
    });
    await scheduler.schedule(call('run_thing', {}, 'one'), signal());
    await scheduler.schedule(call('run_thing', {}, 'two'), signal());
    expect(asked).toHaveLength(2);
    expect(config.sessionAllowedTools.has('run_thing')).toBe(false);
    expect(runner.confirmedOutcomes).toEqual(['proceed_always', 'proceed_always']);
  });

  it('applies an inline modification and tells the model', async () => {
    const { scheduler } = setup({
      answer: () => ({
        outcome: ToolConfirmationOutcome.ProceedOnce,
        payload: { newContent: 'theirs' },
      }),
    });
    const [done] = await scheduler.schedule(call('write_thing', { content: 'mine' }), signal());
    expect(done?.status).toBe('success');
    const output = String(done?.response.responseParts[0]?.functionResponse?.response?.output);
    expect(output).toContain('done write_thing with theirs');
    expect(output).toContain('the person changed your proposed content');
  });

  it('modify_with_editor asks again with the edited proposal', async () => {
    const answers = [ToolConfirmationOutcome.ModifyWithEditor, ToolConfirmationOutcome.ProceedOnce];
    const { scheduler, asked } = setup({
      answer: () => ({ outcome: answers.shift()! }),
      editProposal: async (proposal) => `${proposal.proposedContent} (edited)`,
    });
    const [done] = await scheduler.schedule(call('write_thing', { content: 'mine' }), signal());
    expect(asked).toHaveLength(2);
    const second = asked[1]?.confirmationDetails;
    expect(second?.type === 'edit' && second.newContent).toBe('mine (edited)');
    expect(String(done?.response.responseParts[0]?.functionResponse?.response?.output)).toContain(
      'with mine (edited)',
    );
  });

  describe('modify_with_editor without an editProposal hook', () => {
    /** An editor program that writes its own name into the file it is given. */
    function editor(name: string) {
      const file = path.join(base, `${name}.sh`);
      writeFileSync(file, `#!/bin/sh\nprintf "from ${name}" > "$1"\n`);
      chmodSync(file, 0o755);
      return file;
    }
    async function editedWith(settings: Settings) {
      const answers = [
        ToolConfirmationOutcome.ModifyWithEditor,
        ToolConfirmationOutcome.ProceedOnce,
      ];
      const { scheduler } = setup({ settings, answer: () => ({ outcome: answers.shift()! }) });
      const [done] = await scheduler.schedule(call('write_thing', { content: 'mine' }), signal());
      return String(done?.response.responseParts[0]?.functionResponse?.response?.output);
    }
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it('opens $EDITOR when neither settings nor $VISUAL name one', async () => {
      vi.stubEnv('VISUAL', '');
      vi.stubEnv('EDITOR', editor('editor'));
      expect(await editedWith({})).toContain('with from editor');
    });

    it('prefers $VISUAL to $EDITOR', async () => {
      vi.stubEnv('VISUAL', editor('visual'));
      vi.stubEnv('EDITOR', editor('editor'));
      expect(await editedWith({})).toContain('with from visual');
    });

    it('prefers general.preferredEditor to both', async () => {
      vi.stubEnv('VISUAL', editor('visual'));
      vi.stubEnv('EDITOR', editor('editor'));
      expect(await editedWith({ general: { preferredEditor: editor('settings') } })).toContain(
        'with from settings',
      );
    });
  });
});

describe('CoreToolScheduler: ordering', () => {
  it('runs read-only calls side by side', async () => {
    const { scheduler } = setup();
    const done = await scheduler.schedule(
      [
        call('read_thing', { id: 'a', delayMs: 100 }, 'a'),
        call('read_thing', { id: 'b', delayMs: 100 }, 'b'),
      ],
      signal(),
    );
    expect(done.map((c) => c.status)).toEqual(['success', 'success']);
    expect(log.maxInside).toBe(2);
    expect(log.events.slice(0, 2)).toEqual(['start a', 'start b']);
  });

  it('runs changing calls one at a time, in the model order', async () => {
    const { scheduler } = setup({ approvalMode: 'yolo' });
    await scheduler.schedule(
      [
        call('write_thing', { id: 'w1', delayMs: 60 }, 'w1'),
        call('run_thing', { id: 'r1', delayMs: 10 }, 'r1'),
        call('write_thing', { id: 'w2' }, 'w2'),
      ],
      signal(),
    );
    expect(log.maxInside).toBe(1);
    expect(log.events).toEqual(['start w1', 'end w1', 'start r1', 'end r1', 'start w2', 'end w2']);
  });

  it('lets a change wait for earlier reads, and later reads wait for the change', async () => {
    const { scheduler } = setup({ approvalMode: 'yolo' });
    await scheduler.schedule(
      [
        call('read_thing', { id: 'r1', delayMs: 50 }, 'r1'),
        call('write_thing', { id: 'w' }, 'w'),
        call('read_thing', { id: 'r2' }, 'r2'),
      ],
      signal(),
    );
    expect(log.events).toEqual(['start r1', 'end r1', 'start w', 'end w', 'start r2', 'end r2']);
  });

  it('never writes one file from two schedulers at once', async () => {
    const first = setup({ approvalMode: 'yolo' });
    const registry2 = new ToolRegistry(first.config);
    registry2.registerTool(writer);
    const second = new CoreToolScheduler({ config: first.config, toolRegistry: registry2 });
    const file = path.join(base, 'same.txt');
    await Promise.all([
      first.scheduler.schedule(call('write_thing', { id: 'x', path: file, delayMs: 60 }), signal()),
      second.schedule(call('write_thing', { id: 'y', path: file, delayMs: 10 }), signal()),
    ]);
    expect(log.maxInside).toBe(1);
  });

  it('writes different files from two schedulers at once', async () => {
    const first = setup({ approvalMode: 'yolo' });
    const registry2 = new ToolRegistry(first.config);
    registry2.registerTool(writer);
    const second = new CoreToolScheduler({ config: first.config, toolRegistry: registry2 });
    await Promise.all([
      first.scheduler.schedule(
        call('write_thing', { id: 'x', path: path.join(base, 'a'), delayMs: 80 }),
        signal(),
      ),
      second.schedule(
        call('write_thing', { id: 'y', path: path.join(base, 'b'), delayMs: 80 }),
        signal(),
      ),
    ]);
    expect(log.maxInside).toBe(2);
  });

  it('queues a schedule made while busy', async () => {
    const { scheduler } = setup();
    const first = scheduler.schedule(call('read_thing', { id: 'first', delayMs: 80 }), signal());
    expect(scheduler.isRunning).toBe(false); // the batch starts on the next tick
    const second = scheduler.schedule(call('read_thing', { id: 'second' }), signal());
    const [a, b] = await Promise.all([first, second]);
    expect(a?.[0]?.status).toBe('success');
    expect(b?.[0]?.status).toBe('success');
    expect(log.events).toEqual(['start first', 'end first', 'start second', 'end second']);
  });
});

describe('CoreToolScheduler: cancellation', () => {
  it('cancels the running call and every pending one, each with a response', async () => {
    const { scheduler } = setup({ approvalMode: 'yolo' });
    const controller = new AbortController();
    const batch = scheduler.schedule(
      [
        call('run_thing', { id: 'long', delayMs: 600_000 }, 'long'),
        call('write_thing', { id: 'later' }, 'later'),
      ],
      controller.signal,
    );
    // Abort once the long call has started; if cancelling did not stop it, its ten minutes
    // would outlast the test.
    expect(await waitUntil(() => log.events.includes('start long'))).toBe(true);
    controller.abort();
    const done = await batch;
    expect(done.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(log.events).toEqual(['start long', 'end long']);
    for (const c of done) {
      expect(c.response.responseParts[0]?.functionResponse?.response?.error).toMatch(/cancelled/);
    }
  });

  it('cancels a call waiting for approval', async () => {
    const controller = new AbortController();
    const { scheduler } = setup({
      answer: () => {
        controller.abort();
        return new Promise<ConfirmationDecision>(() => {});
      },
    });
    const [done] = await scheduler.schedule(call('write_thing'), controller.signal);
    expect(done?.status).toBe('cancelled');
    expect(log.events).toEqual([]);
  });

  it('cancels everything when the signal is already aborted', async () => {
    const { scheduler } = setup();
    const controller = new AbortController();
    controller.abort();
    const done = await scheduler.schedule(
      [call('read_thing', {}, 'a'), call('read_thing', {}, 'b')],
      controller.signal,
    );
    expect(done.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
  });
});

describe('CoreToolScheduler: output', () => {
  it('streams live output to the front end', async () => {
    const seen: string[] = [];
    const { scheduler } = setup({
      approvalMode: 'yolo',
      outputUpdateHandler: (id, out) => seen.push(`${id}:${out}`),
    });
    await scheduler.schedule(call('run_thing', { id: 'x' }, 'c1'), signal());
    expect(seen).toEqual(['c1:partial x']);
  });

  it('keeps every text and image part of a result', async () => {
    const { scheduler } = setup();
    const [done] = await scheduler.schedule(call('image_tool'), signal());
    expect(done?.response.responseParts).toEqual([
      {
        functionResponse: {
          id: 'image_tool',
          name: 'image_tool',
          response: { output: 'first\nsecond' },
        },
      },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
  });

  it('cuts very long output to head and tail and saves the whole text', async () => {
    const { scheduler, config } = setup({
      settings: { tools: { truncateOutputThreshold: 2_000 } },
    });
    const lines = Array.from({ length: 1_000 }, (_, i) => `line ${i}`).join('\n');
    const [done] = await scheduler.schedule(call('read_thing', { output: lines }), signal());
    const text = String(done?.response.responseParts[0]?.functionResponse?.response?.output);
    expect(text.length).toBeLessThan(2_600);
    expect(text.startsWith('line 0\n')).toBe(true);
    expect(text.endsWith('line 999')).toBe(true);
    expect(done?.response.outputFile).toMatch(/\.txt$|tool-outputs/);
    expect(text).toContain(done!.response.outputFile!);
    expect(text).toMatch(/read_file.*offset \d+/);
    expect(readFileSync(done!.response.outputFile!, 'utf8')).toBe(lines);
    expect(done!.response.outputFile!.startsWith(config.projectTempDir)).toBe(true);
    expect(config.workspace.check(done!.response.outputFile!, 'read').ok).toBe(true);
  });

  it('calls onAllToolCallsComplete once per batch with every call', async () => {
    const batches: number[] = [];
    const { scheduler } = setup({
      onAllToolCallsComplete: (calls) => void batches.push(calls.length),
    });
    await scheduler.schedule([call('read_thing', {}, 'a'), call('nope', {}, 'b')], signal());
    expect(batches).toEqual([2]);
  });
});
