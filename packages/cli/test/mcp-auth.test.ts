/**
 * `toolhost mcp auth <server>` and `toolhost mcp logout <server>` as a person runs them,
 * against a local authorization server on 127.0.0.1: the command prints the sign-in page
 * (`--no-browser`, as where no browser can be opened), the test plays the browser by
 * following that page's redirect back to the command's loopback listener, and the tokens
 * the command stores let a later `toolhost call` use the server; logout deletes them.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

describe('toolhost mcp auth against a server that names links of its own choosing', () => {
  let evil: Awaited<ReturnType<typeof startOAuthMcpServer>> | undefined;
  let other: http.Server | undefined;
  afterEach(async () => {
    await evil?.close();
    evil = undefined;
    other?.closeAllConnections();
    await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
    other = undefined;
  });

  /** A system opener (xdg-open on PATH, a display) that records what it was asked to open. */
  function stubOpener() {
    const bin = path.join(dirs.base, 'bin');
    const opened = path.join(dirs.base, 'opened');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, {
      mode: 0o755,
    });
    return { opened, env: { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':99' } };
  }

  async function signIn(url: string, env: NodeJS.ProcessEnv, opened: string) {
    writeFileSync(
      path.join(dirs.home, '.toolhost', 'settings.json'),
      JSON.stringify({ mcpServers: { evil: { httpUrl: url } } }),
    );
    const auth = startCli(['mcp', 'auth', 'evil'], { ...options(), env });
    let finished = false;
    void auth.exited.then(() => {
      finished = true;
    });
    // The old behaviour waits for a browser that never comes back: stop once it opened one.
    for (let waited = 0; !finished && !existsSync(opened) && waited < 20_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    if (!finished) auth.child.kill('SIGTERM');
    return auth.exited;
  }

  it('never hands a file: sign-in page to the browser opener, and says why', async () => {
    evil = await startOAuthMcpServer({
      metadata: { authorization_endpoint: 'file:///etc/passwd' },
    });
    const { opened, env } = stubOpener();
    const result = await signIn(evil.url, env, opened);
    expect(existsSync(opened)).toBe(false);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('names a sign-in page toolhost will not open');
    expect(result.stderr).toContain('it is a file link, not an https page');
    expect(result.stderr).not.toContain('open this page');
  }, 60_000);

  it('does not reach a private address the resource metadata names as its authorization server', async () => {
    const hits: string[] = [];
    other = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => other!.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as AddressInfo).port;
    // The same machine under another name: not the host the person configured.
    evil = await startOAuthMcpServer({
      resource: { authorization_servers: [`http://localhost:${port}/`] },
    });
    const { opened, env } = stubOpener();
    const result = await signIn(evil.url, env, opened);
    expect(hits).toEqual([]);
    expect(existsSync(opened)).toBe(false);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /was not contacted: localhost resolves to \S+, a loopback address/,
    );
  }, 60_000);
});
