/**
 * The sandbox seen from the command line: toolhost's own environment (API keys included)
 * is out of a command's reach, and `toolhost doctor` says whether the sandbox works.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxStatus } from '@toolhost/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCli } from './run-cli.js';

const status = sandboxStatus('allow');
const reason = status.available ? '' : ` (skipped: ${status.available ? '' : status.reason})`;
if (!status.available) console.warn(`sandbox command-line tests skipped: ${status.reason}`);

let dirs: TempDirs;
let root: string;
let home: string;
beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
  ({ root, home } = dirs);
});
afterEach(() => dirs.cleanup());

// Every process's environment the command can find, toolhost's own first.
const SNOOP =
  "{ tr '\\0' '\\n' < /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done; } 2>/dev/null | grep -c TOOLHOST_TEST_CANARY";

function snoop(settings: unknown) {
  mkdirSync(path.join(home, '.toolhost'), { recursive: true });
  writeFileSync(path.join(home, '.toolhost', 'settings.json'), JSON.stringify(settings));
  const { code, stdout, stderr } = runCli(
    [
      'call',
      'run_shell_command',
      JSON.stringify({ command: SNOOP, is_background: false }),
      '--yes',
      '--json',
    ],
    {
      cwd: root,
      home,
      env: { OPENAI_API_KEY: 'TOOLHOST_TEST_CANARY-key', TOOLHOST_TEST_CANARY_TOKEN: 'x' },
    },
  );
  expect({ code, stderr }).toMatchObject({ code: 0 });
  const result = JSON.parse(stdout) as { llmContent: string };
  return Number(/Output:\n(\d+)/.exec(result.llmContent)?.[1]);
}

describe.skipIf(!status.available)(`sandbox from the command line${reason}`, () => {
  it("a command cannot read toolhost's environment, which holds the API key", () => {
    // Without the sandbox the same command finds it: the probe works.
    expect(snoop({ tools: { shell: { sandbox: 'off' } } })).toBeGreaterThan(0);
    expect(snoop({ tools: { shell: { sandbox: 'on' } } })).toBe(0);
  }, 180_000);

  it('toolhost doctor says the sandbox works, in both profiles, and what each hides', () => {
    const { code, stdout } = runCli(['doctor'], { cwd: root, home });
    expect(stdout).toContain('sandbox: works (bwrap');
    expect(stdout).toContain('tools.shell.sandbox: auto: commands run in the sandbox');
    expect(stdout).toMatch(
      /profile unasked, for commands that run without your yes .*: runs here \(bwrap\)/,
    );
    expect(stdout).toMatch(/profile approved, for commands you allowed .*: runs here \(bwrap\)/);
    expect(stdout).toContain('hides: everything outside the workspace and the system folders');
    expect(stdout).toContain('hides: credentials in your home folder');
    expect(stdout).toContain(
      'read-only commands in default mode: run without asking, in the unasked profile',
    );
    expect(code).toBe(0);
  }, 90_000);

  it('toolhost doctor says read-only commands ask with the sandbox off, unless parsing alone is opted into', () => {
    const doctor = (shell: Record<string, unknown>) => {
      mkdirSync(path.join(home, '.toolhost'), { recursive: true });
      writeFileSync(
        path.join(home, '.toolhost', 'settings.json'),
        JSON.stringify({ tools: { shell } }),
      );
      return runCli(['doctor'], { cwd: root, home }).stdout;
    };
    const off = doctor({ sandbox: 'off' });
    expect(off).toContain('profile unasked, for commands that run without your yes');
    expect(off).toContain('not used (tools.shell.sandbox is "off")');
    expect(off).toContain('read-only commands in default mode: ask');
    const parseOnly = doctor({ sandbox: 'off', parseOnlyAutoApproval: true });
    expect(parseOnly).toContain('on parsing alone (tools.shell.parseOnlyAutoApproval: weaker');
  }, 90_000);
});
