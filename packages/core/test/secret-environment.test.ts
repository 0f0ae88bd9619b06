/**
 * No secrets handed out, proved by what the started programs actually see: a shell
 * command, the discovery command and a stdio MCP server (server-everything's get-env).
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { Settings } from '../src/config/settings.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { EVERYTHING } from './helpers/mcp-servers.js';
import { outputOf, scriptedScheduler } from './helpers/scheduler.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

// One variable per listed word, plus a credentials URL under a harmless name.
const SECRETS: Record<string, string> = {
  TOOLHOST_T_AUTH: 'leak-auth',
  TOOLHOST_T_PASSPHRASE: 'leak-passphrase',
  TOOLHOST_T_PAT: 'leak-pat',
  TOOLHOST_T_DSN: 'leak-dsn',
  TOOLHOST_T_WEBHOOK: 'leak-webhook',
  TOOLHOST_T_COOKIE: 'leak-cookie',
  TOOLHOST_T_SESSION: 'leak-session',
  TOOLHOST_T_PRIVATE: 'leak-private',
  TOOLHOST_T_API_KEY: 'leak-key',
  TOOLHOST_T_SECRET: 'leak-secret',
  TOOLHOST_T_TOKEN: 'leak-token',
  TOOLHOST_T_PASSWORD: 'leak-password',
  TOOLHOST_T_DB_URL: 'postgres://app:leak-url@db/x',
};
const PLAIN = { TOOLHOST_T_PATTERN: 'seen-pattern', TOOLHOST_T_PLAIN: 'seen-plain' };

let ws: TempWorkspace;
let registry: ToolRegistry | undefined;
beforeEach(() => {
  ws = makeWorkspace();
  Object.assign(process.env, SECRETS, PLAIN);
});
afterEach(async () => {
  await registry?.closeMcpServers();
  registry = undefined;
  for (const name of [...Object.keys(SECRETS), ...Object.keys(PLAIN), 'LC_TOOLHOSTT'])
    delete process.env[name];
  ws.cleanup();
});

function setup(settings: Settings) {
  const config = new Config({ roots: [ws.root], homeDir: ws.home, settings, approvalMode: 'yolo' });
  registry = createToolRegistry(config, { env: {} });
  const scheduled = scriptedScheduler(config, { registry });
  const call = async (name: string, args: Record<string, unknown>) =>
    outputOf(await scheduled.call(name, args));
  return { config, registry, call };
}

function expectNoSecrets(seen: string, except: string[] = []) {
  for (const [name, value] of Object.entries(SECRETS)) {
    if (except.includes(name)) expect(seen).toContain(value);
    else expect(seen, name).not.toContain(value);
  }
}

describe('secrets are not handed to started programs', () => {
  it('shell commands see none of them, but the plain variables', async () => {
    const { call } = setup({});
    const seen = await call('run_shell_command', { command: 'env', is_background: false });
    expectNoSecrets(seen);
    expect(seen).toContain('seen-pattern');
    expect(seen).toContain('seen-plain');
    expect(seen).toMatch(/^PATH=/m);
  });

  it('shell commands see the ones tools.shell.allowEnv lists', async () => {
    const { call } = setup({
      tools: { shell: { allowEnv: ['TOOLHOST_T_SESSION', 'TOOLHOST_T_DB_URL'] } },
    });
    const seen = await call('run_shell_command', { command: 'env', is_background: false });
    expectNoSecrets(seen, ['TOOLHOST_T_SESSION', 'TOOLHOST_T_DB_URL']);
  });

  it('the discovery command sees none of them', async () => {
    const dump = path.join(ws.base, 'discovery-env.json');
    const discover = path.join(ws.root, 'discover.mjs');
    writeFileSync(
      discover,
      `#!${process.execPath}\nimport { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(dump)}, JSON.stringify(process.env));\nconsole.log('[]');\n`,
    );
    chmodSync(discover, 0o755);
    const { registry: reg } = setup({
      tools: { discoveryCommand: discover, shell: { allowEnv: ['TOOLHOST_T_PAT'] } },
    });
    await reg.discoverAllTools();
    const seen = readFileSync(dump, 'utf8');
    expectNoSecrets(seen, ['TOOLHOST_T_PAT']);
    expect(seen).toContain('seen-plain');
  });

  it('a stdio MCP server does not inherit credentials, even under a passed-through name', async () => {
    process.env.LC_TOOLHOSTT = 'https://user:leak-lc@proxy.example';
    process.env.LANG = process.env.LANG ?? 'C.UTF-8';
    const { registry: reg, call } = setup({
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          trust: true,
          env: { CONFIGURED_VAR: 'configured' },
        },
      },
    });
    await reg.discoverAllTools();
    const seen = await call('get-env', {});
    expect(seen).toContain('configured');
    expect(seen).toContain('PATH');
    expect(seen).not.toContain('leak-lc');
    expectNoSecrets(seen);
  });
});
