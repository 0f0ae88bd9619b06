/** The environment a command runs with: the person's, minus secrets, plus toolhost's markers. */

const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL/i;

export function shellEnvironment(
  base: NodeJS.ProcessEnv,
  allowEnv: readonly string[] = [],
): NodeJS.ProcessEnv {
  const allowed = new Set(allowEnv);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (SECRET_NAME.test(name) && !allowed.has(name)) continue;
    env[name] = value;
  }
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
  const allowed = new Set(allowEnv);
  return Object.keys(base).filter((name) => SECRET_NAME.test(name) && !allowed.has(name));
}
