import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROMPT_FOLDER_ROOTS } from '../src/config/prompt-folders.js';
import { probeBwrap } from '../src/shell/sandbox/bwrap.js';
import { CommandSandbox, SANDBOX_RECHECK_MS, sandboxStatus } from '../src/shell/sandbox/sandbox.js';
import { shellProgram } from '../src/shell/shell-execution.js';
import { makeTempDirs } from './helpers/temp-workspace.js';

const bwrapWorks = process.platform === 'linux' && probeBwrap('allow').ok;
const savedTmp = process.env.TMPDIR;
function restoreTmp() {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
}
afterEach(restoreTmp);

describe('the sandbox availability check', () => {
  it.skipIf(!bwrapWorks)(
    'probes again after a passing failure, and then sandboxes commands',
    () => {
      const dirs = makeTempDirs();
      try {
        // The probe needs a scratch folder; a temporary folder that is not there fails it.
        process.env.TMPDIR = path.join(dirs.base, 'gone');
        const start = 1_000_000;
        const failed = sandboxStatus('deny', 'linux', start);
        expect(failed.available).toBe(false);
        expect(!failed.available && failed.reason).toContain('could not be checked');

        mkdirSync(process.env.TMPDIR);
        // Within the recheck interval the failure stands: commands do not pay a probe each.
        expect(sandboxStatus('deny', 'linux', start + 1000).available).toBe(false);
        rmSync(process.env.TMPDIR, { recursive: true });
        process.env.TMPDIR = savedTmp ?? '';
        if (!savedTmp) delete process.env.TMPDIR;

        const later = start + SANDBOX_RECHECK_MS + 1;
        expect(sandboxStatus('deny', 'linux', later)).toMatchObject({
          available: true,
          kind: 'bwrap',
        });
        const sandbox = new CommandSandbox(
          () => ({ sandbox: 'auto', network: 'deny' }),
          () => ({
            workspaceRoots: [dirs.root],
            projectTempDir: dirs.base,
            homeDirs: [],
            promptFolders: PROMPT_FOLDER_ROOTS,
          }),
          (network) => sandboxStatus(network, 'linux', later),
        );
        expect(sandbox.plan(shellProgram(), dirs.root).kind).toBe('sandboxed');
        // A success stands for good, whatever happens to the temporary folder afterwards.
        process.env.TMPDIR = path.join(dirs.base, 'gone-again');
        expect(sandboxStatus('deny', 'linux', later + 10 * SANDBOX_RECHECK_MS).available).toBe(
          true,
        );
      } finally {
        dirs.cleanup();
      }
    },
  );
});
