/**
 * Tool rows in the interactive terminal's history say each thing once and in the order it
 * happened: no tool name before a description that already names the action, an `@file`
 * prompt above the read of its file, the diff the person approved kept under its edit, and
 * what a cancelled command printed kept under it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uniqueSleep } from '../../core/test/helpers/processes.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const MATH = 'export function add(a, b) {\n  return a - b;\n}\n';

function writeMath(root: string): string {
  mkdirSync(path.join(root, 'src'), { recursive: true });
  const file = path.join(root, 'src', 'math.js');
  writeFileSync(file, MATH);
  return file;
}

describe.skipIf(!hasTmux)(`tool rows in the history${tmuxSkipReason}`, { timeout: 150_000 }, () => {
  /** Reads src/math.js, lists src, then edits the file once the person approves (y). */
  async function fixAdd(): Promise<string> {
    let file = '';
    app = await openApp(
      (_request, index) => {
        if (index === 0)
          return {
            toolCalls: [
              { name: 'read_file', args: { absolute_path: file } },
              { name: 'run_shell_command', args: { command: 'ls src' } },
            ],
          };
        if (index === 1)
          return {
            toolCalls: [
              {
                name: 'edit',
                args: { file_path: file, old_string: 'a - b', new_string: 'a + b' },
              },
            ],
          };
        return { text: 'Fixed the sign.' };
      },
      { columns: 120, rows: 40 },
    );
    file = writeMath(app.dirs.root);
    send(app.terminal, 'fix add');
    await app.terminal.waitFor('(y)');
    app.terminal.press('y');
    await app.terminal.waitFor('Fixed the sign.');
    return idle(app.terminal);
  }

  it('names each call once', async () => {
    const shown = await fixAdd();
    expect(shown).toMatch(/✓ Read src\/math\.js/);
    expect(shown).toMatch(/✓ \$ ls src/);
    expect(shown).toMatch(/✓ Edit src\/math\.js/);
    expect(shown).not.toMatch(/ReadFile Read|Edit Edit|Shell ls/);
  });

  it('keeps the approved diff under the edit once the question is gone', async () => {
    const shown = await fixAdd();
    expect(shown).not.toContain('Yes, this once');
    const rows = shown.split('\n');
    const edit = rows.findIndex((row) => /✓ .*Edit src\/math\.js/.test(row));
    expect(edit).toBeGreaterThanOrEqual(0);
    const after = rows.slice(edit + 1, edit + 8).join('\n');
    expect(after).toContain('-  return a - b;');
    expect(after).toContain('+  return a + b;');
  });

  it("shows an @file prompt above its file's read", async () => {
    app = await openApp([{ text: 'It adds two numbers.' }], { columns: 80, rows: 24 });
    writeMath(app.dirs.root);
    send(app.terminal, 'explain @src/math.js');
    await app.terminal.waitFor('It adds two numbers.');
    const rows = (await idle(app.terminal)).split('\n');
    const prompt = rows.findIndex((row) => row.includes('> explain @src/math.js'));
    const read = rows.findIndex((row) => /✓ .*Read src\/math\.js/.test(row));
    expect(prompt).toBeGreaterThanOrEqual(0);
    expect(read).toBeGreaterThan(prompt);
    expect(rows.join('\n')).not.toContain('ReadManyFiles');
  });

  it('keeps what a cancelled command printed', async () => {
    const seconds = uniqueSleep();
    app = await openApp(
      (_request, index) =>
        index === 0
          ? {
              toolCalls: [
                {
                  name: 'run_shell_command',
                  args: { command: `echo first-part && echo second-part && sleep ${seconds}` },
                },
              ],
            }
          : { text: 'Next.' },
      { args: ['--approval-mode', 'yolo'], columns: 80, rows: 24 },
    );
    send(app.terminal, 'run it');
    await app.terminal.waitFor(/│ second-part/);
    app.terminal.press('Escape');
    await app.terminal.waitFor('Cancelled');
    const shown = await idle(app.terminal);
    const rows = shown.split('\n');
    const row = rows.findIndex((line) => line.includes(`sleep ${seconds}`));
    expect(row).toBeGreaterThanOrEqual(0);
    const below = rows.slice(row + 1, row + 6).join('\n');
    expect(below).toContain('first-part');
    expect(below).toContain('second-part');
  });
});
