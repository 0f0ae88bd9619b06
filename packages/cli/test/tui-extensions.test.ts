/**
 * Extensions in the terminal: an installed extension's TOML command and a plugin's Markdown
 * command expand into the prompt the model gets, and /extensions lists them and turns one
 * off (from the next session).
 */
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDirs } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, startToolhostInTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp } from './helpers/tui-app.js';
import { runCli } from './run-cli.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, 'fixtures', 'extensions');

let app: AppUnderTest | undefined;
let terminal: Terminal | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  terminal?.close();
  terminal = undefined;
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

    it('install asks on a terminal: no keeps it out, yes puts it in place', async () => {
      const dirs = makeTempDirs();
      try {
        const installed = path.join(dirs.home, '.toolhost', 'extensions', 'fixture-claude');
        const run = async (answer: string) => {
          terminal = startToolhostInTmux(
            ['extensions', 'install', path.join(FIXTURES, 'claude-plugin')],
            { cwd: dirs.root, home: dirs.home, columns: 160, rows: 30 },
          );
          await terminal.waitFor('Go ahead? [y/N]');
          expect(flat(terminal.screen())).toMatch(
            /MCP server "claude-server": runs node \S+server\.mjs/,
          );
          terminal.type(answer);
          terminal.press('Enter');
          const code = await terminal.waitForExit();
          terminal.close();
          terminal = undefined;
          return code;
        };
        expect(await run('n')).toBe(3);
        expect(existsSync(installed)).toBe(false);
        expect(await run('y')).toBe(0);
        expect(existsSync(path.join(installed, '.claude-plugin', 'plugin.json'))).toBe(true);

        // The Gemini CLI extension's declared setting is asked for, and kept in its .env.
        terminal = startToolhostInTmux(
          ['extensions', 'install', path.join(FIXTURES, 'gemini-ext')],
          { cwd: dirs.root, home: dirs.home, columns: 160, rows: 30 },
        );
        await terminal.waitFor('Go ahead? [y/N]');
        terminal.type('y');
        terminal.press('Enter');
        await terminal.waitFor('Greeting (Said by gem_echo):');
        terminal.type('howdy');
        terminal.press('Enter');
        expect(await terminal.waitForExit()).toBe(0);
        const env = readFileSync(
          path.join(dirs.home, '.toolhost', 'extensions', 'fixture-gemini', '.env'),
          'utf8',
        );
        expect(env).toBe('FIXTURE_GREETING="howdy"\n');
      } finally {
        dirs.cleanup();
      }
    });
  },
);
