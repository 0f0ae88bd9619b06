import { describe, expect, it } from 'vitest';
import {
  droppedSecretNames,
  isSecretVariable,
  shellEnvironment,
  withoutSecrets,
} from './shell-environment.js';

// The expectations live here, not in the module: a word removed from the filter fails a case.
const SECRET_NAMES = [
  'OPENAI_API_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'GH_TOKEN',
  'DB_PASSWORD',
  'MYSQL_PASSWD',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'NPM_AUTH',
  'OAUTH_CLIENT',
  'SSH_KEY_PASSPHRASE',
  'GITHUB_PAT',
  'PAT',
  'PAT_FOR_CI',
  'SENTRY_DSN',
  'SLACK_WEBHOOK_URL',
  'BROWSER_COOKIE',
  'SESSION_ID',
  'XDG_SESSION_COOKIE',
  'GPG_PRIVATE',
  'private_thing',
  'auth_header',
];
const PLAIN_NAMES = ['PATH', 'PATTERN', 'HOME', 'LANG', 'SPATIAL', 'EDITOR', 'NODE_ENV', 'USER'];

describe('the secret filter', () => {
  for (const name of SECRET_NAMES) {
    it(`drops ${name}`, () => {
      expect(isSecretVariable(name, 'x')).toBe(true);
      expect(withoutSecrets({ [name]: 'x', KEEP: 'y' })).toEqual({ KEEP: 'y' });
    });
  }
  for (const name of PLAIN_NAMES) {
    it(`keeps ${name}`, () => {
      expect(isSecretVariable(name, '/usr/bin')).toBe(false);
      expect(withoutSecrets({ [name]: '/usr/bin' })).toEqual({ [name]: '/usr/bin' });
    });
  }

  it('drops values that carry credentials in a URL, keeps URLs without them', () => {
    expect(isSecretVariable('DATABASE_URL', 'postgres://app:hunter2@db:5432/x')).toBe(true);
    expect(isSecretVariable('PROXY', 'http://:pw@proxy:3128')).toBe(true);
    expect(isSecretVariable('MIRROR', 'git+ssh://u:p@host/repo')).toBe(true);
    expect(isSecretVariable('HOMEPAGE', 'https://example.com/a@b')).toBe(false);
    expect(isSecretVariable('REPO', 'ssh://git@github.com/x')).toBe(false);
    expect(isSecretVariable('TIME', '12:30')).toBe(false);
  });

  it('keeps what allowEnv lists, and only that', () => {
    const base = { GH_TOKEN: 't', SENTRY_DSN: 'd', DATABASE_URL: 'pg://a:b@h/x' };
    expect(withoutSecrets(base, ['GH_TOKEN', 'DATABASE_URL'])).toEqual({
      GH_TOKEN: 't',
      DATABASE_URL: 'pg://a:b@h/x',
    });
    expect(droppedSecretNames(base, ['GH_TOKEN'])).toEqual(['SENTRY_DSN', 'DATABASE_URL']);
  });

  it('adds toolhost markers to the shell environment', () => {
    expect(shellEnvironment({ GH_TOKEN: 't', A: 'b' })).toEqual({
      A: 'b',
      TOOLHOST: '1',
      PAGER: 'cat',
      GIT_PAGER: 'cat',
    });
  });
});
