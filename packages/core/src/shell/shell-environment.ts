/**
 * The environment handed to programs toolhost starts (shell commands, the discovery and
 * call commands, stdio MCP servers): one secret filter for all of them, so a name that is
 * dropped for one is dropped for every one.
 */

/** Name parts that mark a variable as a secret (matched anywhere in the name). */
export const SECRET_NAME_PARTS = [
  'KEY',
  'SECRET',
  'TOKEN',
  'PASSWORD',
  'PASSWD',
  'CREDENTIAL',
  'AUTH',
  'PASSPHRASE',
  'DSN',
  'WEBHOOK',
  'COOKIE',
  'SESSION',
  'PRIVATE',
] as const;
/** Matched only as a whole `_`-separated word, so PATH and PATTERN stay: GITHUB_PAT, PAT. */
export const SECRET_NAME_WORDS = ['PAT'] as const;

const SECRET_NAME = new RegExp(
  `${SECRET_NAME_PARTS.join('|')}|(^|_)(${SECRET_NAME_WORDS.join('|')})(_|$)`,
  'i',
);
/** `scheme://user:password@host`: credentials inside a URL. */
const URL_WITH_CREDENTIALS = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]*@/i;

/** True when a variable looks like it carries a secret, by its name or by its value. */
export function isSecretVariable(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || URL_WITH_CREDENTIALS.test(value);
}

/** `base` without secret-looking variables, except those `allowEnv` names. */
export function withoutSecrets(
  base: NodeJS.ProcessEnv,
  allowEnv: readonly string[] = [],
): Record<string, string> {
  const allowed = new Set(allowEnv);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (!allowed.has(name) && isSecretVariable(name, value)) continue;
    env[name] = value;
  }
  return env;
}

/** The environment a command runs with: the person's, minus secrets, plus toolhost's markers. */
export function shellEnvironment(
  base: NodeJS.ProcessEnv,
  allowEnv: readonly string[] = [],
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = withoutSecrets(base, allowEnv);
  env.TOOLHOST = '1';
  env.PAGER = 'cat';
  env.GIT_PAGER = 'cat';
  return env;
}

/** Names that `shellEnvironment` leaves out, for telling the model. */
export function droppedSecretNames(
  base: NodeJS.ProcessEnv,
  allowEnv: readonly string[] = [],
): string[] {
  const kept = withoutSecrets(base, allowEnv);
  return Object.keys(base).filter((name) => base[name] !== undefined && !(name in kept));
}
