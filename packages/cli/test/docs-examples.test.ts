/**
 * Every example the documentation marks (`<!-- example: NAME -->` before a fenced block) is
 * a promise, and runs here or in the test named for it: the agent's quick start against the
 * scripted model server, the MCP client's configuration started as the client would start it
 * and asked for its tools, the editor's configuration started and initialized over ACP.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { initialize, startEditor } from './helpers/acp-editor.js';
import { docExample, docExamples, REPO } from './helpers/doc-examples.js';
import { modelProject } from './helpers/model-project.js';
import { sessionEnvironment } from './helpers/stream-session.js';

/** Examples another test runs: the test file, which must name the example. */
const RUN_ELSEWHERE: Record<string, string> = {
  library: 'packages/cli/test/readme-example.test.ts',
  'conversation-front-end': 'packages/cli/test/conversation-example.test.ts',
  'stream-json': 'packages/cli/test/stream-input.test.ts',
};
const RUN_HERE = ['agent-quick-start', 'mcp-client-config', 'acp-editor-config'];

const project = modelProject();

describe('the documentation examples', { timeout: 60_000 }, () => {
  it('each marked example is run, here or by the test named for it', () => {
    for (const example of docExamples()) {
      const elsewhere = RUN_ELSEWHERE[example.name];
      const where = `${example.file}: example "${example.name}"`;
      if (elsewhere) {
        expect(existsSync(path.join(REPO, elsewhere)), where).toBe(true);
        expect(readFileSync(path.join(REPO, elsewhere), 'utf8'), where).toContain(
          `docExample('${example.name}')`,
        );
      } else expect(RUN_HERE, `${where} is run by no test`).toContain(example.name);
    }
  });

  it('agent-quick-start: the command line runs the agent on the configured model', async () => {
    project.server = await startModelServer([{ text: 'A small project with one README.' }]);
    const environment = sessionEnvironment({ ...project.dirs, baseUrl: project.server.baseUrl });
    // The example points at a local model; here the same line points at the scripted one.
    const script = docExample('agent-quick-start').code.replace(
      /OPENAI_BASE_URL=\S+/,
      `OPENAI_BASE_URL=${project.server.baseUrl}`,
    );
    // Not execFileSync: the scripted model answers from this process while the command runs.
    const child = spawn('bash', ['-euc', script], {
      cwd: project.dirs.root,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, errors).toBe(0);
    expect(output).toContain('A small project with one README.');
    const prompt = /toolhost -p "([^"]+)"/.exec(script)?.[1];
    expect(prompt).toBeTruthy();
    expect(JSON.stringify(project.server.requests[0]?.body.messages)).toContain(prompt);
    expect(project.server.requests[0]?.body.model).toBe('qwen3:8b');
  });

  it('mcp-client-config: an MCP client starts each server as configured and lists the tools', async () => {
    const config = JSON.parse(docExample('mcp-client-config').code) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const environment = sessionEnvironment({ ...project.dirs, baseUrl: 'http://127.0.0.1:9' });
    for (const [alias, entry] of Object.entries(config.mcpServers)) {
      const client = new Client({ name: 'docs-example', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: entry.command,
          args: entry.args,
          cwd: project.dirs.root,
          env: { PATH: environment.PATH ?? '', HOME: project.dirs.home },
          stderr: 'ignore',
        }),
      );
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names, alias).toEqual(expect.arrayContaining(['read_file', 'run_shell_command']));
      } finally {
        await client.close();
      }
    }
  });

  it('acp-editor-config: the editor starts the agent as configured and it answers initialize', async () => {
    const config = JSON.parse(docExample('acp-editor-config').code) as {
      agent_servers: Record<string, { command: string; args: string[] }>;
    };
    for (const entry of Object.values(config.agent_servers)) {
      // The test editor starts the installed command with --acp; the rest are its flags.
      expect(entry.command).toBe('toolhost');
      expect(entry.args).toContain('--acp');
      const editor = startEditor({
        cwd: project.dirs.root,
        home: project.dirs.home,
        env: {},
        flags: entry.args.filter((arg) => arg !== '--acp'),
      });
      try {
        const answer = await initialize(editor);
        expect(answer.protocolVersion).toBeGreaterThan(0);
        expect(answer.agentCapabilities?.loadSession).toBe(true);
      } finally {
        await editor.close();
      }
    }
  });
});
