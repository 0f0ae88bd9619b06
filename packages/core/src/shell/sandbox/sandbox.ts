/**
 * The OS sandbox around shell commands (bubblewrap on Linux, sandbox-exec on macOS as best
 * effort). This module owns how a command is launched: inside the sandbox or not, in which
 * profile (profiles/: unasked for what runs without the person's yes, approved for the
 * rest), per `tools.shell.sandbox` (auto | on | off) and `tools.shell.network` (allow |
 * deny), whether each profile works on this machine, and the words that tell the model a
 * failure may come from it. It does not decide whether a command may run at all
 * (shell-permissions.ts), nor which environment variables it gets (shell-environment.ts).
 */
import os from 'node:os';
import type { ShellProgram } from '../shell-execution.js';
import { bwrapShell, probeBwrap } from './bwrap.js';
import type { NetworkSetting, SandboxPolicy, SandboxSetting } from './policy.js';
import type { ProfileName } from './profiles/profiles.js';
import type { CoveredPaths } from './rule-paths/covered.js';
import { probeSeatbelt, seatbeltShell } from './seatbelt.js';

export type SandboxKind = 'bwrap' | 'sandbox-exec';

export type SandboxStatus =
  | { available: true; kind: SandboxKind; program: string }
  | { available: false; reason: string };

/**
 * A failed probe stands this long, then the next command probes again: a failure may be
 * passing (a full or missing temporary folder, a probe timed out on a busy machine) and
 * must not leave the sandbox off for the rest of the process. A success stands for good.
 */
export const SANDBOX_RECHECK_MS = 30_000;

const statusCache = new Map<string, { status: SandboxStatus; checkedAt: number }>();

/**
 * Whether a profile's sandbox works on this machine (probed per process, profile and
 * network setting; the unasked profile never has network).
 */
export function sandboxStatus(
  network: NetworkSetting = 'allow',
  platform: NodeJS.Platform = process.platform,
  now: number = Date.now(),
  profile: ProfileName = 'approved',
): SandboxStatus {
  const key = `${platform}:${profile}:${profile === 'unasked' ? 'deny' : network}`;
  const cached = statusCache.get(key);
  if (cached && (cached.status.available || now - cached.checkedAt < SANDBOX_RECHECK_MS))
    return cached.status;
  const status = probeSandbox(network, platform, profile);
  statusCache.set(key, { status, checkedAt: now });
  return status;
}

function probeSandbox(
  network: NetworkSetting,
  platform: NodeJS.Platform,
  profile: ProfileName,
): SandboxStatus {
  try {
    if (platform === 'linux') {
      const probe = probeBwrap(network, undefined, profile);
      return probe.ok
        ? { available: true, kind: 'bwrap', program: probe.program }
        : { available: false, reason: probe.reason };
    }
    if (platform === 'darwin' && profile === 'unasked') {
      return {
        available: false,
        reason:
          'sandbox-exec cannot hide the rest of the machine from a command; this profile needs bwrap (Linux)',
      };
    }
    if (platform === 'darwin') {
      const probe = probeSeatbelt();
      return probe.ok
        ? { available: true, kind: 'sandbox-exec', program: probe.program }
        : { available: false, reason: probe.reason };
    }
    return { available: false, reason: `no sandbox is implemented for ${platform}` };
  } catch (error) {
    // The probe's own scratch folder could not be made, or the like.
    const message = error instanceof Error ? error.message : String(error);
    return { available: false, reason: `the sandbox could not be checked (${message})` };
  }
}

/** `tools.shell.sandbox` and `tools.shell.network`, their defaults applied by the caller. */
export interface SandboxSettings {
  sandbox: SandboxSetting;
  network: NetworkSetting;
}

export type LaunchPlan =
  | {
      kind: 'sandboxed';
      shell: ShellProgram;
      sandbox: SandboxKind;
      network: NetworkSetting;
      profile: ProfileName;
    }
  | { kind: 'unsandboxed'; notice?: string }
  | { kind: 'refused'; message: string };

