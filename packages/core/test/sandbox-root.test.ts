/**
 * Through run_shell_command, as the user the tests run as (root in CI): a command has no
 * capability, so remounting the file system writable or unmounting what hides credentials
 * and the git folder leads nowhere. test/sandbox-profiles.test.ts tries the same as nobody.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import { sandboxStatus } from '../src/shell/sandbox/sandbox.js';
import { ShellTool } from '../src/tools/shell.js';
import { writeCredentialHome } from './helpers/credentials.js';
import { openFolder, removeFolder } from './helpers/sandbox-run.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const works = process.platform === 'linux' && sandboxStatus('allow').available;

let ws: TempWorkspace;
/** Outside the workspace and outside /tmp, which the sandbox replaces. */
let outside: string;
beforeAll(() => {
  outside = openFolder('toolhost-sandbox-root-');
});
afterAll(() => removeFolder(outside));
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  await ws.config.dispose();
  ws.cleanup();
});

async function run(tool: ShellTool, command: string): Promise<string> {
  const result = await tool.execute(
    { command, is_background: false },
    new AbortController().signal,
  );
  return String(result.llmContent);
}

describe.skipIf(!works)('sandbox: capabilities', () => {
  it('drops every capability, so root can neither remount nor unmount its way out', async () => {
    execFileSync('git', ['init', '-q', ws.root]);
    const home = path.join(outside, `home-${Date.now()}`);
    writeCredentialHome(home);
    const canary = path.join(outside, `remount-canary-${Date.now()}`);
    const config = new Config({
      roots: [ws.root],
      homeDir: home,
      settings: { tools: { shell: { sandbox: 'on' } } },
    });
    const tool = new ShellTool(config);
    const output = await run(
      tool,
      [
        'mount -o remount,rw / 2>&1',
        `touch ${canary} 2>&1`,
        `umount ${home}/.ssh 2>&1; cat ${home}/.ssh/id_ed25519 2>&1`,
        'umount .git 2>&1; printf "#!/bin/sh\\necho planted\\n" > .git/hooks/post-commit 2>&1',
        'grep CapEff /proc/self/status',
      ].join('; '),
    );
    expect(output).toMatch(/CapEff:\s+0000000000000000/);
    expect(existsSync(canary)).toBe(false);
    expect(output).not.toContain('SECRET-SSH');
    expect(existsSync(ws.p('.git/hooks/post-commit'))).toBe(false);
  });
});
