/**
 * Extensions through the installed command, as a Gemini CLI / Qwen Code user and a Claude
 * Code user install them: the fixture extension and plugin (each with an MCP server using
 * the MCP SDK, a command, a hook, an agent and a skill; the Gemini one with a context file)
 * installed from a folder and from a git repository, checked by what reaches the scripted
 * model and what their programs leave behind, and gone once disabled.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXTENSION_FIXTURES, extensionProject } from './helpers/extension-project.js';
import { runCli } from './run-cli.js';

const GEMINI = path.join(EXTENSION_FIXTURES, 'gemini-ext');
const CLAUDE = path.join(EXTENSION_FIXTURES, 'claude-plugin');

const extension = extensionProject('greet the team');
const { project, runAgent } = extension;

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(args, { cwd: project.dirs.root, home: project.dirs.home, env });

function install(source: string, env: NodeJS.ProcessEnv = {}, extra: string[] = []) {
  const result = cli(['extensions', 'install', source, '--consent', ...extra], env);
  expect(result.stderr + result.stdout).toMatch(/installed/);
  expect(result.code).toBe(0);
  return result;
}

const toolNames = (request: { body: { tools?: { function: { name: string } }[] } } | undefined) =>
  (request?.body.tools ?? []).map((tool) => tool.function.name);

function allowMcpTools(): void {
  mkdirSync(path.join(project.dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(project.dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({
      permissions: { allow: ['mcp__gem-server__gem_echo', 'mcp__claude-server__claude_echo'] },
    }),
  );
}

describe('extensions and plugins through the command', { timeout: 120_000 }, () => {
  it('an extension and a plugin installed from folders reach the model, and are gone once disabled', async () => {
    install(GEMINI, { FIXTURE_GREETING: 'hello-from-env' });
    install(CLAUDE);
    allowMcpTools();
    const on = await runAgent([
      { name: 'gem_echo', args: { text: 'one' } },
      { name: 'claude_echo', args: { text: 'two' } },
    ]);
    expect(on.result.code, on.result.stderr).toBe(0);
    const [first, second] = on.requests;
    const names = toolNames(first);
    expect(names).toEqual(expect.arrayContaining(['gem_echo', 'claude_echo']));
    // The Gemini extension's excludeTools takes glob away.
    expect(names).not.toContain('glob');
    const offered = JSON.stringify(first?.body);
    for (const marker of [
      'MARKER-GEMINI-CONTEXT',
      'MARKER-GEMINI-SKILL',
      'MARKER-CLAUDE-SKILL',
      'MARKER-GEMINI-AGENT',
      'MARKER-CLAUDE-AGENT',
    ])
      expect(offered, marker).toContain(marker);
    // Claude Code plugins have no context file: a CLAUDE.md in one is not read.
    expect(offered).not.toContain('MARKER-CLAUDE-NOT-CONTEXT');
    // The servers ran and answered: the settings answer in the Gemini server's environment,
    // the plugin's root in the Claude one's.
    const results = JSON.stringify(second?.body.messages);
    expect(results).toContain('GEM-ECHO:one:hello-from-env');
    expect(results).toContain(
      `CLAUDE-ECHO:two:${path.join(project.dirs.home, '.toolhost', 'extensions', 'fixture-claude')}`,
    );
    // Both hooks ran on the prompt.
    expect(existsSync(path.join(extension.canaries, 'gemini-hook'))).toBe(true);
    expect(existsSync(path.join(extension.canaries, 'claude-hook'))).toBe(true);

    expect(cli(['extensions', 'disable', 'fixture-gemini']).code).toBe(0);
    expect(cli(['extensions', 'disable', 'fixture-claude']).code).toBe(0);
    rmCanaries();
    const off = await runAgent();
    expect(off.result.code, off.result.stderr).toBe(0);
    const offNames = toolNames(off.requests[0]);
    expect(offNames).not.toContain('gem_echo');
    expect(offNames).not.toContain('claude_echo');
    expect(offNames).toContain('glob');
    const offBody = JSON.stringify(off.requests[0]?.body);
    for (const marker of ['MARKER-GEMINI', 'MARKER-CLAUDE']) expect(offBody).not.toContain(marker);
    expect(existsSync(path.join(extension.canaries, 'gemini-hook'))).toBe(false);
    expect(existsSync(path.join(extension.canaries, 'claude-hook'))).toBe(false);

    // On again for this workspace only: back here, still off in another folder.
    expect(cli(['extensions', 'enable', 'fixture-gemini', '--scope', 'workspace']).code).toBe(0);
    const list = JSON.parse(cli(['extensions', 'list', '--json']).stdout) as {
      name: string;
      enabled: boolean;
    }[];
    expect(list.find((entry) => entry.name === 'fixture-gemini')?.enabled).toBe(true);
    const elsewhere = runCli(['extensions', 'list', '--json'], {
      cwd: project.dirs.base,
      home: project.dirs.home,
    });
    expect(JSON.parse(elsewhere.stdout)[1].enabled).toBe(false);
    const back = await runAgent();
    expect(toolNames(back.requests[0])).toContain('gem_echo');
    expect(existsSync(path.join(extension.canaries, 'gemini-hook'))).toBe(true);
  });

  it('asks before installing: without a terminal and without --consent nothing is installed', () => {
    const refused = cli(['extensions', 'install', GEMINI]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--consent');
    // What it would add was listed: the server with its command, the hook, the command.
    expect(refused.stderr).toMatch(/MCP server "gem-server": runs node .*server\.mjs/);
    expect(refused.stderr).toMatch(/hook on UserPromptSubmit: runs node .*canary\.mjs/);
    expect(refused.stderr).toContain('/gem-hello');
    expect(refused.stderr).toContain('excluded tools: glob');
    expect(
      existsSync(path.join(project.dirs.home, '.toolhost', 'extensions', 'fixture-gemini')),
    ).toBe(false);
    // "extensions" is a command, never a prompt for the agent.
    expect(refused.stderr).not.toMatch(/no model|OPENAI_/);
  });

  it('installs from a git repository at a ref, records it, and updates from it', async () => {
    const repo = path.join(project.dirs.base, 'repo');
    cpSync(GEMINI, repo, { recursive: true });
    const git = gitRepo(repo);
    git('tag', 'v1');
    const manifest = path.join(repo, 'gemini-extension.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"1.2.0"', '"2.0.0"'));
    git('commit', '--quiet', '-am', 'second');

    install(`file://${repo}`, {}, ['--ref', 'v1']);
    const listed = () =>
      JSON.parse(cli(['extensions', 'list', '--json']).stdout) as {
        name: string;
        version: string;
        install: {
          type: string;
          source: string;
          ref?: string;
          commit?: string;
          installedAt: string;
        };
      }[];
    const [installed] = listed();
    expect(installed?.version).toBe('1.2.0');
    expect(installed?.install).toMatchObject({ type: 'git', source: `file://${repo}`, ref: 'v1' });
    expect(installed?.install.commit).toBe(git('rev-parse', 'v1').trim());
    expect(Date.parse(installed?.install.installedAt ?? '')).not.toBeNaN();
    // No .git folder is kept in toolhost's copy.
    expect(
      existsSync(path.join(project.dirs.home, '.toolhost/extensions/fixture-gemini/.git')),
    ).toBe(false);

    // The ref moves: update installs it again from the same place.
    git('tag', '-f', 'v1', 'main');
    const updated = cli(['extensions', 'update', 'fixture-gemini', '--consent']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(listed()[0]?.version).toBe('2.0.0');

    // doctor names it.
    expect(cli(['doctor']).stdout).toMatch(
      /extension fixture-gemini 2\.0\.0 \(gemini\): on, from /,
    );
    // And it works: its server is offered.
    const run = await runAgent();
    expect(toolNames(run.requests[0])).toContain('gem_echo');
  });

  it('installs an npm package (fetched with npm pack), and uninstalls it', () => {
    const pkg = path.join(project.dirs.base, 'pkg');
    cpSync(GEMINI, pkg, { recursive: true });
    writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({ name: '@fixture/gemini-ext', version: '1.2.0' }),
    );
    execFileSync('npm', ['pack', '--silent'], {
      cwd: pkg,
      env: { ...process.env, HOME: project.dirs.home },
    });
    const tarball = path.join(pkg, 'fixture-gemini-ext-1.2.0.tgz');
    install(`npm:${tarball}`, {}, ['--scope', 'workspace']);
    const [entry] = JSON.parse(cli(['extensions', 'list', '--json']).stdout);
    expect(entry).toMatchObject({ name: 'fixture-gemini', version: '1.2.0', format: 'gemini' });
    // Installed for this workspace only: on here, off elsewhere.
    expect(entry.enabled).toBe(true);
    const elsewhere = runCli(['extensions', 'list', '--json'], {
      cwd: project.dirs.base,
      home: project.dirs.home,
    });
    expect(JSON.parse(elsewhere.stdout)[0].enabled).toBe(false);
    expect(entry.install).toMatchObject({ type: 'npm', source: `npm:${tarball}` });
    expect(cli(['extensions', 'disable', 'fixture-gemini']).code).toBe(0);
    const removed = cli(['extensions', 'uninstall', 'fixture-gemini']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(
      existsSync(path.join(project.dirs.home, '.toolhost', 'extensions', 'fixture-gemini')),
    ).toBe(false);
    // Its on/off choice went with it.
    const choices = readFileSync(
      path.join(project.dirs.home, '.toolhost', 'extension-enablement.json'),
      'utf8',
    );
    expect(JSON.parse(choices)).toEqual({});
    expect(cli(['extensions', 'uninstall', 'fixture-gemini']).stderr).toContain(
      'no extension "fixture-gemini" is installed',
    );
  });

  it('new makes an extension to start from; linked, its edits reach the next session', async () => {
    const folder = path.join(project.dirs.base, 'my-ext');
    const made = cli(['extensions', 'new', folder]);
    expect(made.code, made.stderr).toBe(0);
    expect(cli(['extensions', 'link', folder, '--consent']).code).toBe(0);
    const [entry] = JSON.parse(cli(['extensions', 'list', '--json']).stdout);
    expect(entry).toMatchObject({ name: 'my-ext', format: 'qwen', path: folder });
    expect(entry.install).toMatchObject({ type: 'link', source: folder });
    writeFileSync(path.join(folder, 'QWEN.md'), 'MARKER-LINKED-EDIT\n');
    const run = await runAgent();
    expect(JSON.stringify(run.requests[0]?.body)).toContain('MARKER-LINKED-EDIT');
  });

  it('installs a plugin by name from a marketplace added from a folder', async () => {
    const market = path.join(project.dirs.base, 'market');
    cpSync(CLAUDE, path.join(market, 'plugins', 'fixture-claude'), { recursive: true });
    mkdirSync(path.join(market, '.claude-plugin'));
    writeFileSync(
      path.join(market, '.claude-plugin', 'marketplace.json'),
      JSON.stringify({
        name: 'fixture-market',
        owner: { name: 'tests' },
        plugins: [{ name: 'fixture-claude', source: './plugins/fixture-claude' }],
      }),
    );
    // The marketplace itself is not a plugin: the message says what to do.
    const wrong = cli(['extensions', 'install', market, '--consent']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('marketplace add');
    const added = cli(['extensions', 'marketplace', 'add', market]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('fixture-market');
    const missing = cli(['extensions', 'install', 'fixture-market:nope', '--consent']);
    expect(missing.stderr).toContain('has no plugin "nope"; it has fixture-claude');
    install('fixture-market:fixture-claude');
    const [entry] = JSON.parse(cli(['extensions', 'list', '--json']).stdout);
    expect(entry.install).toMatchObject({
      type: 'marketplace',
      marketplace: 'fixture-market',
      plugin: 'fixture-claude',
    });
    // Claude Code's form names the same plugin.
    expect(cli(['extensions', 'uninstall', 'fixture-claude']).code).toBe(0);
    install('fixture-claude@fixture-market');
    allowMcpTools();
    const run = await runAgent([{ name: 'claude_echo', args: { text: 'market' } }]);
    expect(JSON.stringify(run.requests[1]?.body.messages)).toContain('CLAUDE-ECHO:market:');

    // The same marketplace from a git repository: cloned into toolhost's folder.
    expect(cli(['extensions', 'marketplace', 'remove', 'fixture-market']).code).toBe(0);
    expect(cli(['extensions', 'uninstall', 'fixture-claude']).code).toBe(0);
    const git = gitRepo(market);
    const fromGit = cli(['extensions', 'marketplace', 'add', `file://${market}`]);
    expect(fromGit.code, fromGit.stderr).toBe(0);
    expect(cli(['extensions', 'marketplace', 'list']).stdout).toContain(
      `fixture-market (git file://${market})`,
    );
    const clone = path.join(project.dirs.home, '.toolhost', 'marketplaces', 'fixture-market');
    expect(existsSync(path.join(clone, '.claude-plugin', 'marketplace.json'))).toBe(true);
    install('fixture-market:fixture-claude');
    expect(
      existsSync(
        path.join(
          project.dirs.home,
          '.toolhost/extensions/fixture-claude/.claude-plugin/plugin.json',
        ),
      ),
    ).toBe(true);
    // A plugin added upstream shows once the marketplace is updated (Qwen Code's "sources" name).
    const listing = path.join(market, '.claude-plugin', 'marketplace.json');
    const data = JSON.parse(readFileSync(listing, 'utf8'));
    data.plugins.push({ name: 'later', source: './plugins/fixture-claude' });
    writeFileSync(listing, JSON.stringify(data));
    git('commit', '--quiet', '-am', 'a second plugin');
    const updated = cli(['extensions', 'sources', 'update', 'fixture-market']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain('2 plugin(s): fixture-claude, later');
  });
});

/** Makes `folder` a git repository with one commit of everything in it. */
function gitRepo(folder: string): (...args: string[]) => string {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: folder,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
  git('init', '--quiet', '-b', 'main');
  git('add', '.');
  git('commit', '--quiet', '-m', 'first');
  return git;
}

function rmCanaries(): void {
  for (const name of ['gemini-hook', 'claude-hook'])
    execFileSync('rm', ['-f', path.join(extension.canaries, name)]);
}
