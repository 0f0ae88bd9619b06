/**
 * Very long output reaches the model as head and tail, and the model can page through the
 * saved whole with read_file exactly as the message tells it to, through the scheduler.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outputOf, scriptedScheduler } from './helpers/scheduler.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ settings: { tools: { truncateOutputThreshold: 4_000 } } });
});
afterEach(async () => {
  await ws.config.dispose();
  ws.cleanup();
});

describe('paging through a truncated output with read_file', () => {
  it('reads the missing middle from the saved file at the offsets the message gives', async () => {
    const { call } = scriptedScheduler(ws.config);
    const run = async (name: string, args: Record<string, unknown>) =>
      outputOf(await call(name, args));
    const output = await run('run_shell_command', { command: 'seq 1 20000', is_background: false });
    expect(output).not.toContain('\n10000\n');
    const hint = /absolute_path "([^"]+)", offset (\d+), limit (\d+)/.exec(output);
    expect(hint).not.toBeNull();
    const [, file, offset, limit] = hint!;

    // The page the message points at continues where the head stopped.
    const page = await run('read_file', {
      absolute_path: file,
      offset: Number(offset),
      limit: Number(limit),
    });
    const head = output.split('\n');
    const lastHeadNumber = Math.max(...head.map(Number).filter((n) => n > 0 && n < 10_000));
    expect(page).toContain(`\n${lastHeadNumber + 1}\n`);

    // Higher offsets reach every line, the middle included.
    // (The saved text starts with three lines naming the command, folder and "Output:".)
    const middle = await run('read_file', { absolute_path: file, offset: 10_003, limit: 3 });
    expect(middle).toMatch(/^\[Showing lines 10004-10006 of \d+ in .*\]\n10001\n10002\n10003$/);
  });
});
