/**
 * The interactive app as a person meets it: `toolhost` in tmux against the scripted model
 * server, typing a prompt and reading the streamed answer, at 80x24 and after a resize,
 * and in screen-reader mode.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, startToolhostInTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';

let dirs: TempDirs;
let server: ModelServer | undefined;
let terminal: Terminal | undefined;

beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(async () => {
  terminal?.close();
  terminal = undefined;
  await server?.close();
  server = undefined;
  dirs.cleanup();
});

function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: 'scripted-model', OPENAI_API_KEY: 'test' };
}

const ANSWER = [
  'Here is the plan:',
  '',
  '1. Read the **config** file',
  '2. Change the port',
  '',
  '| name | port |',
  '| ---- | ---- |',
  '| web  | 8080 |',
  '',
  '```js',
  'const port = 8080;',
  '```',
  '',
  'All done.',
].join('\n');

describe.skipIf(!hasTmux)(`the interactive terminal${tmuxSkipReason}`, { timeout: 120_000 }, () => {
  it('streams the answer to a typed prompt as Markdown, with the status line', async () => {
    server = await startModelServer([
      { text: ANSWER, chunkDelayMs: 5, usage: { prompt_tokens: 1200, completion_tokens: 80 } },
    ]);
    terminal = startToolhostInTmux([], {
      cwd: dirs.root,
      home: dirs.home,
      env: modelEnv(server.baseUrl),
      columns: 80,
      rows: 24,
    });
    await terminal.waitFor('ask before changes');
    terminal.type('what is the port?');
    terminal.press('Enter');
    await terminal.waitFor('All done.');
    // The turn has ended once the prompt is idle again.
    const shown = await terminal.waitFor('Ask anything');
    expect(shown).toContain('> what is the port?');
    // Rendered, not raw Markdown: no pipes' separator row, no fences, no ** markers.
    expect(shown).toMatch(/web\s+.*8080/);
    expect(shown).not.toContain('| ---- |');
    expect(shown).not.toContain('```');
    expect(shown).not.toContain('**config**');
    expect(shown).toContain('const port = 8080;');
    expect(shown).toContain('scripted-model');
    expect(shown).toMatch(/\d+% context left/);
    expect(server.requests[0]?.body.messages.at(-1)?.content).toBe('what is the port?');
  });

  it('prints the history again to fit when the window is resized to 60 columns', async () => {
    const long =
      'This answer line is long enough that it has to wrap at sixty columns once resized.';
    server = await startModelServer([{ text: `${long}\n\n- first point\n- second point` }]);
    terminal = startToolhostInTmux([], {
      cwd: dirs.root,
      home: dirs.home,
      env: modelEnv(server.baseUrl),
      columns: 100,
      rows: 24,
    });
    await terminal.waitFor('ask before changes');
    terminal.type('explain');
    terminal.press('Enter');
    await terminal.waitFor('second point');
    await terminal.waitFor('Ask anything');
    terminal.resize(60, 24);
    // Printed again at the new width: no row longer than the window (rows are joined by
    // capture -J, so text laid out for 100 columns would show as a longer row).
    const fits = (screen: string) =>
      screen.includes('second point') && screen.split('\n').every((row) => row.length <= 60);
    const shown = await terminal.waitFor(fits);
    const rows = shown.split('\n');
    expect(shown).toMatch(/^╰─{58}╯$/m);
    expect(shown).toContain('ask before changes');
    expect(rows.join(' ')).toContain('once resized.');
  });

  it('--screen-reader gives plain lines: no boxes, no spinners', async () => {
    server = await startModelServer([{ text: 'Plain **answer** here.', chunkDelayMs: 5 }]);
    terminal = startToolhostInTmux(['--screen-reader'], {
      cwd: dirs.root,
      home: dirs.home,
      env: modelEnv(server.baseUrl),
    });
    await terminal.waitFor('ask before changes');
    terminal.type('hello');
    terminal.press('Enter');
    const shown = await terminal.waitFor('Plain answer here.');
    expect(shown).not.toMatch(/[╭╮╰╯│⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(shown).toContain('hello');
  });

  it('says how to configure a model when none is, instead of opening', async () => {
    terminal = startToolhostInTmux([], { cwd: dirs.root, home: dirs.home });
    const code = await terminal.waitForExit();
    expect(code).toBe(2);
    const shown = terminal.scrollback();
    expect(shown).toContain('No model is configured');
    expect(shown).toContain('OPENAI_BASE_URL');
    expect(shown).not.toMatch(/\bat .*\.js:\d+/);
  });
});
