/**
 * The interactive terminal's first start in a folder the person never decided about, whose
 * settings were cut: one question, one key. Yes trusts the folder as `toolhost trust` does
 * and the session opens with the project's settings in full; no keeps the cut and is
 * remembered; a headless run in the same terminal never asks.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { settledValue } from '../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, startToolhostInTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';
import { idle, modelEnv, send } from './helpers/tui-app.js';

let dirs: TempDirs;
let server: ModelServer;
let terminal: Terminal | undefined;

beforeEach(async () => {
  dirs = makeTempDirs({ rootName: 'project' });
  mkdirSync(path.join(dirs.root, '.toolhost'));
  writeFileSync(
    path.join(dirs.root, '.toolhost', 'settings.json'),
    JSON.stringify({ tools: { approvalMode: 'yolo' } }),
  );
  // Every prompt makes the model touch the canary, then answer.
  server = await startModelServer((request) =>
    request.body.messages.at(-1)?.role === 'tool'
      ? { text: 'Done.' }
      : {
          toolCalls: [
            { name: 'run_shell_command', args: { command: 'touch CANARY', is_background: false } },
          ],
        },
  );
});
afterEach(async () => {
  terminal?.close();
  terminal = undefined;
  await server.close();
  dirs.cleanup();
});

const start = (args: string[] = []) =>
  startToolhostInTmux(args, { cwd: dirs.root, home: dirs.home, env: modelEnv(server.baseUrl) });
const canary = () => path.join(dirs.root, 'CANARY');
const rules = () =>
  JSON.parse(readFileSync(path.join(dirs.home, '.toolhost', 'trustedFolders.json'), 'utf8'));
const QUESTION = 'Trust this folder, so that its settings apply in full? (y/n)';

describe.skipIf(!hasTmux)(
  `the trust question on the first start${tmuxSkipReason}`,
  { timeout: 150_000 },
  () => {
    it('y trusts the folder: the project settings apply in full (yolo runs touch unasked)', async () => {
      terminal = start();
      const question = await terminal.waitFor(QUESTION);
      expect(question).toContain('tools.approvalMode');
      expect(existsSync(path.join(dirs.home, '.toolhost', 'trustedFolders.json'))).toBe(false);
      terminal.press('y');
      await idle(terminal);
      const trusted = { [dirs.root]: 'TRUST_FOLDER' };
      expect(await settledValue(rules, trusted)).toEqual(trusted);
      send(terminal, 'touch the canary');
      await terminal.waitFor('Done.');
      expect(existsSync(canary())).toBe(true);
    });

    it('n keeps the cut (touch asks), is remembered, and is not asked again', async () => {
      terminal = start();
      await terminal.waitFor(QUESTION);
      terminal.press('n');
      const screen = await idle(terminal);
      expect(screen).toContain('toolhost trust');
      expect(rules()).toEqual({ [dirs.root]: 'DO_NOT_TRUST' });
      send(terminal, 'touch the canary');
      await terminal.waitFor(/Yes, this once/);
      expect(existsSync(canary())).toBe(false);
      terminal.press('n');
      await idle(terminal);
      expect(existsSync(canary())).toBe(false);

      terminal.close();
      terminal = start();
      const again = await idle(terminal);
      expect(again).not.toContain(QUESTION);
    });

    it("asks for a project whose only settings file is Qwen Code's .qwen/settings.json", async () => {
      rmSync(path.join(dirs.root, '.toolhost'), { recursive: true });
      mkdirSync(path.join(dirs.root, '.qwen'));
      writeFileSync(
        path.join(dirs.root, '.qwen', 'settings.json'),
        JSON.stringify({ tools: { approvalMode: 'yolo' } }),
      );
      terminal = start();
      const question = await terminal.waitFor(QUESTION);
      expect(question).toContain(path.join('.qwen', 'settings.json'));
      terminal.press('y');
      await idle(terminal);
      send(terminal, 'touch the canary');
      await terminal.waitFor('Done.');
      expect(existsSync(canary())).toBe(true);
    });

    it('a headless run in the same terminal never asks and keeps the cut', async () => {
      terminal = start(['-p', 'touch the canary']);
      await terminal.waitForExit();
      expect(terminal.scrollback()).not.toContain(QUESTION);
      expect(existsSync(canary())).toBe(false);
      expect(existsSync(path.join(dirs.home, '.toolhost', 'trustedFolders.json'))).toBe(false);
    });
  },
);
