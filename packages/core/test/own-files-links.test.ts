/**
 * toolhost's own files never follow a link planted among them. Commands may write the
 * project's temporary folder (the sandbox binds it writable), so a command can leave a link
 * where toolhost writes next: a saved tool output or a background log. Each case plants
 * such a link to a victim outside, then makes toolhost write there through the real
 * scheduler and shell tool; the victim must keep its content and no file may appear
 * outside.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outputOf, scriptedScheduler } from './helpers/scheduler.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const KEEP = 'the victim keeps this\n';
let ws: TempWorkspace;
let outside: string;
beforeEach(() => {
  ws = makeWorkspace({
    settings: { tools: { truncateOutputThreshold: 4_000, shell: { sandbox: 'off' } } },
    approvalMode: 'yolo',
  });
  outside = path.join(ws.base, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'victim.txt'), KEEP);
});
afterEach(async () => {
  await ws.config.dispose();
  ws.cleanup();
});

const LONG = { command: 'seq 1 20000', is_background: false };

describe('a saved tool output', () => {
  it('replaces a link planted at its name instead of writing through it', async () => {
    const folder = path.join(ws.config.projectTempDir, 'tool-outputs');
    mkdirSync(folder, { recursive: true });
    const planted = path.join(folder, 'run_shell_command-cli-call.txt');
    symlinkSync(path.join(outside, 'victim.txt'), planted);
    const { call } = scriptedScheduler(ws.config);
    const output = outputOf(await call('run_shell_command', LONG, { callId: 'cli-call' }));
    expect(readFileSync(path.join(outside, 'victim.txt'), 'utf8')).toBe(KEEP);
    // The whole output is saved all the same, in a file of its own where the link was.
    expect(output).toContain(`saved in ${planted}`);
    expect(lstatSync(planted).isFile()).toBe(true);
    expect(readFileSync(planted, 'utf8')).toContain('\n10000\n');
  });

  it('is not saved at all when its folder is a link leading outside', async () => {
    mkdirSync(ws.config.projectTempDir, { recursive: true });
    symlinkSync(outside, path.join(ws.config.projectTempDir, 'tool-outputs'));
    const { call } = scriptedScheduler(ws.config);
    const output = outputOf(await call('run_shell_command', LONG, { callId: 'cli-call' }));
    expect(output).toContain('could not be saved');
    expect(readdirSync(outside)).toEqual(['victim.txt']);
  });
});

describe('a background log', () => {
  it('is not created outside through a linked background folder', async () => {
    mkdirSync(ws.config.projectTempDir, { recursive: true });
    symlinkSync(outside, path.join(ws.config.projectTempDir, 'background'));
    const { call } = scriptedScheduler(ws.config);
    const done = await call('run_shell_command', { command: 'echo started', is_background: true });
    expect(done.response.error?.message ?? '').toContain('symbolic link');
    expect(readdirSync(outside)).toEqual(['victim.txt']);
  });

  it('is still written in a background folder of its own', async () => {
    const { call } = scriptedScheduler(ws.config);
    const done = await call('run_shell_command', { command: 'echo started', is_background: true });
    const log = /log: ([^)\s]+)\)/.exec(String(done.response.resultDisplay ?? ''))?.[1];
    expect(log, outputOf(done)).toBeDefined();
    expect(path.dirname(log!)).toBe(path.join(ws.config.projectTempDir, 'background'));
    for (let i = 0; i < 50 && !readFileSync(log!, 'utf8').includes('started'); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readFileSync(log!, 'utf8')).toContain('started');
    expect(existsSync(path.join(outside, 'started'))).toBe(false);
  });
});
