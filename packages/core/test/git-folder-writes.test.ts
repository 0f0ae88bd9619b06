/**
 * Files inside .git/ (config, hooks) decide which programs git runs, so write_file and
 * edit there always ask, even in auto-edit mode or when the tool is allowed in settings;
 * proved by the file's content after the person declines.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { Settings } from '../src/config/settings.js';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import { scriptedScheduler } from './helpers/scheduler.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
const ORIGINAL = '[core]\n\tbare = false\n';
beforeEach(() => {
  ws = makeWorkspace();
  mkdirSync(ws.p('.git/hooks'), { recursive: true });
  writeFileSync(ws.p('.git/config'), ORIGINAL);
  ws.write('notes.txt', 'old\n');
  symlinkSync(ws.p('.git/config'), ws.p('innocent.cfg'));
});
afterEach(() => ws.cleanup());

async function call(
  mode: 'default' | 'auto-edit' | 'yolo',
  name: string,
  args: Record<string, unknown>,
  settings: Settings = {},
) {
  const config = new Config({ roots: [ws.root], homeDir: ws.home, settings, approvalMode: mode });
  const scheduled = scriptedScheduler(config, { answer: ToolConfirmationOutcome.Cancel });
  const done = await scheduled.call(name, args);
  return { status: done.status, asked: scheduled.asked };
}

const EVIL = '[core]\n\tfsmonitor = ./run.sh\n';
const ATTEMPTS: [string, string, Record<string, unknown>][] = [
  ['write_file .git/config', 'write_file', { file_path: '.git/config', content: EVIL }],
  [
    'write_file .git/hooks/pre-commit',
    'write_file',
    { file_path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' },
  ],
  [
    'write_file through a link to .git/config',
    'write_file',
    { file_path: 'innocent.cfg', content: EVIL },
  ],
  [
    'write_file sub/../.git/config',
    'write_file',
    { file_path: 'sub/../.git/config', content: EVIL },
  ],
  [
    'edit .git/config',
    'edit',
    { file_path: '.git/config', old_string: 'bare = false', new_string: 'fsmonitor = ./run.sh' },
  ],
];

describe('changes inside .git/ always ask', () => {
  for (const [label, name, args] of ATTEMPTS) {
    const absolute = () => ({ ...args, file_path: ws.p(String(args.file_path)) });
    const modes: ['default' | 'auto-edit', Settings][] = [
      ['default', {}],
      ['auto-edit', {}],
      ['auto-edit', { tools: { allowed: ['write_file', 'edit'] } }],
    ];
    for (const [mode, settings] of modes) {
      it(`${label} in ${mode}${settings.tools ? ' with the tool allowed' : ''}`, async () => {
        const hook = ws.p('.git/hooks/pre-commit');
        const { status, asked } = await call(mode, name, absolute(), settings);
        expect(status).toBe('cancelled');
        expect(asked).toHaveLength(1);
        expect(asked[0]!.title).toContain('inside .git/');
        expect(readFileSync(ws.p('.git/config'), 'utf8')).toBe(ORIGINAL);
        expect(() => readFileSync(hook)).toThrow();
      });
    }
  }

  it('are reported by needsApproval the same way', async () => {
    const config = new Config({
      roots: [ws.root],
      homeDir: ws.home,
      settings: { tools: { allowed: ['write_file'] } },
      approvalMode: 'auto-edit',
    });
    const { scheduler } = scriptedScheduler(config, { answer: null });
    const ask = (file: string) =>
      scheduler.needsApproval(
        { callId: 'n', name: 'write_file', args: { file_path: ws.p(file), content: 'x' } },
        new AbortController().signal,
      );
    expect(await ask('.git/config')).toBe(true);
    expect(await ask('notes.txt')).toBe(false);
    config.setApprovalMode('yolo');
    expect(await ask('.git/config')).toBe(false);
  });

  it('run in yolo mode, as the person chose', async () => {
    const { status, asked } = await call('yolo', 'write_file', {
      file_path: ws.p('.git/config'),
      content: EVIL,
    });
    expect(status).toBe('success');
    expect(asked).toEqual([]);
    expect(readFileSync(ws.p('.git/config'), 'utf8')).toBe(EVIL);
  });

  it('leave other files to auto-edit mode', async () => {
    const { status, asked } = await call('auto-edit', 'write_file', {
      file_path: ws.p('notes.txt'),
      content: 'new\n',
    });
    expect(asked).toEqual([]);
    expect(status).toBe('success');
    expect(readFileSync(ws.p('notes.txt'), 'utf8')).toBe('new\n');
  });
});
