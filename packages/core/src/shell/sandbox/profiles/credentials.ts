/**
 * Where secrets usually live in a home folder: one list, hidden in both profiles (README,
 * "The OS sandbox"). A name ending in `*` stands for every entry of its folder that starts
 * with the rest (`.cargo/credentials*`: `credentials` and `credentials.toml`).
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
      for (const candidate of expand(path.join(home, location))) {
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

/** The paths a location names: itself, or for `prefix*` the entries starting with prefix. */
function expand(location: string): string[] {
  if (!location.endsWith('*')) return [location];
  const folder = path.dirname(location);
  const prefix = path.basename(location).slice(0, -1);
  try {
    return readdirSync(folder)
      .filter((name) => name.startsWith(prefix))
      .map((name) => path.join(folder, name));
  } catch {
    return [];
  }
}
