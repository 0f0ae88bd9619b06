/**
 * The two sandbox profiles, chosen by who said yes. What runs without the person's yes (a
 * line proven read-only in `default` mode) runs in the *unasked* profile: only the system's
 * program folders and the workspace are there, all read-only, the home folder is an empty
 * one, `/tmp` is private, there is no network and no socket but the internet ones of an
 * empty network namespace. What the person allowed (asked, "always", their rules, a mode
 * that does not ask) runs in the *approved* profile: the workspace writable, the rest
 * read-only, credentials hidden, toolhost's own folders read-only. This folder owns what
 * each profile shows, hides and lets change, as a list of mounts; it does not decide
 * whether a command may run (shell-permissions.ts) nor how a mount is made (bwrap.ts
 * turns the list into bubblewrap's arguments and adds the namespaces, dropped
 * capabilities and socket filter every profile gets).
 */
import type { ShellDecision } from '../../shell-permissions.js';
import type { Mount } from '../mount.js';
import type { NetworkSetting, SandboxPolicy } from '../policy.js';
import { withRuleMounts } from '../rule-paths/rule-mounts.js';
import { approvedMounts } from './approved.js';
import { unaskedMounts } from './unasked.js';

export type { Mount } from '../mount.js';

export type ProfileName = 'unasked' | 'approved';

export interface SandboxLayout {
  profile: ProfileName;
  mounts: Mount[];
  /** `deny`: an empty network namespace, and no sockets but its internet ones. */
  network: NetworkSetting;
  /** Gives back what was made to mount on, once the command has ended (once is enough). */
  release: () => void;
}

/**
 * The profile a command runs in: unasked only when nobody said yes to it, neither to the
 * line (asked, "always", a rule) nor to every command at once (`yolo`, the whole tool
 * allowed: `blanketYes`).
 */
export function profileFor(decision: ShellDecision, blanketYes = false): ProfileName {
  const readOnly = decision.kind === 'allow' && decision.reason === 'read_only';
  return readOnly && !blanketYes ? 'unasked' : 'approved';
}

/**
 * What `profile` shows a command launched under `policy`: the profile's own mounts, then
 * what the person's Read and Edit deny rules cover (rule-paths/), in both profiles.
 */
export function sandboxLayout(profile: ProfileName, policy: SandboxPolicy): SandboxLayout {
  const own =
    profile === 'approved'
      ? approvedMounts(policy)
      : { mounts: unaskedMounts(policy), release: () => {} };
  const ruled = withRuleMounts(own.mounts, policy.covered);
  const release = () => {
    ruled.release();
    own.release();
  };
  const network = profile === 'approved' ? policy.network : 'deny';
  return { profile, mounts: ruled.mounts, network, release };
}

/** What each profile guarantees, in words, for `toolhost doctor` and the model's hints. */
export const PROFILE_SUMMARIES: Readonly<Record<ProfileName, { who: string; hides: string }>> = {
  unasked: {
    who: 'commands that run without your yes (read-only commands in default mode)',
    hides:
      'everything outside the workspace and the system folders (your home folder is an empty one), the network and unix sockets; the workspace and the system are read-only, /tmp is private, no capabilities',
  },
  approved: {
    who: 'commands you allowed (asked, "always", tools.allowed, auto-edit or yolo mode)',
    hides:
      'credentials in your home folder (~/.ssh, ~/.aws, tokens, shell histories...); toolhost\'s own folders, .git and prompt folders are read-only, everything outside the workspace too; no capabilities; with tools.shell.network "deny" no network and no unix sockets',
  },
};
