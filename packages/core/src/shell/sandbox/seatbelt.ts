/**
 * macOS, best effort, approved profile only: the command runs under `sandbox-exec` with a
 * profile that allows everything except writes outside the workspace roots and the
 * temporary folders, reads of credential locations, writes to git folders and project
 * settings, and (when denied) the network. There is no PID namespace: other processes of
 * the same user stay visible (`ps -E` shows their environment). The unasked profile needs
 * bwrap: on macOS, what would run unasked asks instead.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ShellProgram } from '../shell-execution.js';
import { protectedPaths, protectedRootEntries, type SandboxPolicy } from './policy.js';
import { existingCredentialPaths } from './profiles/credentials.js';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** A string literal for the profile language. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(policy: SandboxPolicy): string {
  // Not toolhost's project temporary folder: a link planted there would be written through.
  const writable = [...policy.workspaceRoots, '/private/tmp', '/private/var/folders'];
  // Missing names are denied by path, so nothing is made for them.
  const kept = protectedPaths(policy.workspaceRoots, policy.promptFolders, false);
  // The entries by name too: a link there can neither be removed nor made anew.
  const readOnly = [
    ...kept.readOnly,
    ...policy.workspaceRoots.flatMap((root) =>
      protectedRootEntries(policy.promptFolders).map((name) => path.join(root, name)),
    ),
  ];
  const hidden = existingCredentialPaths(policy.homeDirs);
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${writable.map((dir) => `(subpath ${quote(dir)})`).join(' ')} (literal "/dev/null") (literal "/dev/stdout") (literal "/dev/stderr") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`,
  ];
  if (readOnly.length > 0)
    lines.push(`(deny file-write* ${readOnly.map((p) => `(subpath ${quote(p)})`).join(' ')})`);
  if (hidden.length > 0)
    lines.push(
      `(deny file-read* file-write* ${hidden.map((p) => `(subpath ${quote(p)})`).join(' ')})`,
    );
  if (policy.network === 'deny') lines.push('(deny network*)', '(allow network* (local unix))');
  return `${lines.join('\n')}\n`;
}

export function seatbeltShell(shell: ShellProgram, policy: SandboxPolicy): ShellProgram {
  const profile = seatbeltProfile(policy);
  return {
    file: SANDBOX_EXEC,
    args: (command) => ['-p', profile, shell.file, ...shell.args(command)],
  };
}

export function probeSeatbelt(): { ok: true; program: string } | { ok: false; reason: string } {
  if (!existsSync(SANDBOX_EXEC)) return { ok: false, reason: `${SANDBOX_EXEC} is missing` };
  return { ok: true, program: SANDBOX_EXEC };
}
