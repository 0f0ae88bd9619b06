import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWithin } from '../workspace/workspace-context.js';
import { isSystemProgram } from './system-programs.js';

let ws: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'system-programs-')));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const inWorkspace = (file: string) => isWithin(ws, file);

describe('isSystemProgram', () => {
  it('takes programs in the system folders, by any absolute path leading there', () => {
    expect(isSystemProgram('/bin/sh', inWorkspace)).toBe(true);
    expect(isSystemProgram('/usr/bin/env', inWorkspace)).toBe(true);
    expect(isSystemProgram('/usr/bin/../bin/env', inWorkspace)).toBe(true);
  });

  it('refuses relative paths, other folders, and links from the workspace', () => {
    expect(isSystemProgram('bin/sh', inWorkspace)).toBe(false);
    expect(isSystemProgram('./sh', inWorkspace)).toBe(false);
    expect(isSystemProgram('/usr/lib/sh', inWorkspace)).toBe(false);
    expect(isSystemProgram(path.join(ws, 'sh'), inWorkspace)).toBe(false);
    // A link in a system folder's place: judged where it leads.
    symlinkSync(ws, path.join(ws, 'usr-bin'));
    expect(isSystemProgram(path.join(ws, 'usr-bin', 'sh'), inWorkspace)).toBe(false);
  });

  it('refuses a system folder that lies inside the workspace', () => {
    expect(isSystemProgram('/usr/bin/env', () => true)).toBe(false);
  });
});
