import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateAgainstSchema } from '@toolhost/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { CLI_TIMEOUT_MS, runCli } from './run-cli.js';

let dirs: TempDirs;
let base: string;
let root: string;
let home: string;
const cli = (args: string[], input?: string, env?: NodeJS.ProcessEnv) =>
  runCli(args, { cwd: root, home, input, env });

beforeEach(() => {
  dirs = makeTempDirs();
  ({ base, root, home } = dirs);
  writeFileSync(path.join(root, 'hello.txt'), 'hello\nworld\n');
});
afterEach(() => dirs.cleanup());

function writeProjectSettings(settings: unknown) {
  mkdirSync(path.join(root, '.toolhost'), { recursive: true });
  writeFileSync(path.join(root, '.toolhost', 'settings.json'), JSON.stringify(settings));
}

describe('toolhost tools', () => {
  it('--json prints valid function declarations', () => {
    const { code, stdout, stderr } = cli(['tools', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const declarations = JSON.parse(stdout) as {
      name: string;
      description: string;
      parametersJsonSchema: Record<string, unknown>;
    }[];
    expect(declarations.map((d) => d.name)).toEqual(
      expect.arrayContaining(['list_directory', 'read_file']),
    );
    for (const declaration of declarations) {
      expect(Object.keys(declaration).sort()).toEqual([
        'description',
        'name',
        'parametersJsonSchema',
      ]);
      expect(declaration.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(declaration.description.length).toBeGreaterThan(20);
      expect(declaration.parametersJsonSchema.type).toBe('object');
      // Each schema is usable: it validates an empty call (with a missing-field message at most).
      const problem = validateAgainstSchema(declaration.parametersJsonSchema, {});
      expect(problem === null || problem.endsWith('is required')).toBe(true);
    }
  });

  it('lists tools with their parameters for a person', () => {
    const { code, stdout } = cli(['tools']);
    expect(code).toBe(0);
    expect(stdout).toContain('read_file (ReadFile, read)');
    expect(stdout).toContain('absolute_path: string (required)');
    expect(stdout).toMatch(/\d+ tools active in /);
  });

  it('lists task and tool_search apart, as what an agent session adds, and counts them so', () => {
    const { stdout } = cli(['tools']);
    expect(stdout).toContain('task (agent sessions only)');
    expect(stdout).toContain('tool_search (agent sessions only)');
    expect(stdout).toMatch(/\d+ tools active in .*; an agent session adds 2/);
  });

  it('says how to turn on web_search when no provider is configured', () => {
    const { stdout } = cli(['tools']);
    expect(stdout).toContain('web_search (not available)');
    expect(stdout).toContain('Set webSearch.provider in settings');
  });

  it('shows each MCP server with its status, tool count and error, and the discovery error', () => {
    const everything = createRequire(import.meta.url).resolve(
      '@modelcontextprotocol/server-everything/dist/index.js',
    );
    writeProjectSettings({
      mcpServers: {
        everything: { command: process.execPath, args: [everything, 'stdio'] },
        broken: { command: path.join(base, 'no-such-server') },
      },
      tools: { discoveryCommand: 'echo not-json' },
    });
    expect(cli(['trust']).stdout).toContain(`Trusted: ${root}`);
    const { code, stdout } = cli(['tools']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /MCP servers\n {2}everything: connected, \d+ tools, \d+ prompts, \d+ resources\n(?: {4}.*\n)+ {2}broken: failed, 0 tools\n {4}spawn .*ENOENT/,
    );
    // Prompts and resources are listed for the person, with a prompt's arguments.
    expect(stdout).toContain('    prompt args-prompt(city, state?)');
    expect(stdout).toMatch(/ {4}resource template demo:\/\/resource\/dynamic/);
    expect(stdout).toContain(
      'Tool discovery\n  Tool discovery command "echo not-json" printed output that is not JSON',
    );
    expect(stdout).toContain('read_file (ReadFile, read)');
    const declarations = JSON.parse(cli(['tools', '--json']).stdout) as { name: string }[];
    expect(declarations.map((d) => d.name)).toEqual(expect.arrayContaining(['echo', 'read_file']));
  });

  it('does not start the MCP servers of an untrusted project, and says how to trust it', () => {
    writeProjectSettings({ mcpServers: { project: { command: path.join(base, 'would-run') } } });
    const { stdout, stderr } = cli(['tools']);
    expect(stdout).not.toContain('MCP servers');
    expect(stderr).toContain('mcpServers: ignored, because');
    expect(stderr).toContain('run "toolhost trust" in it');
    cli(['trust']);
    expect(cli(['tools']).stdout).toContain('project: failed');
    cli(['trust', '--revoke']);
    expect(cli(['tools']).stdout).not.toContain('MCP servers');
  });

  it('trust <dir> trusts that folder from anywhere, recorded in trustedFolders.json', () => {
    const other = path.join(base, 'other project');
    mkdirSync(path.join(other, '.toolhost'), { recursive: true });
    writeFileSync(
      path.join(other, '.toolhost', 'settings.json'),
      JSON.stringify({ mcpServers: { theirs: { command: path.join(base, 'would-run') } } }),
    );
    expect(cli(['tools', '--root', other]).stdout).not.toContain('MCP servers');
    const trusted = cli(['trust', path.relative(root, other)]);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(`Trusted: ${other}.`);
    const record = path.join(home, '.toolhost', 'trustedFolders.json');
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({ [other]: 'TRUST_FOLDER' });
    expect(cli(['tools', '--root', other]).stdout).toContain('theirs: failed');
    // The folder the command ran in is not trusted by that.
    writeProjectSettings({ mcpServers: { mine: { command: path.join(base, 'would-run') } } });
    expect(cli(['tools']).stdout).not.toContain('MCP servers');

    const revoked = cli(['trust', other, '--revoke']);
    expect(revoked.stdout).toContain(`No longer trusted: ${other}.`);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({ [other]: 'DO_NOT_TRUST' });
    expect(cli(['tools', '--root', other]).stdout).not.toContain('MCP servers');
  });

  it('trust refuses a folder that does not exist, with exit 2', () => {
    const { code, stderr } = cli(['trust', path.join(base, 'missing')]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `toolhost: ${path.join(base, 'missing')} is not a folder; pass the project folder to trust.\n`,
    );
    expect(existsSync(path.join(home, '.toolhost', 'trustedFolders.json'))).toBe(false);
  });

  it('honours the project settings and warns about bad keys, naming the file', () => {
    writeProjectSettings({ tools: { exclude: ['read_file'], alowed: [] } });
    const { code, stdout, stderr } = cli(['tools', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).map((d: { name: string }) => d.name)).not.toContain('read_file');
    expect(stderr).toContain(
      `toolhost: warning: ${path.join(root, '.toolhost', 'settings.json')}: tools.alowed: is not a toolhost setting`,
    );
  });
});

describe('toolhost call', () => {
  it('--json prints the result and the exact function response', () => {
    const file = path.join(root, 'hello.txt');
    const { code, stdout } = cli([
      'call',
      'read_file',
      JSON.stringify({ absolute_path: file }),
      '--json',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      tool: 'read_file',
      status: 'success',
      llmContent: 'hello\nworld\n',
      returnDisplay: 'Read 2 lines of hello.txt',
      error: null,
      functionResponse: [
        {
          functionResponse: {
            id: 'cli-call',
            name: 'read_file',
            response: { output: 'hello\nworld\n' },
          },
        },
      ],
    });
  });

  it('prints the display and what the model receives for a person', () => {
    const { code, stdout } = cli([
      'call',
      'read_file',
      JSON.stringify({ absolute_path: path.join(root, 'hello.txt') }),
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('Read 2 lines of hello.txt\n── sent to the model ──\nhello\nworld\n');
  });

  it('reads the arguments from standard input with -', () => {
    const { code, stdout } = cli(
      ['call', 'list_directory', '-', '--json'],
      JSON.stringify({ path: root }),
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout).llmContent).toContain('hello.txt');
  });

  it('renders a todo list as a checklist', () => {
    const todos = [
      { id: '1', content: 'Read the code', status: 'completed' },
      { id: '2', content: 'Fix it', status: 'in_progress' },
      { id: '3', content: 'Test it', status: 'pending' },
    ];
    const { code, stdout } = cli(['call', 'todo_write', JSON.stringify({ todos })]);
    expect(code).toBe(0);
    expect(stdout.startsWith('[x] Read the code\n[~] Fix it\n[ ] Test it\n')).toBe(true);
  });

  it("shows a running command's output once, as it comes", () => {
    const command = 'for i in 1 2 3; do echo "line $i"; sleep 1.1; done';
    const { code, stderr } = cli([
      'call',
      'run_shell_command',
      JSON.stringify({ command, is_background: false }),
      '--yes',
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain('line 1\n');
    for (const line of ['line 1', 'line 2']) expect(stderr.split(line).length - 1).toBe(1);
  });

  it('accepts the file_path alias', () => {
    const { code, stdout } = cli([
      'call',
      'read_file',
      JSON.stringify({ file_path: path.join(root, 'hello.txt') }),
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('Read 2 lines of hello.txt\n── sent to the model ──\nhello\nworld\n');
  });

  it('exits 1 with the error type when the tool reports an error', () => {
    const { code, stdout } = cli([
      'call',
      'read_file',
      JSON.stringify({ absolute_path: path.join(root, 'nope.txt') }),
      '--json',
    ]);
    expect(code).toBe(1);
    const result = JSON.parse(stdout);
    expect(result.error.type).toBe('file_not_found');
    expect(result.functionResponse[0].functionResponse.response.error).toContain('does not exist');
  });

  it('exits 1 for invalid parameters, like a model call', () => {
    const { code, stderr } = cli(['call', 'read_file', '{"absolute_path": ["a.txt"]}']);
    expect(code).toBe(1);
    expect(stderr).toBe(
      'error [invalid_tool_params]: Invalid parameters for read_file: absolute_path must be string\n',
    );
  });

  it('reads folders added with --include-directories', () => {
    const extra = path.join(base, 'extra');
    mkdirSync(extra);
    writeFileSync(path.join(extra, 'shared.md'), 'shared');
    const args = [
      'call',
      'read_file',
      JSON.stringify({ absolute_path: path.join(extra, 'shared.md') }),
      '--json',
    ];
    const outside = cli(args);
    expect(outside.code).toBe(1);
    expect(JSON.parse(outside.stdout).error.type).toBe('path_not_in_workspace');
    const included = cli([...args, '--include-directories', extra]);
    expect(included.code).toBe(0);
    expect(JSON.parse(included.stdout).llmContent).toBe('shared');
  });

  it('uses --root as the workspace', () => {
    const other = path.join(base, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'x.txt'), 'x');
    const args = [
      'call',
      'read_file',
      JSON.stringify({ absolute_path: path.join(other, 'x.txt') }),
    ];
    expect(cli(args).code).toBe(1);
    const { code, stdout } = cli([...args, '--root', other, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).llmContent).toBe('x');
  });
});

describe('usage errors: one line, exit 2, no stack trace', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'an unknown tool',
      ['call', 'raed_file', '{}'],
      /^toolhost: unknown tool "raed_file". Did you mean read_file( or [a-z_]+)*\?\n$/,
    ],
    [
      'invalid JSON',
      ['call', 'read_file', '{oops'],
      /^toolhost: the arguments for read_file are not valid JSON .*\n$/,
    ],
    [
      'JSON that is not an object',
      ['call', 'read_file', '"x"'],
      /must be a JSON object of named parameters, not string/,
    ],
    ['an unknown flag', ['call', 'read_file', '--bogus'], /unknown option '--bogus'/],
    [
      'a bad approval mode',
      ['tools', '--approval-mode', 'sometimes'],
      /Allowed choices are plan, default, auto-edit, yolo/,
    ],
    [
      'a missing root',
      ['tools', '--root', '/nonexistent/x'],
      /^toolhost: Workspace folder \/nonexistent\/x does not exist/,
    ],
    // One word that is not a command is a prompt for the agent, unless it looks like a typo.
    ['a mistyped command', ['tool'], /unknown command 'tool' \(did you mean tools\?\)/],
  ];
  for (const [what, args, message] of cases) {
    it(`for ${what}`, () => {
      const { code, stderr, stdout } = cli(args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe('the installed command', () => {
  it('is linked by npm as node_modules/.bin/toolhost and runs', () => {
    const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const result = spawnSync(path.join(repo, 'node_modules', '.bin', 'toolhost'), ['--version'], {
      encoding: 'utf8',
      timeout: CLI_TIMEOUT_MS,
    });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('help and version', () => {
  it('--help shows commands and examples', () => {
    const { code, stdout } = cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Examples:');
    expect(stdout).toContain('toolhost call read_file');
    expect(stdout).toMatch(/tools .*List the active tools/);
  });

  it('call --help shows its options', () => {
    const { code, stdout } = cli(['call', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--yes');
    expect(stdout).toContain('--include-directories');
  });

  it('--version prints the version', () => {
    const { code, stdout } = cli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('no arguments prints help', () => {
    const { code, stdout } = cli([]);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: toolhost');
  });
});

describe('confirmation without a terminal', () => {
  const args = () => [
    'call',
    'write_file',
    JSON.stringify({ file_path: path.join(root, 'new.txt'), content: 'x' }),
  ];

  it('exits 3 and says which flag allows the call', () => {
    const { code, stdout, stderr } = cli(args());
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /write_file needs confirmation .* To allow it, pass --yes, --approval-mode auto-edit, --approval-mode yolo, or list "write_file" in tools.allowed\./,
    );
  });

  const created = () => path.join(root, 'new.txt');

  it('runs with --yes', () => {
    const { code, stdout } = cli([...args(), '--yes']);
    expect(code).toBe(0);
    expect(stdout).toContain('+x');
    expect(readFileSync(created(), 'utf8')).toBe('x');
  });

  it('runs in a mode that allows it', () => {
    expect(cli([...args(), '--approval-mode', 'auto-edit']).code).toBe(0);
    expect(readFileSync(created(), 'utf8')).toBe('x');
  });

  it("runs when a trusted project's settings allow the tool", () => {
    writeProjectSettings({ tools: { allowed: ['write_file'] } });
    cli(['trust']);
    expect(cli(args()).code).toBe(0);
    expect(readFileSync(created(), 'utf8')).toBe('x');
  });

  it('writes nothing when it exits 3', () => {
    expect(cli(args()).code).toBe(3);
    expect(existsSync(created())).toBe(false);
  });

  it('is refused in plan mode even with --yes', () => {
    const { code, stderr } = cli([...args(), '--approval-mode', 'plan', '--yes']);
    expect(code).toBe(1);
    expect(stderr).toContain('execution_denied');
    expect(existsSync(created())).toBe(false);
  });

  it('prints the cancelled call as JSON for scripts', () => {
    const { code, stdout } = cli([...args(), '--json']);
    expect(code).toBe(3);
    expect(JSON.parse(stdout).status).toBe('cancelled');
  });
});