/** Decides, per command, how it is launched; one per session (it gives its notice once). */
export class CommandSandbox {
  private noticeGiven = false;

  constructor(
    private readonly settings: () => SandboxSettings,
    private readonly policy: () => Omit<SandboxPolicy, 'network'>,
    /** Whether a profile works here; replaceable to try a machine where it does not. */
    private readonly status: (network: NetworkSetting, profile: ProfileName) => SandboxStatus = (
      network,
      profile,
    ) => sandboxStatus(network, undefined, undefined, profile),
  ) {}

  get setting(): SandboxSetting {
    return this.settings().sandbox;
  }

  get network(): NetworkSetting {
    return this.settings().network;
  }

  /** True when commands run sandboxed, so running one outside is a separate permission. */
  confines(): boolean {
    return this.setting !== 'off' && this.status(this.network, 'approved').available;
  }

  /**
   * Why what nobody said yes to cannot run in the unasked profile here (the sandbox is
   * off, or that profile does not work), or null when it can.
   */
  unaskedMissing(): string | null {
    if (this.setting === 'off') return 'tools.shell.sandbox is "off"';
    const status = this.status('deny', 'unasked');
    return status.available ? null : status.reason;
  }

  /**
   * Whether a command planned with these arguments runs under bwrap, which mounts what the
   * person's Read and Edit deny rules cover (sandbox-exec cannot).
   */
  mountsRulePaths(outside = false, profile: ProfileName = 'approved'): boolean {
    if (this.setting === 'off' || outside) return false;
    const status =
      profile === 'unasked' && this.unaskedMissing() === null
        ? this.status('deny', 'unasked')
        : this.status(this.network, 'approved');
    return status.available && status.kind === 'bwrap';
  }

  /**
   * `outlivesToolhost`: a background command kept after toolhost exits. `profile`
   * unasked falls back to approved where it cannot run: the caller asked the person then.
   * `covered`: what the person's deny rules cover now, mounted over (rule-paths/).
   */
  plan(
    shell: ShellProgram,
    cwd: string,
    outside = false,
    outlivesToolhost = false,
    profile: ProfileName = 'approved',
    covered?: CoveredPaths,
  ): LaunchPlan {
    const setting = this.setting;
    if (setting === 'off') return { kind: 'unsandboxed' };
    if (profile === 'unasked' && !outside && this.unaskedMissing() === null)
      return this.launch(
        'unasked',
        this.status('deny', 'unasked'),
        shell,
        cwd,
        outlivesToolhost,
        covered,
      );
    const network = this.network;
    const status = this.status(network, 'approved');
    if (!status.available) {
      if (setting === 'on') {
        return {
          kind: 'refused',
          message: `Commands must run in the OS sandbox (tools.shell.sandbox is "on"), but it does not work here: ${status.reason}. Nothing was run. The person can fix the sandbox (toolhost doctor shows what is wrong) or change the setting.`,
        };
      }
      if (this.noticeGiven) return { kind: 'unsandboxed' };
      this.noticeGiven = true;
      return {
        kind: 'unsandboxed',
        notice: `Note: shell commands run without an OS sandbox on this machine (${status.reason}).${network === 'deny' ? ' tools.shell.network "deny" cannot be enforced either.' : ''}`,
      };
    }
    if (outside) {
      if (setting === 'on') {
        return {
          kind: 'refused',
          message:
            'This command cannot run outside the sandbox: the person\'s settings require it (tools.shell.sandbox is "on"). Nothing was run. Find a way that works inside the sandbox, or ask the person to run the command themselves.',
        };
      }
      return { kind: 'unsandboxed' };
    }
    return this.launch('approved', status, shell, cwd, outlivesToolhost, covered);
  }

