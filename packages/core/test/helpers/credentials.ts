/**
 * A home folder with a secret in every usual credential location, and files beside them
 * that are not secrets: what the sandbox must hide, and what it must leave visible.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A file in each credential location (relative to the home folder) and its secret. */
export const SECRET_FILES: Readonly<Record<string, string>> = {
  '.ssh/id_ed25519': 'SECRET-SSH',
  '.aws/credentials': 'SECRET-AWS',
  '.gnupg/private.key': 'SECRET-GPG',
  '.config/gcloud/credentials.db': 'SECRET-GCLOUD',
  '.kube/config': 'SECRET-KUBE',
  '.docker/config.json': 'SECRET-DOCKER',
  '.netrc': 'SECRET-NETRC',
  '.npmrc': 'SECRET-NPMRC',
  '.pypirc': 'SECRET-PYPIRC',
  '.git-credentials': 'SECRET-GIT',
  '.toolhost/settings.json': 'SECRET-TOOLHOST',
  '.qwen/oauth_creds.json': 'SECRET-QWEN',
  '.config/gh/hosts.yml': 'SECRET-GH',
  '.gemini/oauth_creds.json': 'SECRET-GEMINI',
  '.claude/.credentials.json': 'SECRET-CLAUDE',
  '.config/git/credentials': 'SECRET-GIT-CONFIG',
  '.cargo/credentials': 'SECRET-CARGO',
  '.cargo/credentials.toml': 'SECRET-CARGO-TOML',
  '.vault-token': 'SECRET-VAULT',
  '.pgpass': 'SECRET-PGPASS',
  '.azure/accessTokens.json': 'SECRET-AZURE',
  '.bash_history': 'SECRET-BASH-HISTORY',
  '.zsh_history': 'SECRET-ZSH-HISTORY',
  '.local/share/fish/fish_history': 'SECRET-FISH-HISTORY',
  '.python_history': 'SECRET-PYTHON-HISTORY',
  '.node_repl_history': 'SECRET-NODE-HISTORY',
  '.psql_history': 'SECRET-PSQL-HISTORY',
  '.mysql_history': 'SECRET-MYSQL-HISTORY',
};

/** Files next to the credentials that a command may read. */
export const VISIBLE_FILES: Readonly<Record<string, string>> = {
  'notes.txt': 'visible-notes',
  '.config/git/ignore': 'visible-config',
  '.sshrc': 'visible-sshrc',
  '.cargo/config.toml': 'visible-cargo',
  '.config/gh/config.yml': 'visible-gh',
  '.gemini/settings.json': 'visible-gemini',
  '.claude/settings.json': 'visible-claude',
  '.local/share/fish/fish_variables': 'visible-fish',
};

/** Writes SECRET_FILES and VISIBLE_FILES under `home`. */
export function writeCredentialHome(home: string): void {
  for (const [file, content] of Object.entries({ ...SECRET_FILES, ...VISIBLE_FILES })) {
    mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
    writeFileSync(path.join(home, file), content);
  }
}
