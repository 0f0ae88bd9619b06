import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/helpers/processes.js';
import { call, proceed, schedulerFixture, signal } from '../../test/helpers/scheduler-fixture.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { ToolErrorType } from '../tools/tools.js';
import { CoreToolScheduler } from './core-tool-scheduler.js';
import type { ConfirmationDecision } from './tool-call-types.js';

const f = schedulerFixture();

describe('CoreToolScheduler: lookup and validation', () => {
  it('runs a read-only call to success and answers with a function response', async () => {
    const { scheduler } = f.setup();
    const [done] = await scheduler.schedule(call('read_thing', { id: 'a' }), signal());
    expect(done?.status).toBe('success');
    expect(done?.response.responseParts).toEqual([
      {
        functionResponse: { id: 'read_thing', name: 'read_thing', response: { output: 'done a' } },
      },
    ]);
  });

  it('accepts a model FunctionCall with its id', async () => {
    const { scheduler } = f.setup();
    const [done] = await scheduler.schedule({ id: 'fc-1', name: 'read_thing', args: {} }, signal());
    expect(done?.request.callId).toBe('fc-1');
    expect(done?.response.responseParts[0]?.functionResponse?.id).toBe('fc-1');
  });

  it('answers an unknown tool with the closest registered names', async () => {
    const { scheduler } = f.setup();
    const [done] = await scheduler.schedule(call('read_thingy'), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error?.type).toBe(ToolErrorType.TOOL_NOT_REGISTERED);
    expect(done?.response.error?.message).toContain('Did you mean "read_thing"');
    expect(done?.response.responseParts[0]?.functionResponse?.response?.error).toContain(
      'read_thing',
    );
  });

  it('says when settings turned a tool off', async () => {
    const { scheduler } = f.setup({ settings: { tools: { exclude: ['read_thing'] } } });
    const [done] = await scheduler.schedule(call('read_thing'), signal());
    expect(done?.response.error?.type).toBe(ToolErrorType.TOOL_NOT_REGISTERED);
    expect(done?.response.error?.message).toMatch(/turned off by this session's settings/);
  });

  it('rejects invalid parameters naming the parameter', async () => {
    const { scheduler } = f.setup();
    const [done] = await scheduler.schedule(call('read_thing', { delayMs: 'soon' }), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error).toEqual({
      type: ToolErrorType.INVALID_TOOL_PARAMS,
      message: 'Invalid parameters for read_thing: delayMs must be number',
    });
    expect(f.log.events).toEqual([]);
  });

  it('turns a thrown error into execution_failed', async () => {
    const { scheduler } = f.setup();
    const [done] = await scheduler.schedule(call('read_thing', { fail: 'throw' }), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error?.type).toBe(ToolErrorType.EXECUTION_FAILED);
    expect(done?.response.error?.message).toContain('boom');
  });

  it('reports a tool error result as an error with the tool-provided type', async () => {
    const { scheduler } = f.setup();
    const [done] = await scheduler.schedule(call('read_thing', { fail: 'error' }), signal());
    expect(done?.status).toBe('error');
    expect(done?.response.error?.type).toBe(ToolErrorType.FILE_NOT_FOUND);
    expect(done?.response.responseParts[0]?.functionResponse?.response).toEqual({
      error: 'it failed',
    });
  });
});

describe('CoreToolScheduler: states', () => {
  it('passes through every state of an approved call', async () => {
    const { scheduler, updates } = f.setup({ answer: proceed });
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
});

describe('CoreToolScheduler: ordering', () => {
  it('runs read-only calls side by side', async () => {
    const { scheduler } = f.setup();
    const done = await scheduler.schedule(
      [
        call('read_thing', { id: 'a', delayMs: 100 }, 'a'),
        call('read_thing', { id: 'b', delayMs: 100 }, 'b'),
      ],
      signal(),
    );
    expect(done.map((c) => c.status)).toEqual(['success', 'success']);
    expect(f.log.maxInside).toBe(2);
    expect(f.log.events.slice(0, 2)).toEqual(['start a', 'start b']);
  });

  it('runs changing calls one at a time, in the model order', async () => {
    const { scheduler } = f.setup({ approvalMode: 'yolo' });
    await scheduler.schedule(
      [
        call('write_thing', { id: 'w1', delayMs: 60 }, 'w1'),
        call('run_thing', { id: 'r1', delayMs: 10 }, 'r1'),
        call('write_thing', { id: 'w2' }, 'w2'),
      ],
      signal(),
    );
    expect(f.log.maxInside).toBe(1);
    expect(f.log.events).toEqual([
      'start w1',
      'end w1',
      'start r1',
      'end r1',
      'start w2',
      'end w2',
    ]);
  });

  it('lets a change wait for earlier reads, and later reads wait for the change', async () => {
    const { scheduler } = f.setup({ approvalMode: 'yolo' });
    await scheduler.schedule(
      [
        call('read_thing', { id: 'r1', delayMs: 50 }, 'r1'),
        call('write_thing', { id: 'w' }, 'w'),
        call('read_thing', { id: 'r2' }, 'r2'),
      ],
      signal(),
    );
    expect(f.log.events).toEqual(['start r1', 'end r1', 'start w', 'end w', 'start r2', 'end r2']);
  });

  it('never writes one file from two schedulers at once', async () => {
    const first = f.setup({ approvalMode: 'yolo' });
    const registry2 = new ToolRegistry(first.config);
    registry2.registerTool(f.writer);
    const second = new CoreToolScheduler({ config: first.config, toolRegistry: registry2 });
    const file = path.join(f.base, 'same.txt');
    await Promise.all([
      first.scheduler.schedule(call('write_thing', { id: 'x', path: file, delayMs: 60 }), signal()),
      second.schedule(call('write_thing', { id: 'y', path: file, delayMs: 10 }), signal()),
    ]);
    expect(f.log.maxInside).toBe(1);
  });

  it('writes different files from two schedulers at once', async () => {
    const first = f.setup({ approvalMode: 'yolo' });
    const registry2 = new ToolRegistry(first.config);
    registry2.registerTool(f.writer);
    const second = new CoreToolScheduler({ config: first.config, toolRegistry: registry2 });
    await Promise.all([
      first.scheduler.schedule(
        call('write_thing', { id: 'x', path: path.join(f.base, 'a'), delayMs: 80 }),
        signal(),
      ),
      second.schedule(
        call('write_thing', { id: 'y', path: path.join(f.base, 'b'), delayMs: 80 }),
        signal(),
      ),
    ]);
    expect(f.log.maxInside).toBe(2);
  });

  it('queues a schedule made while busy', async () => {
    const { scheduler } = f.setup();
    const first = scheduler.schedule(call('read_thing', { id: 'first', delayMs: 80 }), signal());
    expect(scheduler.isRunning).toBe(false); // the batch starts on the next tick
    const second = scheduler.schedule(call('read_thing', { id: 'second' }), signal());
    const [a, b] = await Promise.all([first, second]);
    expect(a?.[0]?.status).toBe('success');
    expect(b?.[0]?.status).toBe('success');
    expect(f.log.events).toEqual(['start first', 'end first', 'start second', 'end second']);
  });
});

describe('CoreToolScheduler: cancellation', () => {
  it('cancels the running call and every pending one, each with a response', async () => {
    const { scheduler } = f.setup({ approvalMode: 'yolo' });
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
    expect(await waitUntil(() => f.log.events.includes('start long'))).toBe(true);
    controller.abort();
    const done = await batch;
    expect(done.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(f.log.events).toEqual(['start long', 'end long']);
    for (const c of done) {
      expect(c.response.responseParts[0]?.functionResponse?.response?.error).toMatch(/cancelled/);
    }
  });

  it('cancels a call waiting for approval', async () => {
    const controller = new AbortController();
    const { scheduler } = f.setup({
      answer: () => {
        controller.abort();
        return new Promise<ConfirmationDecision>(() => {});
      },
    });
    const [done] = await scheduler.schedule(call('write_thing'), controller.signal);
    expect(done?.status).toBe('cancelled');
    expect(f.log.events).toEqual([]);
  });

  it('cancels everything when the signal is already aborted', async () => {
    const { scheduler } = f.setup();
    const controller = new AbortController();
    controller.abort();
    const done = await scheduler.schedule(
      [call('read_thing', {}, 'a'), call('read_thing', {}, 'b')],
      controller.signal,
    );
    expect(done.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
  });
});
