/**
 * Where secrets usually live in a home folder: one list, hidden in both profiles (README,
 * "The OS sandbox"). A `*` in a name stands for any text (`.cargo/credentials*`:
 * `credentials` and `credentials.toml`).
 */
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';

export const CREDENTIAL_LOCATIONS = [
  // keys and cloud accounts
  '.ssh',
  '.aws',
  '.gnupg',
  '.azure',
  '.oci',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.vault-token',
  '.s3cfg',
  '.boto',
  '.config/rclone',
  '.terraform.d/credentials.tfrc.json',
  '.password-store',
  '.local/share/keyrings',
  // git hosts, package registries, databases
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.config/gh/hosts.yml',
  '.config/hub',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.gem/credentials',
  '.cargo/credentials*',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
  '.pgpass',
  '.my.cnf',
  // coding agents (toolhost's own folder included) and browsers' cookies
  '.toolhost',
  '.qwen',
  '.gemini/oauth_creds.json',
  '.gemini/google_accounts.json',
  '.claude/.credentials.json',
  '.codex/auth.json',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  // shell and interpreter histories: commands typed with passwords and tokens
  '.bash_history',
  '.zsh_history',
  '.zhistory',
  '.sh_history',
  '.histfile',
  '.local/share/fish/fish_history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.rediscli_history',
  '.irb_history',
  '.lesshst',
] as const;

/** The credential locations that exist, as real paths (a link to elsewhere is hidden there). */
export function existingCredentialPaths(homeDirs: readonly string[]): string[] {
  const found = new Set<string>();
  for (const home of homeDirs) {
    for (const location of CREDENTIAL_LOCATIONS) {
      for (const candidate of expandLocation(path.join(home, location))) {
        try {
          found.add(realpathSync.native(candidate));
        } catch {
          // not there (or a link to nowhere)
        }
      }
    }
  }
  return [...found].sort();
}

/**
 * The paths a location names: itself, or where its last part holds a `*`, the entries of
 * its folder that start with what comes before it and end with what comes after.
 */
export function expandLocation(location: string): string[] {
  const name = path.basename(location);
  const star = name.indexOf('*');
  if (star < 0) return [location];
  const folder = path.dirname(location);
  const [before, after] = [name.slice(0, star), name.slice(star + 1)];
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return []; // no such folder: nothing of it to hide
  }
  return names
    .filter((entry) => entry.startsWith(before) && entry.endsWith(after))
    .map((entry) => path.join(folder, entry));
}