  private launch(
    profile: ProfileName,
    status: SandboxStatus,
    shell: ShellProgram,
    cwd: string,
    outlivesToolhost: boolean,
    covered: CoveredPaths | undefined,
  ): LaunchPlan {
    if (!status.available) throw new Error('launch() needs a sandbox that works');
    const network = profile === 'unasked' ? 'deny' : this.network;
    const policy: SandboxPolicy = {
      ...this.policy(),
      network,
      dieWithParent: !outlivesToolhost,
      ...(covered ? { covered } : {}),
    };
    try {
      const sandboxed =
        status.kind === 'bwrap'
          ? bwrapShell(status.program, shell, policy, cwd, profile)
          : seatbeltShell(shell, policy);
      return { kind: 'sandboxed', shell: sandboxed, sandbox: status.kind, network, profile };
    } catch (error) {
      // What must stay read-only could not be worked out: running anyway could leave it open.
      const message = error instanceof Error ? error.message : String(error);
      return {
        kind: 'refused',
        message: `The sandbox for this command could not be set up: ${message}. Nothing was run. The person can run the command themselves, or fix what is named.`,
      };
    }
  }
}

/** The home folders whose credentials are hidden: the session's and the process owner's. */
export function homeFolders(sessionHome: string): string[] {
  return [...new Set([sessionHome, os.homedir()])];
}

const BLOCKED_FILE_ACCESS =
  /read-only file system|operation not permitted|permission denied|EROFS|EPERM|EACCES/i;
const MISSING = /no such file or directory|command not found|ENOENT|dubious ownership/i;
const BLOCKED_NETWORK =
  /could not resolve|temporary failure in name resolution|name or service not known|network is unreachable|ENETUNREACH|EAI_AGAIN|ENOTFOUND|getaddrinfo|no route to host|failed to connect|connection refused|unable to access/i;

/**
 * For a sandboxed command that failed in a way the sandbox may cause (a read-only file
 * system, a refused permission, no network): what the model should know and may do.
 * `ruled`: the person's deny rules covered paths that were hidden or made read-only.
 * `promptFolders`: the policy's prompt folders, kept read-only in the approved profile.
 */
export function sandboxFailureHint(
  output: string,
  failed: boolean,
  network: NetworkSetting,
  setting: SandboxSetting,
  profile: ProfileName = 'approved',
  ruled = false,
  promptFolders: readonly string[] = [],
): string | null {
  if (!failed) return null;
  // What the unasked profile leaves out (the home folder, programs installed there) is missing.
  const files = BLOCKED_FILE_ACCESS.test(output) || (profile === 'unasked' && MISSING.test(output));
  const net = network === 'deny' && BLOCKED_NETWORK.test(output);
  if (!files && !net) return null;
  const limits =
    profile === 'unasked'
      ? [
          'it ran without asking, so in the read-only profile: the workspace is read-only, nothing outside it but the system folders is there (the home folder is empty, so programs installed there are missing), only /tmp is writable (a private one)',
          'there is no network and no unix socket',
        ]
      : [
          "files outside the workspace and its private /tmp are read-only, toolhost's own folders included",
          'credentials in the home folder (~/.ssh, ~/.aws, tokens, shell histories...) are hidden',
          `${promptFolders.length > 0 ? `the repository's .git and the project's ${promptFolders.join(', ')} are` : "the repository's .git is"} read-only (git commit, checkout, fetch and the like cannot change the repository here; subagents and commands are written with the file tools)`,
          ...(network === 'deny'
            ? ['there is no network and no unix socket (tools.shell.network is "deny")']
            : []),
        ];
  if (ruled)
    limits.push(
      "what the person's Read deny rules cover is hidden and what their Edit deny rules cover is read-only (toolhost doctor lists them); that is their decision, do not try to reach those paths another way",
    );
  const next =
    setting === 'on'
      ? 'The person\'s settings require the sandbox (tools.shell.sandbox is "on"), so it cannot run outside it: find another way, or ask the person to run it themselves.'
      : 'If it failed because of that and the command really needs more, call run_shell_command again with the same command and outside_sandbox: true; the person will be asked to let it run without the sandbox.';
  return `Note: this command ran in toolhost's OS sandbox (${limits.join('; ')}). ${next}`;
}
