/**
 * What `toolhost call` and `toolhost tools` tell a person beyond the result: hints that
 * name only what allows the call, warnings on standard error in every output mode, tools
 * that settings turn off, and file-change summaries.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCli } from './run-cli.js';

let dirs: TempDirs;
let base: string;
let root: string;
let home: string;
const cli = (args: string[], input?: string) => runCli(args, { cwd: root, home, input });

beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
  ({ base, root, home } = dirs);
});
afterEach(() => dirs.cleanup());

/** The person's own settings: they may start programs without `toolhost trust`. */
function writeUserSettings(settings: unknown) {
  mkdirSync(path.join(home, '.toolhost'), { recursive: true });
  writeFileSync(path.join(home, '.toolhost', 'settings.json'), JSON.stringify(settings));
}

describe('a call that needs confirmation, without a terminal', () => {
  it('names for a command only what allows a command, and runs nothing', () => {
    const canary = path.join(root, 'canary');
    const { code, stderr } = cli([
      'call',
      'run_shell_command',
      JSON.stringify({ command: `touch ${canary}`, is_background: false }),
    ]);
    expect(code).toBe(3);
    expect(stderr).toContain(
      'To allow it, pass --yes, --approval-mode yolo, or list "run_shell_command(touch)" in tools.allowed.',
    );
    expect(stderr).not.toContain('auto-edit');
    expect(existsSync(canary)).toBe(false);
  });

  it('names for web_fetch the modes that approve it', () => {
    const { code, stderr } = cli([
      'call',
      'web_fetch',
      JSON.stringify({ url: 'https://example.com/', prompt: 'summarize' }),
    ]);
    expect(code).toBe(3);
    expect(stderr).toContain(
      'pass --yes, --approval-mode auto-edit, --approval-mode yolo, or list "web_fetch" in tools.allowed.',
    );
  });

  it('names for an MCP tool the server trust, not auto-edit', () => {
    const everything = createRequire(import.meta.url).resolve(
      '@modelcontextprotocol/server-everything/dist/index.js',
    );
    writeUserSettings({
      mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
    });
    const { code, stderr } = cli(['call', 'echo', JSON.stringify({ message: 'hi' })]);
    expect(code).toBe(3);
    expect(stderr).toContain(
      'To allow it, pass --yes, --approval-mode yolo, or set "trust": true for the server everything in mcpServers.',
    );
    expect(stderr).not.toContain('auto-edit');
  });
});

describe('toolhost tools', () => {
  it('warns on standard error about a failed discovery command, with --json too', () => {
    writeUserSettings({ tools: { discoveryCommand: 'echo not-json' } });
    for (const args of [['tools', '--json'], ['tools']]) {
      const { code, stdout, stderr } = cli(args);
      expect(code).toBe(0);
      expect(stderr).toContain(
        'toolhost: warning: tool discovery failed: Tool discovery command "echo not-json" printed output that is not JSON',
      );
      if (args.includes('--json')) expect(() => JSON.parse(stdout)).not.toThrow();
    }
  });

  it('warns on standard error about an MCP server that failed, with --json too', () => {
    writeUserSettings({ mcpServers: { broken: { command: path.join(base, 'no-such-server') } } });
    const { stderr } = cli(['tools', '--json']);
    expect(stderr).toMatch(/toolhost: warning: MCP server broken: failed, spawn .*ENOENT/);
  });

  it("shows a discovered tool's description and parameters with their control characters escaped", () => {
    const declarations = [
      {
        name: 'deploy',
        description: 'Deploys.\u001b[2J\u001b[HAll safe\u202egnp.exe\nSecond line',
        parametersJsonSchema: {
          type: 'object',
          properties: { target: { type: 'string', description: 'where\rnowhere' } },
        },
      },
    ];
    const script = path.join(base, 'discover.sh');
    writeFileSync(script, `#!/bin/sh\ncat <<'EOF'\n${JSON.stringify(declarations)}\nEOF\n`, {
      mode: 0o755,
    });
    writeUserSettings({ tools: { discoveryCommand: script, callCommand: 'true' } });
    const { code, stdout } = cli(['tools']);
    expect(code).toBe(0);
    expect(stdout).toContain('Deploys.\\e[2J\\e[HAll safe\\u{202e}gnp.exe\n  Second line');
    expect(stdout).toContain('where\\rnowhere');
    expect(stdout).not.toMatch(/[\u001b\r\u202e]/);
  });

  it('lists the tools settings turn off, with the setting that does it', () => {
    writeUserSettings({ tools: { exclude: ['glob'] } });
    const excluded = cli(['tools']).stdout;
    expect(excluded).toContain('glob (off)\n  turned off by tools.exclude ("glob")');
    expect(excluded).not.toContain('glob (Glob');

    writeUserSettings({ tools: { core: ['read_file'] } });
    const limited = cli(['tools']).stdout;
    expect(limited).toContain('read_file (ReadFile, read)');
    expect(limited).toContain('write_file (off)\n  not listed in tools.core');
  });
});

