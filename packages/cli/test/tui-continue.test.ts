/**
 * `toolhost -c` after a run whose endpoint was down: nothing the person typed is lost. The
 * latest session with a complete exchange goes on (the failed one, which has none, is
 * passed over), the prompt that got no answer is back in the input, and the warning says
 * what was kept.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send, whenTakingKeys } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
let second: ModelServer | undefined;
afterEach(async () => {
  await app?.close();
  await second?.close();
  app = undefined;
  second = undefined;
});

describe.skipIf(!hasTmux)(`-c after a failed run${tmuxSkipReason}`, { timeout: 150_000 }, () => {
  it('continues the last complete session and gives the failed prompt back', async () => {
    app = await openApp((_request, index) => ({ text: `Reply ${index + 1}.` }), {
      columns: 80,
      rows: 24,
      prepare: (dirs) => {
        mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
        writeFileSync(
          path.join(dirs.home, '.toolhost', 'settings.json'),
          JSON.stringify({ model: { maxRetries: 0 } }),
        );
      },
    });
    send(app.terminal, 'remember the word heron');
    await app.terminal.waitFor('Reply 1.');
    await idle(app.terminal);
    app.terminal.press('C-d');
    expect(await app.terminal.waitForExit()).toBe(0);
    const first = /toolhost -r ([0-9a-f-]{36})/.exec(app.terminal.scrollback())?.[1] ?? '';
    expect(first).not.toBe('');

    // A new session against an endpoint that is down: the prompt fails.
    const down = await startModelServer([]);
    const downUrl = down.baseUrl;
    await down.close();
    let terminal = app.restart([], { OPENAI_BASE_URL: downUrl });
    await idle(terminal);
    await whenTakingKeys(terminal);
    send(terminal, 'what was the word?');
    await terminal.waitFor(/✗ Could not reach/);
    await idle(terminal);
    terminal.press('C-d');
    expect(await terminal.waitForExit()).toBe(0);

    // -c: the first session goes on, the failed prompt is back in the input.
    second = await startModelServer([{ text: 'The word was heron.' }]);
    terminal = app.restart(['-c'], { OPENAI_BASE_URL: second.baseUrl });
    const shown = await terminal.waitFor('shift+tab');
    expect(shown).toContain('> remember the word heron');
    expect(shown).toContain('Reply 1.');
    const warning = shown.replace(/\n(?!\n)/g, ' ');
    expect(warning).toContain(`Continuing session ${first.slice(0, 8)}`);
    expect(warning).toMatch(/1 newer session had no complete exchange/);
    expect(warning).toMatch(/Your last prompt got no answer; it is back in the input/);
    expect(shown).toMatch(/│ > what was the word\?/);
    await whenTakingKeys(terminal, 'what was the word?');
    terminal.press('Enter');
    await terminal.waitFor('The word was heron.');
    const sent = second.requests[0]?.body.messages.map((message) => message.content) ?? [];
    expect(sent).toEqual(
      expect.arrayContaining(['remember the word heron', 'Reply 1.', 'what was the word?']),
    );
    // Quit before the folders go: the session file is still being written to.
    await idle(terminal);
    terminal.press('C-d');
    expect(await terminal.waitForExit()).toBe(0);
  });
});
