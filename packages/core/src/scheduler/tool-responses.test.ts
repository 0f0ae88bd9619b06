import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, schedulerFixture, signal } from '../../test/helpers/scheduler-fixture.js';

const f = schedulerFixture();

describe('CoreToolScheduler: output', () => {
  it('streams live output to the front end', async () => {
    const seen: string[] = [];
    const { scheduler } = f.setup({
      approvalMode: 'yolo',
      outputUpdateHandler: (id, out) => seen.push(`${id}:${out}`),
    });
    await scheduler.schedule(call('run_thing', { id: 'x' }, 'c1'), signal());
    expect(seen).toEqual(['c1:partial x']);
  });

  it('keeps every text and image part of a result', async () => {
    const { scheduler } = f.setup();
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
    const { scheduler, config } = f.setup({
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
    const { scheduler } = f.setup({
      onAllToolCallsComplete: (calls) => void batches.push(calls.length),
    });
    await scheduler.schedule([call('read_thing', {}, 'a'), call('nope', {}, 'b')], signal());
    expect(batches).toEqual([2]);
  });
});
