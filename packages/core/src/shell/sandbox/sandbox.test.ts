import { describe, expect, it } from 'vitest';
import { PROMPT_FOLDER_ROOTS } from '../../config/prompt-folders.js';
import { shellProgram } from '../shell-execution.js';
import type { SandboxSetting } from './policy.js';
import type { ProfileName } from './profiles/profiles.js';
import { CommandSandbox, sandboxFailureHint } from './sandbox.js';

const broken = () => ({ available: false as const, reason: 'bwrap is not installed' });
const sandboxFor = (sandbox: SandboxSetting) =>
  new CommandSandbox(
    () => ({ sandbox, network: 'allow' }),
    () => ({
      workspaceRoots: ['/ws'],
      projectTempDir: '/tmp/t',
      homeDirs: [],
      promptFolders: PROMPT_FOLDER_ROOTS,
    }),
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

describe('CommandSandbox and the unasked profile', () => {
  const works = { available: true as const, kind: 'bwrap' as const, program: '/usr/bin/bwrap' };
  /** A machine where only `profiles` work. */
  const machine = (sandbox: SandboxSetting, ...profiles: ProfileName[]) => {
    const asked: string[] = [];
    const box = new CommandSandbox(
      () => ({ sandbox, network: 'allow' }),
      () => ({
        workspaceRoots: ['/ws'],
        projectTempDir: '/tmp/t',
        homeDirs: [],
        promptFolders: PROMPT_FOLDER_ROOTS,
      }),
      (network, profile) => {
        asked.push(`${profile}:${network}`);
        return profiles.includes(profile) ? works : broken();
      },
    );
    return { box, asked };
  };

  it('says why what nobody said yes to cannot run contained, or null where it can', () => {
    const { box, asked } = machine('auto', 'approved', 'unasked');
    expect(box.unaskedMissing()).toBeNull();
    expect(asked).toEqual(['unasked:deny']);
    expect(machine('auto', 'approved').box.unaskedMissing()).toBe('bwrap is not installed');
    expect(machine('off', 'approved', 'unasked').box.unaskedMissing()).toBe(
      'tools.shell.sandbox is "off"',
    );
  });

  it('asks about the approved profile with the network setting to confine', () => {
    const { box, asked } = machine('on', 'approved');
    expect(box.confines()).toBe(true);
    expect(asked).toEqual(['approved:allow']);
    expect(machine('off', 'approved').box.confines()).toBe(false);
  });

  it('falls back to the approved profile where the unasked one does not work, and runs unsandboxed when off', () => {
    const onlyApproved = machine('on', 'approved').box;
    const plan = onlyApproved.plan(shellProgram(), '/ws', false, false, 'unasked');
    expect(plan).toMatchObject({ kind: 'refused' }); // the approved plan, which sets up mounts
    expect(plan.kind === 'refused' && plan.message).toContain('could not be set up');
    const off = machine('off', 'approved', 'unasked').box;
    expect(off.plan(shellProgram(), '/ws', false, false, 'unasked')).toEqual({
      kind: 'unsandboxed',
    });
    // Asked to run outside: the unasked profile does not apply.
    const auto = machine('auto', 'approved', 'unasked').box;
    expect(auto.plan(shellProgram(), '/ws', true, false, 'unasked')).toEqual({
      kind: 'unsandboxed',
    });
  });

  it('mounts what deny rules cover only where the command will run under bwrap', () => {
    const both = machine('auto', 'approved', 'unasked').box;
    expect(both.mountsRulePaths(false, 'unasked')).toBe(true);
    expect(both.mountsRulePaths(false, 'approved')).toBe(true);
    expect(both.mountsRulePaths(true, 'approved')).toBe(false); // outside the sandbox
    // The unasked profile falls back to the approved one, which runs under bwrap too.
    expect(machine('auto', 'approved').box.mountsRulePaths(false, 'unasked')).toBe(true);
    expect(machine('off', 'approved', 'unasked').box.mountsRulePaths()).toBe(false);
    expect(machine('auto').box.mountsRulePaths()).toBe(false);
    const seatbelt = new CommandSandbox(
      () => ({ sandbox: 'on', network: 'allow' }),
      () => ({
        workspaceRoots: ['/ws'],
        projectTempDir: '/tmp/t',
        homeDirs: [],
        promptFolders: PROMPT_FOLDER_ROOTS,
      }),
      () => ({ available: true, kind: 'sandbox-exec', program: '/usr/bin/sandbox-exec' }),
    );
    expect(seatbelt.confines()).toBe(true);
    expect(seatbelt.mountsRulePaths()).toBe(false);
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
    const unasked = sandboxFailureHint('Read-only file system', true, 'deny', 'auto', 'unasked');
    expect(unasked).toContain('ran without asking');
    expect(unasked).toContain('no unix socket');
    expect(unasked).not.toContain('credentials');
    expect(
      sandboxFailureHint('bash: rg: command not found', true, 'deny', 'auto', 'unasked'),
    ).toContain('programs installed there are missing');
    expect(
      sandboxFailureHint('cat: x: No such file or directory', true, 'deny', 'auto'),
    ).toBeNull();
    const dubious = "fatal: detected dubious ownership in repository at '/ws'";
    expect(sandboxFailureHint(dubious, true, 'deny', 'auto', 'unasked')).toContain(
      'ran without asking',
    );
    expect(sandboxFailureHint('Permission denied', true, 'deny', 'auto')).toContain(
      "toolhost's own folders",
    );
  });

  it('names the prompt folders its caller keeps read-only', () => {
    const hint = (folders?: string[]) =>
      sandboxFailureHint('Permission denied', true, 'allow', 'auto', 'approved', false, folders);
    expect(hint(['.toolhost', '.qwen'])).toContain(
      "the repository's .git and the project's .toolhost, .qwen are read-only",
    );
    expect(hint()).toContain("the repository's .git is read-only");
  });

  it("names the person's deny rules when they covered paths, in both profiles", () => {
    for (const profile of ['unasked', 'approved'] as const) {
      const hint = sandboxFailureHint('Permission denied', true, 'allow', 'auto', profile, true);
      expect(hint).toContain("what the person's Read deny rules cover is hidden");
    }
    expect(sandboxFailureHint('Permission denied', true, 'allow', 'auto')).not.toContain(
      'deny rules cover',
    );
  });
});
