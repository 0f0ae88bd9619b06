/**
 * Extensions in the terminal: an installed extension's TOML command and a plugin's Markdown
 * command expand into the prompt the model gets, and /extensions lists them and turns one
 * off (from the next session).
 */
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp } from './helpers/tui-app.js';
import { runCli } from './run-cli.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, 'fixtures', 'extensions');

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const flat = (screen: string) => screen.replace(/\s+/g, ' ');

describe.skipIf(!hasTmux)(
  `extensions in the terminal${tmuxSkipReason}`,
  { timeout: 150_000 },
  () => {
    it("runs an extension's and a plugin's commands, and /extensions turns one off", async () => {
      app = await openApp([{ text: 'Greeted.' }, { text: 'Greeted again.' }], {
        columns: 120,
        rows: 40,
        prepare: (dirs) => {
          symlinkSync(
            path.resolve(HERE, '../../../node_modules'),
            path.join(dirs.base, 'node_modules'),
          );
          for (const fixture of ['gemini-ext', 'claude-plugin']) {
            const installed = runCli(
              ['extensions', 'install', path.join(FIXTURES, fixture), '--consent'],
              { cwd: dirs.root, home: dirs.home },
            );
            if (installed.code !== 0) throw new Error(installed.stderr);
          }
        },
      });
      const { terminal, server, dirs } = app;
      /** Types a line and sends it once the prompt shows it (a burst with Enter reads as a paste). */
      const enter = async (line: string) => {
        terminal.type(line);
        await terminal.waitFor(`> ${line}`);
        terminal.press('Enter');
      };
      await enter('/gem-hello world');
      await terminal.waitFor('Greeted.');
      await idle(terminal);
      await enter('/claude-hello bob');
      await terminal.waitFor('Greeted again.');
      const prompts = server.requests.map((request) => JSON.stringify(request.body.messages));
      expect(prompts[0]).toContain('MARKER-GEMINI-COMMAND greet world');
      expect(prompts[1]).toContain('MARKER-CLAUDE-COMMAND greet bob');

      await idle(terminal);
      await enter('/extensions');
      const listed = flat(await terminal.waitFor(/fixture-gemini.*on, in this session/s));
      expect(listed).toMatch(/fixture-claude \(0\.3\.0, claude\): on, in this session/);
      await enter('/extensions disable fixture-claude');
      await terminal.waitFor(/fixture-claude\*?\*? is off everywhere from the next session/);
      const list = JSON.parse(
        runCli(['extensions', 'list', '--json'], { cwd: dirs.root, home: dirs.home }).stdout,
      ) as { name: string; enabled: boolean }[];
      expect(list.map((entry) => [entry.name, entry.enabled])).toEqual([
        ['fixture-claude', false],
        ['fixture-gemini', true],
      ]);
    });
  },
);
