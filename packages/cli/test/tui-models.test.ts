/**
 * Models in the interactive terminal: `/model` lists the configured models and switches the
 * session to another family's (the conversation goes on there), and with no model the
 * terminal asks for one and saves it to the person's settings instead of exiting.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import {
  type ProviderServer,
  startProviderServer,
} from '../../core/test/helpers/provider-servers.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, startToolhostInTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';
import { idle, send } from './helpers/tui-app.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function track<T extends { close(): unknown }>(thing: T): T {
  cleanups.push(() => thing.close());
  return thing;
}

function temp(): TempDirs {
  const dirs = makeTempDirs();
  cleanups.push(() => dirs.cleanup());
  return dirs;
}

function userSettings(dirs: TempDirs, settings: object): void {
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(path.join(dirs.home, '.toolhost', 'settings.json'), JSON.stringify(settings));
}

const userMessages = (server: ProviderServer, index: number) =>
  JSON.stringify((server.requests[index]?.body as { messages?: unknown } | undefined)?.messages);

describe.skipIf(!hasTmux)(
  `models in the interactive terminal${tmuxSkipReason}`,
  { timeout: 150_000 },
  () => {
    it('/model lists the configured models and switches to an Anthropic one; the conversation goes on there', async () => {
      const dirs = temp();
      const chat: ModelServer = track(await startModelServer([{ text: 'Chat says plover.' }]));
      const claude = track(
        await startProviderServer('anthropic', [{ text: 'Claude says plover too.' }]),
      );
      userSettings(dirs, {
        model: { name: 'scripted-model' },
        modelProviders: {
          openai: [
            {
              id: 'scripted-model',
              name: 'Scripted chat',
              baseUrl: chat.baseUrl,
              envKey: 'CHAT_KEY',
            },
          ],
          anthropic: [
            {
              id: 'claude-scripted',
              name: 'Scripted Claude',
              baseUrl: claude.baseUrl,
              envKey: 'CLAUDE_KEY',
            },
          ],
        },
      });
      const terminal: Terminal = track(
        startToolhostInTmux([], {
          cwd: dirs.root,
          home: dirs.home,
          env: { CHAT_KEY: 'chat-key', CLAUDE_KEY: 'claude-key' },
          columns: 110,
          rows: 32,
        }),
      );
      await idle(terminal);
      send(terminal, 'first question');
      await terminal.waitFor('Chat says plover.');
      await idle(terminal);
      send(terminal, '/model');
      const listed = await terminal.waitFor('Switch with /model');
      expect(listed).toMatch(/1\. Scripted chat \(`?scripted-model`?\).*\(now\)/);
      expect(listed).toMatch(/2\. Scripted Claude \(`?claude-scripted`?\): Anthropic Messages/);
      send(terminal, '/model 2');
      await terminal.waitFor('Now using Scripted Claude');
      // The status line under the prompt follows the switch.
      const statusLine = (screen: string) => screen.trimEnd().split('\n').slice(-3).join('\n');
      await terminal.waitFor((screen) => statusLine(screen).includes('claude-scripted'));
      send(terminal, 'second question');
      await terminal.waitFor('Claude says plover too.');
      expect(chat.requests).toHaveLength(1);
      expect(claude.requests).toHaveLength(1);
      expect(claude.requests[0]!.headers['x-api-key']).toBe('claude-key');
      expect(claude.requests[0]!.body.model).toBe('claude-scripted');
      const sent = userMessages(claude, 0);
      expect(sent).toContain('first question');
      expect(sent).toContain('Chat says plover.');
      expect(sent).toContain('second question');
    });

    it('with no model, asks for one, saves it to the user settings and opens with it', async () => {
      const dirs = temp();
      const claude = track(
        await startProviderServer('anthropic', [{ text: 'Set up and answering.' }]),
      );
      const terminal: Terminal = track(
        startToolhostInTmux([], {
          cwd: dirs.root,
          home: dirs.home,
          env: { MY_CLAUDE_KEY: 'typed-variable-key' },
          columns: 110,
          rows: 32,
        }),
      );
      await terminal.waitFor('Which API does the model speak?');
      terminal.type('2');
      terminal.press('Enter');
      await terminal.waitFor('Address of the API [https://api.anthropic.com]');
      terminal.type(claude.baseUrl);
      terminal.press('Enter');
      await terminal.waitFor('Model name [claude-sonnet-4-5]');
      terminal.type('claude-scripted');
      terminal.press('Enter');
      await terminal.waitFor(/Key \[[A-Za-z_]+\]/);
      terminal.type('MY_CLAUDE_KEY');
      terminal.press('Enter');
      await terminal.waitFor('Saved to', { scrollback: true });
      await idle(terminal);
      send(terminal, 'hello');
      await terminal.waitFor('Set up and answering.');
      expect(claude.requests[0]!.headers['x-api-key']).toBe('typed-variable-key');
      expect(claude.requests[0]!.body.model).toBe('claude-scripted');
      const saved = JSON.parse(
        readFileSync(path.join(dirs.home, '.toolhost', 'settings.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(saved).toEqual({
        modelProviders: {
          anthropic: [{ id: 'claude-scripted', baseUrl: claude.baseUrl, envKey: 'MY_CLAUDE_KEY' }],
        },
        model: { provider: 'anthropic', name: 'claude-scripted' },
      });
    });
  },
);
