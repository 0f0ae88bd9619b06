/**
 * `toolhost mcp` offers the workspace's memory files as resources and the person's command
 * files as prompts, to the MCP SDK's client over stdio and HTTP: what the memory loader
 * would give the model, read-only, nothing from outside the workspace (a memory or command
 * file that is a link to a secret outside is neither listed nor read), `!{}` blocks never
 * run by a prompt, and a resource list change told to the client.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../core/test/helpers/processes.js';
import { mcpServicePerTest } from './helpers/mcp-service.js';
import { CLI } from './run-cli.js';

const service = mcpServicePerTest();
const CANARY = 'SECRET-CANARY-5b1e';
let stdioClient: Client | undefined;

afterEach(async () => {
  await stdioClient?.close().catch(() => undefined);
  stdioClient = undefined;
});

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

async function connectStdio(): Promise<Client> {
  const { root, home } = service.dirs;
  stdioClient = new Client({ name: 'offerings-client', version: '1.0.0' });
  await stdioClient.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--root', root],
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(home, 'no-system-settings.json'),
      },
    }),
  );
  return stdioClient;
}

/** Everything a client can get through resources and prompts, as one text. */
async function everything(client: Client): Promise<string> {
  const seen: unknown[] = [];
  const { resources } = await client.listResources();
  seen.push(resources);
  for (const resource of resources) seen.push(await client.readResource({ uri: resource.uri }));
  const { prompts } = await client.listPrompts();
  seen.push(prompts);
  for (const prompt of prompts)
    seen.push(await client.getPrompt({ name: prompt.name, arguments: { arguments: 'x' } }));
  return JSON.stringify(seen);
}

describe('toolhost mcp: memory files as resources', () => {
  it('lists and reads the workspace memory files the model gets, not the person’s own', async () => {
    const { root, home } = service.dirs;
    write(path.join(root, 'AGENTS.md'), '# Project rules\nUse tabs.\n');
    write(path.join(home, '.toolhost', 'AGENTS.md'), 'the person’s own memory\n');
    write(path.join(root, 'notes.md'), 'not a memory file\n');
    const client = await connectStdio();
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { listChanged: true },
      prompts: {},
    });
    const { resources } = await client.listResources();
    const uri = pathToFileURL(path.join(root, 'AGENTS.md')).href;
    expect(resources).toEqual([
      expect.objectContaining({ uri, name: 'AGENTS.md', mimeType: 'text/markdown' }),
    ]);
    const read = await client.readResource({ uri });
    expect(read.contents).toEqual([
      { uri, mimeType: 'text/markdown', text: '# Project rules\nUse tabs.' },
    ]);
    // Any other path, in the workspace or not, is refused.
    for (const other of [path.join(root, 'notes.md'), path.join(home, '.toolhost', 'AGENTS.md')])
      await expect(client.readResource({ uri: pathToFileURL(other).href })).rejects.toThrow(
        /not one of the resources toolhost offers/,
      );
  });

  it('gives a memory file over the loader’s limit cut as the model gets it', async () => {
    const { root } = service.dirs;
    write(path.join(root, 'AGENTS.md'), 'r'.repeat(120_000));
    const client = await connectStdio();
    const uri = pathToFileURL(path.join(root, 'AGENTS.md')).href;
    const [content] = (await client.readResource({ uri })).contents as { text: string }[];
    expect(content?.text).toBe(
      `${'r'.repeat(100_000)}\n[... cut: the memory files exceed 100000 characters]`,
    );
  });

  it('neither lists nor reads a memory or command file that links to a secret outside', async () => {
    const { root, base } = service.dirs;
    const secret = path.join(base, 'secret.md');
    write(secret, `${CANARY}\n`);
    symlinkSync(secret, path.join(root, 'AGENTS.md'));
    mkdirSync(path.join(root, '.toolhost', 'commands'), { recursive: true });
    symlinkSync(secret, path.join(root, '.toolhost', 'commands', 'leak.md'));
    write(path.join(root, '.toolhost', 'commands', 'fine.md'), 'A fine prompt\n');
    const client = await connectStdio();
    const seen = await everything(client);
    expect(seen).toContain('A fine prompt');
    expect(seen).not.toContain(CANARY);
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['fine']);
    for (const uri of [
      pathToFileURL(path.join(root, 'AGENTS.md')).href,
      pathToFileURL(secret).href,
    ])
      await expect(client.readResource({ uri })).rejects.toThrow(/not one of the resources/);
    await expect(client.getPrompt({ name: 'leak' })).rejects.toThrow(/No prompt is named "leak"/);
  });
});

describe('toolhost mcp: command files as prompts', () => {
  it('offers project and personal commands with their arguments, running nothing', async () => {
    const { root, home } = service.dirs;
    write(
      path.join(root, '.toolhost', 'commands', 'git', 'commit.md'),
      '---\ndescription: Write a commit message\nargument-hint: <scope>\n---\nCommit for $ARGUMENTS.\n!{touch ran.txt; git diff $1}\n',
    );
    write(
      path.join(home, '.toolhost', 'commands', 'hello.toml'),
      'description = "Say hello"\nprompt = "Say hello to the team."\n',
    );
    const client = await connectStdio();
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: 'git:commit',
        description: 'Write a commit message',
        arguments: [
          {
            name: 'arguments',
            description: 'What follows /git:commit when typed: <scope>',
            required: false,
          },
        ],
      },
      { name: 'hello', description: 'Say hello' },
    ]);
    const commit = await client.getPrompt({
      name: 'git:commit',
      arguments: { arguments: 'parser' },
    });
    expect(commit.description).toBe('Write a commit message');
    expect(commit.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text: "Commit for parser.\n[run `touch ran.txt; git diff 'parser'` with run_shell_command and use its output here]",
        },
      },
    ]);
    expect(existsSync(path.join(root, 'ran.txt'))).toBe(false);
    const hello = await client.getPrompt({ name: 'hello' });
    expect(hello.messages[0]?.content).toEqual({ type: 'text', text: 'Say hello to the team.' });
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/prompts\/list/);
  });
});

describe('toolhost mcp --http: resources and prompts per session', () => {
  it('tells each session when a memory file appears', { timeout: 60_000 }, async () => {
    const { root } = service.dirs;
    write(path.join(root, '.toolhost', 'commands', 'review.md'), 'Review the change.\n');
    const url = await service.start();
    const { client: first } = await service.connect(url);
    const { client: second } = await service.connect(url);
    let told = 0;
    first.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      told++;
    });
    expect((await first.listResources()).resources).toEqual([]);
    expect((await second.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['review']);
    write(path.join(root, 'AGENTS.md'), 'Fresh rules.\n');
    expect(await waitUntil(() => told > 0, 10_000)).toBe(true);
    const { resources } = await first.listResources();
    expect(resources.map((resource) => resource.name)).toEqual(['AGENTS.md']);
    const read = await second.readResource({ uri: resources[0]!.uri });
    expect(read.contents[0]).toMatchObject({ text: 'Fresh rules.' });
  });
});
