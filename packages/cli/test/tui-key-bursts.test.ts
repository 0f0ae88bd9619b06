/**
 * What a person types means what it says, in a real terminal. Keys sent in one burst (one
 * `send-keys`: the app reads them in one go) answer a question exactly as the same keys
 * typed slowly: `↓ … Enter` on "No" leaves the file unwritten and the command unrun. Keys
 * typed into the prompt while a question appears never answer it, and a paste at a
 * question is not an answer.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';
import {
  type AppUnderTest,
  openApp,
  pastSessions,
  send,
  toolMessage,
  whenTakingKeys,
} from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The position (1-based) of the answer whose key is `key`, as the question shows it. */
function positionOf(screen: string, key: string): number {
  const row = new RegExp(`(\\d)\\. [^\\n]*\\(${key}\\)`).exec(screen);
  if (!row?.[1]) throw new Error(`no answer (${key}) on the screen:\n${screen}`);
  return Number(row[1]);
}

/** Waits for the answers of a question, then sends ↓ to "No" and Enter in one burst. */
async function burstToNo(terminal: Terminal): Promise<void> {
  const question = await terminal.waitFor('(n)');
  const no = positionOf(question, 'n');
  expect(no).toBeGreaterThan(2);
  terminal.burst(...Array<string>(no - 1).fill('Down'), 'Enter');
}

/** A model that asks for one call, then says what it heard back. */
const oneCall =
  (call: () => { name: string; args: Record<string, unknown> }) =>
  (_request: unknown, index: number) =>
    index === 0 ? { toolCalls: [call()] } : { text: 'Heard back.' };

describe.skipIf(!hasTmux)(
  `key bursts, typeahead and paste${tmuxSkipReason}`,
  {
    timeout: 150_000,
  },
  () => {
    it('an edit: ↓ to No and Enter in one burst leaves the file unwritten', async () => {
      let file = '';
      app = await openApp(
        oneCall(() => ({ name: 'write_file', args: { file_path: file, content: 'model text\n' } })),
      );
      file = path.join(app.dirs.root, 'kept.txt');
      send(app.terminal, 'write a file');
      await burstToNo(app.terminal);
      await app.terminal.waitFor('Heard back.');
      expect(existsSync(file)).toBe(false);
      expect(toolMessage(app!, 1)).toMatch(/declined|cancel/i);
    });

    it('a command: ↓ to No and Enter in one burst does not run it', async () => {
      let canary = '';
      app = await openApp(
        oneCall(() => ({ name: 'run_shell_command', args: { command: `touch ${canary}` } })),
      );
      canary = path.join(app.dirs.root, 'canary');
      send(app.terminal, 'touch the canary');
      await burstToNo(app.terminal);
      await app.terminal.waitFor('Heard back.');
      expect(existsSync(canary)).toBe(false);
    });

    it('a burst of ↓ ↓ Enter takes the third answer, exactly once', async () => {
      let file = '';
      app = await openApp((_request, index) =>
        index === 0
          ? {
              toolCalls: [
                { name: 'write_file', args: { file_path: file, content: 'one\n' } },
                { name: 'write_file', args: { file_path: `${file}.2`, content: 'two\n' } },
              ],
            }
          : { text: 'Heard back.' },
      );
      file = path.join(app.dirs.root, 'saved.txt');
      send(app.terminal, 'write two files');
      const question = await app.terminal.waitFor('(u)');
      expect(positionOf(question, 'u')).toBe(3);
      // Third answer: always allow, saved in the person's settings; the second write then runs unasked.
      app.terminal.burst('Down', 'Down', 'Enter', 'n', 'n');
      await app.terminal.waitFor('Heard back.');
      expect(readFileSync(file, 'utf8')).toBe('one\n');
      expect(readFileSync(`${file}.2`, 'utf8')).toBe('two\n');
      const settings = JSON.parse(
        readFileSync(path.join(app.dirs.home, '.toolhost', 'settings.json'), 'utf8'),
      );
      expect(settings.permissions.allow).toHaveLength(1);
    });

    it('/resume: a burst of ↓ and Enter continues the session it marks', async () => {
      app = await openApp((_request, index) => ({ text: `Reply ${index + 1}.` }));
      await pastSessions(app, ['plan the heron feature', 'fix the owl bug', 'name the wren']);
      await whenTakingKeys(app.terminal);
      send(app.terminal, '/resume');
      await app.terminal.waitFor('Enter takes');
      // Newest first: wren, owl, heron.
      app.terminal.burst('Down', 'Down', 'Enter');
      const shown = await app.terminal.waitFor(/Continuing session/);
      expect(shown).toContain('> plan the heron feature');
      expect(shown).not.toContain('> fix the owl bug');
    });

    it('keys typed into the prompt while a question appears do not answer it', async () => {
      let file = '';
      let release: (() => void) | undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      app = await openApp(async (_request, index) => {
        if (index > 0) return { text: 'Heard back.' };
        await held;
        return { toolCalls: [{ name: 'write_file', args: { file_path: file, content: 'x\n' } }] };
      });
      file = path.join(app.dirs.root, 'typed-ahead.txt');
      send(app.terminal, 'write a file');
      await app.terminal.waitFor('Type to queue a message');
      // The person keeps typing "yes" (the question's yes is y) as the question comes.
      release?.();
      const typing = 'yes yes yes yes yes yes ';
      let typed = 0;
      while (!app.terminal.screen().includes('A question:') && typed < 400) {
        app.terminal.type(typing[typed % typing.length] ?? 'y');
        typed++;
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      for (const char of 'yes yes y') {
        app.terminal.type(char);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      // Once the typing pauses, the question shows its answers and still waits.
      const question = await app.terminal.waitFor('(n)');
      expect(question).toContain('Yes, this once');
      expect(existsSync(file)).toBe(false);
      expect(app.server.requests).toHaveLength(1);
      app.terminal.press('n');
      await app.terminal.waitFor('Heard back.');
      expect(existsSync(file)).toBe(false);
    });

    it('a paste at a question is not an answer', async () => {
      let file = '';
      app = await openApp(
        oneCall(() => ({ name: 'write_file', args: { file_path: file, content: 'x\n' } })),
      );
      file = path.join(app.dirs.root, 'pasted.txt');
      send(app.terminal, 'write a file');
      await app.terminal.waitFor(/› 1\. Yes, this once/);
      app.terminal.paste('y');
      app.terminal.paste('yes\n');
      // Keys are read in order: once ↓ shows, the pastes before it have been read.
      app.terminal.press('Down');
      await app.terminal.waitFor(/› 2\. /);
      expect(existsSync(file)).toBe(false);
      expect(app.server.requests).toHaveLength(1);
      app.terminal.press('n');
      await app.terminal.waitFor('Heard back.');
      expect(existsSync(file)).toBe(false);
    });
  },
);
