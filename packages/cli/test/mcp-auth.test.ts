/**
 * `toolhost mcp auth <server>` and `toolhost mcp logout <server>` as a person runs them,
 * against a local authorization server on 127.0.0.1: the command prints the sign-in page
 * (`--no-browser`, as where no browser can be opened), the test plays the browser by
 * following that page's redirect back to the command's loopback listener, and the tokens
 * the command stores let a later `toolhost call` use the server; logout deletes them.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthMcpServer } from '../../core/test/helpers/oauth-server.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { startCli } from './run-cli.js';

let dirs: TempDirs;
let server: Awaited<ReturnType<typeof startOAuthMcpServer>>;

beforeEach(async () => {
  dirs = makeTempDirs();
  server = await startOAuthMcpServer();
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({ mcpServers: { guarded: { httpUrl: server.url, trust: true } } }),
  );
});
afterEach(async () => {
  await server.close();
  dirs.cleanup();
});

const options = () => ({ cwd: dirs.root, home: dirs.home });
/** The command, not waited for synchronously: the authorization server runs in this process. */
const run = (args: string[]) => startCli(args, options()).exited;
const tokenFiles = () => {
  const folder = path.join(dirs.home, '.toolhost', 'mcp-oauth');
  return existsSync(folder) ? readdirSync(folder).map((name) => path.join(folder, name)) : [];
};

describe('toolhost mcp auth and logout', () => {
  it('prints the sign-in page, takes the redirect, stores the tokens privately, and logs out', async () => {
    const before = await run(['call', 'whoami', '{}']);
    expect(before.code).not.toBe(0);
    expect(before.stderr).toContain('run "toolhost mcp auth guarded"');

    const auth = startCli(['mcp', 'auth', 'guarded', '--no-browser'], options());
    let page: URL | undefined;
    for (let waited = 0; !page && waited < 20_000; waited += 100) {
      const printed = /open this page:\s+(\S+)/.exec(auth.stderr());
      if (printed?.[1]) page = new URL(printed[1]);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(page?.searchParams.get('code_challenge_method')).toBe('S256');
    // The browser: the sign-in page approves and redirects to the command's listener.
    const landing = await fetch(page!);
    expect(await landing.text()).toContain('Signed in');
    const done = await auth.exited;
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(/Signed in to "guarded"\. The tokens are kept in \S+mcp-oauth/);
    const [file] = tokenFiles();
    expect(statSync(file!).mode & 0o777).toBe(0o600);

    const after = await run(['call', 'whoami', '{}']);
    expect(after.stdout).toMatch(/signed in as /);

    const logout = await run(['mcp', 'logout', 'guarded']);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain('Signed out of "guarded"');
    expect(tokenFiles()).toEqual([]);
    const again = await run(['mcp', 'logout', 'guarded']);
    expect(again.stderr).toContain('toolhost kept no sign-in for "guarded"');
  }, 90_000);

  it('names the configured servers when asked for one that does not exist', async () => {
    const result = await run(['mcp', 'auth', 'nosuch']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'no MCP server is called "nosuch"; the configured ones are guarded',
    );
  });
});
