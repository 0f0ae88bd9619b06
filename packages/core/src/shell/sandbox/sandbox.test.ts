import { describe, expect, it } from 'vitest';
import { shellProgram } from '../shell-execution.js';
import type { SandboxSetting } from './policy.js';
import { CommandSandbox, sandboxFailureHint } from './sandbox.js';

const broken = () => ({ available: false as const, reason: 'bwrap is not installed' });
const sandboxFor = (sandbox: SandboxSetting) =>
  new CommandSandbox(
    () => ({ sandbox }),
    () => ({ workspaceRoots: ['/ws'], projectTempDir: '/tmp/t', homeDirs: [] }),
    broken,
  );

describe('CommandSandbox on a machine where the sandbox does not work', () => {
  it('"on" refuses every command, saying why and what to do', () => {
    const plan = sandboxFor('on').plan(shellProgram(), '/ws');
    expect(plan.kind).toBe('refused');
    expect(plan.kind === 'refused' && plan.message).toContain('bwrap is not installed');
    expect(plan.kind === 'refused' && plan.message).toContain('toolhost doctor');
  });

  it('"auto" runs without it and gives its notice once', () => {
    const sandbox = sandboxFor('auto');
    const first = sandbox.plan(shellProgram(), '/ws');
    const second = sandbox.plan(shellProgram(), '/ws');
    expect(first).toEqual({
      kind: 'unsandboxed',
      notice: expect.stringContaining('without an OS sandbox'),
    });
    expect(second).toEqual({ kind: 'unsandboxed' });
    expect(sandbox.confines()).toBe(false);
  });
});

describe('sandboxFailureHint', () => {
  it('speaks only for failures the sandbox may cause', () => {
    expect(
      sandboxFailureHint('touch: cannot touch: Read-only file system', true, 'allow', 'auto'),
    ).toContain('outside_sandbox: true');
    expect(sandboxFailureHint('Read-only file system', false, 'allow', 'auto')).toBeNull();
    expect(sandboxFailureHint('grep: no match', true, 'allow', 'auto')).toBeNull();
    expect(
      sandboxFailureHint('Could not resolve host: example.com', true, 'allow', 'auto'),
    ).toBeNull();
    expect(
      sandboxFailureHint('Could not resolve host: example.com', true, 'deny', 'auto'),
    ).toContain('no network');
    expect(sandboxFailureHint('Permission denied', true, 'allow', 'on')).toContain(
      'cannot run outside',
    );
  });
});
