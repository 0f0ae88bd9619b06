import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { runDiscoveryCommand } from '../src/tools/discovered-tool.js';
import { ToolErrorType } from '../src/tools/tools.js';
import { scriptedScheduler } from './helpers/scheduler.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

function script(name: string, body: string): string {
  const file = path.join(ws.root, name);
  writeFileSync(file, `#!${process.execPath}\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const DECLARATIONS = [
  {
    name: 'deploy',
    description: 'Deploys the app.',
    parametersJsonSchema: {
      type: 'object',
      properties: { env: { type: 'string' } },
      required: ['env'],
    },
  },
  {
    functionDeclarations: [
      {
        name: 'lint',
        description: 'Lints.',
        parameters: { type: 'OBJECT', properties: { fix: { type: 'BOOLEAN' } } },
      },
    ],
  },
  { function_declarations: [{ name: 'read_file', description: 'Collides with a built-in.' }] },
];

function setup(discoveryCommand: string, callCommand?: string) {
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: { tools: { discoveryCommand, ...(callCommand ? { callCommand } : {}) } },
  });
  const registry = createToolRegistry(config, { env: {} });
  const { call: run } = scriptedScheduler(config, { registry });
  return { config, registry, run };
}

describe('command discovery', () => {
  it('registers every declaration form; a colliding name is qualified, the built-in keeps its own', async () => {
    const discover = script(
      'discover.mjs',
      `console.log(${JSON.stringify(JSON.stringify(DECLARATIONS))})`,
    );
    const { registry } = setup(`${discover} --all`);
    await registry.discoverAllTools();
    expect(registry.getDiscoveryError()).toBeUndefined();
    expect(registry.getTool('deploy')?.schema.parametersJsonSchema).toEqual(
      DECLARATIONS[0]!.parametersJsonSchema,
    );
    expect(registry.getTool('lint')?.schema.parametersJsonSchema).toEqual({
      type: 'object',
      properties: { fix: { type: 'boolean' } },
    });
    expect(registry.getTool('discovered__read_file')?.description).toContain(
      'Collides with a built-in.',
    );
    expect(registry.getTool('read_file')?.constructor.name).toBe('ReadFileTool');
    expect(registry.getTool('deploy')?.description).toMatch(
      /Deploys the app\.[\s\S]*runs as `.* deploy` with the arguments as JSON on standard input/,
    );
  });

  it('runs the call command with its own arguments, the tool name, and JSON on stdin', async () => {
    const discover = script(
      'discover.mjs',
      `console.log(${JSON.stringify(JSON.stringify(DECLARATIONS))})`,
    );
    const call = script(
      'call.mjs',
      `let input = ''; process.stdin.on('data', (c) => (input += c)); process.stdin.on('end', () => {
         const args = JSON.parse(input);
         console.log(JSON.stringify({ argv: process.argv.slice(2), args }));
         console.error('deploy log line');
         process.exit(args.env === 'broken' ? 4 : 0);
       });`,
    );
    const { registry, run } = setup(discover, `${call} --verbose`);
    await registry.discoverAllTools();
    const ok = await run('deploy', { env: 'staging' });
    expect(ok.status).toBe('success');
    expect(ok.response.responseParts[0]?.functionResponse?.response?.output).toBe(
      '{"argv":["--verbose","deploy"],"args":{"env":"staging"}}\n\n--- stderr ---\ndeploy log line',
    );
    const failed = await run('deploy', { env: 'broken' });
    expect(failed.response.error?.type).toBe(ToolErrorType.DISCOVERED_TOOL_EXECUTION_ERROR);
    expect(failed.response.error?.message).toContain('deploy exited with code 4.');
    expect(failed.response.error?.message).toContain('Stdout:\n{"argv"');
    expect(failed.response.error?.message).toContain('Stderr:\ndeploy log line');
  });

  it('reports a tool ended by a signal', async () => {
    const discover = script('discover.mjs', `console.log('[{"name":"boom"}]')`);
    const call = script('call.mjs', `process.kill(process.pid, 'SIGKILL')`);
    const { registry, run } = setup(discover, call);
    await registry.discoverAllTools();
    const done = await run('boom', {});
    expect(done.response.error?.message).toContain('was ended by signal SIGKILL');
  });

  it('asks before running a discovered tool unless settings allow it', async () => {
    const discover = script('discover.mjs', `console.log('[{"name":"deploy"}]')`);
    const { registry } = setup(discover, 'true');
    await registry.discoverAllTools();
    const details = await registry
      .getTool('deploy')!
      .shouldConfirmExecute({}, new AbortController().signal);
    expect(details).toMatchObject({ type: 'exec', command: 'true deploy' });
  });

  const bad: [string, string, RegExp][] = [
    ['not JSON', `console.log('tools: deploy')`, /printed output that is not JSON/],
    ['not an array', `console.log('{"name":"x"}')`, /must print a JSON array/],
    [
      'a declaration without a name',
      `console.log('[{"description":"x"}]')`,
      /declaration without a name \(item 1\)/,
    ],
    [
      'a non-zero exit',
      `console.error('no config'); process.exit(2)`,
      /exited with code 2: no config/,
    ],
  ];
  for (const [what, body, message] of bad) {
    it(`reports ${what} in one message naming the command, and keeps the built-ins`, async () => {
      const discover = script('discover.mjs', body);
      const { registry } = setup(discover);
      await registry.discoverAllTools();
      expect(registry.getDiscoveryError()).toMatch(
        new RegExp(`^Tool discovery command "${discover}" `),
      );
      expect(registry.getDiscoveryError()).toMatch(message);
      expect(registry.getTool('read_file')?.constructor.name).toBe('ReadFileTool');
    });
  }

  it('stops a discovery command that prints more than 10 MB, keeping the built-ins', async () => {
    const discover = script(
      'discover.mjs',
      "const chunk = 'x'.repeat(1 << 16); const more = () => process.stdout.write(chunk, more); more();",
    );
    const { registry } = setup(discover);
    await registry.discoverAllTools();
    expect(registry.getDiscoveryError()).toBe(
      `Tool discovery command "${discover}" printed more than 10 MB and was stopped.`,
    );
    expect(registry.getTool('read_file')?.constructor.name).toBe('ReadFileTool');
  });

  it('runs the discovery command without a shell: quoting, ; and > do nothing', async () => {
    const argvFile = path.join(ws.base, 'argv.json');
    const canary = path.join(ws.base, 'canary');
    const redirected = path.join(ws.base, 'redirected');
    const discover = script(
      'discover.mjs',
      `import { writeFileSync } from 'node:fs';
       writeFileSync(${JSON.stringify(argvFile)}, JSON.stringify(process.argv.slice(2)));
       console.log('[{"name":"deploy"}]');`,
    );
    const { registry } = setup(
      `${discover} 'a b' 'c;d' '$(touch ${canary})' ; touch ${canary} > ${redirected}`,
    );
    await registry.discoverAllTools();
    expect(registry.getDiscoveryError()).toBeUndefined();
    expect(registry.getTool('deploy')?.name).toBe('deploy');
    const argv = JSON.parse(readFileSync(argvFile, 'utf8')) as string[];
    expect(argv.slice(0, 3)).toEqual(['a b', 'c;d', `$(touch ${canary})`]);
    expect(existsSync(canary)).toBe(false);
    expect(existsSync(redirected)).toBe(false);
  });

  it('stops a discovery command that takes too long', async () => {
    const discover = script('discover.mjs', 'setInterval(() => {}, 1000)');
    const result = await runDiscoveryCommand(
      new Config({ roots: [ws.root], homeDir: ws.home }),
      discover,
      500,
    );
    expect(result).toEqual({
      error: `Tool discovery command "${discover}" did not finish within 0.5 s and was stopped.`,
    });
  });
});
