/**
 * `--help` of the command and of each subcommand fits 100 columns: piped (where commander
 * assumes 80) and in a terminal wider than that, where the lines must not grow with it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, startToolhostInTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';
import { runCli } from './run-cli.js';

const COMMANDS = [
  [],
  ['call'],
  ['tools'],
  ['mcp'],
  ['mcp', 'add'],
  ['mcp', 'list'],
  ['trust'],
  ['doctor'],
  ['restore'],
  ['sessions'],
  ['settings'],
  ['extensions'],
];

let dirs: TempDirs | undefined;
let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.close();
  terminal = undefined;
  dirs?.cleanup();
  dirs = undefined;
});

const tooLong = (text: string) => text.split('\n').filter((line) => line.length > 100);

describe('--help', () => {
  it('fits 100 columns for every command, piped', () => {
    dirs = makeTempDirs();
    for (const command of COMMANDS) {
      const { stdout, code } = runCli([...command, '--help'], { cwd: dirs.root, home: dirs.home });
      expect(code, command.join(' ')).toBe(0);
      expect(tooLong(stdout), `toolhost ${command.join(' ')} --help`).toEqual([]);
    }
  });

  it.skipIf(!hasTmux)(`fits 100 columns in a 160-column terminal${tmuxSkipReason}`, async () => {
    dirs = makeTempDirs();
    terminal = startToolhostInTmux(['mcp', '--help'], {
      cwd: dirs.root,
      home: dirs.home,
      columns: 160,
      rows: 80,
    });
    await terminal.waitForExit();
    const shown = terminal.scrollback();
    expect(shown).toContain('--allowed-hosts');
    expect(tooLong(shown)).toEqual([]);
  });
});
