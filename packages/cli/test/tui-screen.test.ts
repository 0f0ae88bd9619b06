/**
 * The interactive app as a person meets it: `toolhost` in tmux against the scripted model
 * server, typing a prompt and reading the streamed answer, at 80x24 and after a resize,
 * in screen-reader mode and without colours (NO_COLOR); a subagent's calls nested under
 * its `task` call; the model's thinking folded, shown and hidden again with Ctrl+O.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDirs } from '../../core/test/helpers/temp-workspace.js';
import { parseScreen } from './helpers/ansi-svg.js';
import { hasTmux, startToolhostInTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The runs of a coloured capture drawn in a colour (foreground or background). */
function colouredRuns(screen: string): string[] {
  return parseScreen(screen)
    .flat()
    .filter((run) => run.text.trim() && (run.style.fg || run.style.bg))
    .map((run) => run.text);
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
    app = await openApp(
      [{ text: ANSWER, chunkDelayMs: 5, usage: { prompt_tokens: 1200, completion_tokens: 80 } }],
      { columns: 80, rows: 24 },
    );
    await app.terminal.waitFor('ask before changes');
    send(app.terminal, 'what is the port?');
    await app.terminal.waitFor('All done.');
    // The turn has ended once the prompt is idle again.
    const shown = await idle(app.terminal);
    expect(shown).toContain('> what is the port?');
    // Rendered, not raw Markdown: no pipes' separator row, no fences, no ** markers.
    expect(shown).toMatch(/web\s+.*8080/);
    expect(shown).not.toContain('| ---- |');
    expect(shown).not.toContain('```');
    expect(shown).not.toContain('**config**');
    expect(shown).toContain('const port = 8080;');
    expect(shown).toContain('scripted-model');
    expect(shown).toMatch(/\d+% context left/);
    expect(app.server.requests[0]?.body.messages.at(-1)?.content).toBe('what is the port?');
  });

  it('prints the history again to fit when the window is resized to 60 columns', async () => {
    const long =
      'This answer line is long enough that it has to wrap at sixty columns once resized.';
    app = await openApp([{ text: `${long}\n\n- first point\n- second point` }], {
      columns: 100,
      rows: 24,
    });
    await app.terminal.waitFor('ask before changes');
    send(app.terminal, 'explain');
    await app.terminal.waitFor('second point');
    await idle(app.terminal);
    app.terminal.resize(60, 24);
    // Printed again at the new width: no row longer than the window (rows are joined by
    // capture -J, so text laid out for 100 columns would show as a longer row).
    const fits = (screen: string) =>
      screen.includes('second point') && screen.split('\n').every((row) => row.length <= 60);
    const shown = await app.terminal.waitFor(fits);
    const rows = shown.split('\n');
    expect(shown).toMatch(/^╰─{58}╯$/m);
    expect(shown).toContain('ask before changes');
    expect(rows.join(' ')).toContain('once resized.');
  });

  it('--screen-reader gives plain lines: no boxes, no spinners', async () => {
    app = await openApp([{ text: 'Plain **answer** here.', chunkDelayMs: 5 }], {
      args: ['--screen-reader'],
    });
    await app.terminal.waitFor('ask before changes');
    send(app.terminal, 'hello');
    const shown = await app.terminal.waitFor('Plain answer here.');
    expect(shown).not.toMatch(/[╭╮╰╯│⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(shown).toContain('hello');
  });

  it('NO_COLOR gives no colour escapes; without it the screen has colours', async () => {
    const script = [{ text: 'A **bold** answer with `code`.' }];
    app = await openApp(script, { env: { NO_COLOR: '1' } });
    send(app.terminal, 'hello');
    await app.terminal.waitFor('A bold answer with code.');
    await idle(app.terminal);
    const plain = app.terminal.screenWithColors();
    expect(plain).toContain('ask before changes');
    expect(colouredRuns(plain)).toEqual([]);
    await app.close();

    app = await openApp(script);
    send(app.terminal, 'hello');
    await app.terminal.waitFor('A bold answer with code.');
    await idle(app.terminal);
    expect(colouredRuns(app.terminal.screenWithColors()).length).toBeGreaterThan(0);
  });

  it("nests a subagent's calls under its task call, while it runs and after", async () => {
    let root = '';
    app = await openApp((_request, index) => {
      if (index === 0)
        return {
          toolCalls: [
            {
              name: 'task',
              args: {
                description: 'survey the files',
                prompt: 'List the files in the project folder and name them.',
                subagent_type: 'general-purpose',
              },
            },
          ],
        };
      if (index === 1) return { toolCalls: [{ name: 'list_directory', args: { path: root } }] };
      // The subagent's answer streams slowly, so its finished call shows under the running task.
      if (index === 2)
        return {
          text: 'The folder holds one file, notes.txt; the list took a moment to read through.',
          chunkDelayMs: 150,
        };
      return { text: 'The subagent found notes.txt.' };
    });
    root = app.dirs.root;
    writeFileSync(path.join(root, 'notes.txt'), 'notes\n');
    send(app.terminal, 'survey the project');
    const nested = (screen: string) => {
      const rows = screen.split('\n');
      const task = rows.findIndex((row) => row.includes('general-purpose: survey the files'));
      const child = rows[task + 1] ?? '';
      // The child's mark stands further right than the task's own.
      return (
        task >= 0 && /✓ List /.test(child) && child.indexOf('✓') > (rows[task]?.search(/\S/) ?? 0)
      );
    };
    const running = await app.terminal.waitFor(nested);
    expect(running).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏].*Task general-purpose: survey the files/);
    await app.terminal.waitFor('The subagent found notes.txt.');
    const done = await idle(app.terminal);
    expect(nested(done)).toBe(true);
    expect(done).toMatch(/✓ Task general-purpose: survey the files/);
  });

  it('folds the thinking; Ctrl+O shows it dimmed and hides it again', async () => {
    const reasoning = 'Weighing the ports: 8080 is free and the proxy expects it.';
    app = await openApp([{ reasoning, text: 'Use port 8080.' }]);
    send(app.terminal, 'which port?');
    await app.terminal.waitFor('Use port 8080.');
    let shown = await idle(app.terminal);
    expect(shown).toMatch(/✻ Thought for .*\(Ctrl\+O shows thinking\)/);
    expect(shown).not.toContain(reasoning);
    app.terminal.press('C-o');
    shown = await app.terminal.waitFor(reasoning);
    expect(shown).toContain('Thinking:');
    expect(shown).toContain('Use port 8080.');
    const thinking = parseScreen(app.terminal.screenWithColors())
      .flat()
      .find((run) => run.text.includes('Weighing the ports'));
    // Dimmed: faint, or drawn in grey.
    expect(thinking?.style.dim || thinking?.style.fg !== undefined).toBe(true);
    app.terminal.press('C-o');
    // The history is printed again (the screen is cleared first): wait for it whole.
    shown = await app.terminal.waitFor(
      (screen) => screen.includes('✻ Thought for') && screen.includes('Use port 8080.'),
    );
    expect(shown).not.toContain(reasoning);
  });

  it('guides through setting a model when none is; Ctrl+C leaves it saving nothing', async () => {
    const dirs = makeTempDirs();
    const terminal = startToolhostInTmux([], { cwd: dirs.root, home: dirs.home });
    try {
      await terminal.waitFor('Which API does the model speak?');
      terminal.press('C-c');
      const code = await terminal.waitForExit();
      expect(code).toBe(130);
      expect(existsSync(path.join(dirs.home, '.toolhost', 'settings.json'))).toBe(false);
      expect(terminal.scrollback()).not.toMatch(/\bat .*\.js:\d+/);
    } finally {
      terminal.close();
      dirs.cleanup();
    }
  });
});