describe('settings warnings', () => {
  it('point at the installed schema and the command that prints it', () => {
    writeUserSettings({ files: { defaultEncoding: 3 } });
    const { stderr } = cli(['tools', '--json']);
    expect(stderr).toContain('files.defaultEncoding');
    expect(stderr).toContain('"toolhost settings schema" prints what each key takes');
    const schemaFile = /the schema file: (\/[^)]+)\)/.exec(stderr)?.[1];
    expect(schemaFile).toMatch(/\/settings\.schema\.json$/);
    expect(existsSync(schemaFile!)).toBe(true);

    const printed = cli(['settings', 'schema']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(readFileSync(schemaFile!, 'utf8')));
    expect(cli(['settings', 'schema', '--path']).stdout).toBe(`${schemaFile}\n`);
  });

  it("show the control characters of a project's key names escaped", () => {
    mkdirSync(path.join(root, '.toolhost'));
    writeFileSync(
      path.join(root, '.toolhost', 'settings.json'),
      JSON.stringify({ '\u001b[2J\u001b[Hforged': 1 }),
    );
    const { stderr } = cli(['tools', '--json']);
    expect(stderr).toContain('\\e[2J\\e[Hforged');
    expect(stderr).not.toContain('\u001b');
  });
});

describe('file changes as shown after they are written', () => {
  it('counts one line as one line and labels the diff as written', () => {
    const file = path.join(root, 'one.txt');
    const { code, stdout } = cli([
      'call',
      'write_file',
      JSON.stringify({ file_path: file, content: 'only\n' }),
      '--yes',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Created ${file} (1 line).`);
    expect(stdout).toContain('+++ b/one.txt\twritten');
    expect(stdout).not.toContain('proposed');
  });

  it('names the global memory file by its own path, not as the project file', () => {
    const { code, stdout } = cli([
      'call',
      'save_memory',
      JSON.stringify({ fact: 'tabs, not spaces', scope: 'global' }),
      '--yes',
    ]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^~\/\.toolhost\/AGENTS\.md {2}\+3 -0$/);
    expect(stdout).toContain('+++ ~/.toolhost/AGENTS.md\twritten');
  });
});

describe('attachments in the output for a person', () => {
  it('names the attached image with its type, size and dimensions', () => {
    const fixture = path.resolve(
      path.dirname(fileURLToPath(import.meta.url)),
      '../../core/test/fixtures/pixel.png',
    );
    const file = path.join(root, 'pixel.png');
    copyFileSync(fixture, file);
    const size = readFileSync(file).length;
    const { code, stdout } = cli(['call', 'read_file', JSON.stringify({ absolute_path: file })]);
    expect(code).toBe(0);
    expect(stdout).toContain(`[attached: image/png, ${size} B, 1×1 pixels]`);
  });
});

describe('a call of a tool that is not there', () => {
  it('names every active tool when settings turn the called one off (the ones not loaded too)', () => {
    writeUserSettings({ tools: { exclude: ['read_file'] } });
    const { code, stderr } = cli(['call', 'read_file', '{}']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'toolhost: tool "read_file" is turned off by settings (tools.core / tools.exclude). Active tools: list_directory, write_file, edit, grep_search, glob, read_many_files, run_shell_command, web_fetch, save_memory, todo_write, exit_plan_mode.\n',
    );
  });

  it('suggests the closest of every tool for a mistyped name', () => {
    const { code, stderr } = cli(['call', 'red_file', '{}']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'toolhost: unknown tool "red_file". Did you mean read_file or write_file or read_many_files?\n',
    );
  });
});
