/**
 * The prompt and slash commands as a person uses them: `toolhost` in tmux against the
 * scripted model server. Completing and attaching an `@` file, multi-line input and a
 * bracketed paste, /help, /stats and a user command with $ARGUMENTS, history across
 * runs with ↑ and Ctrl+R, a `!` command approved in place, and /restore bringing back a
 * file the agent overwrote. Every wait is for the screen.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelServer } from '../../core/test/helpers/model-server.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, openApp } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The text of the last prompt the model server received. */
function lastPrompt(model: ModelServer, request = model.requests.length - 1): string {
  const content = model.requests[request]?.body.messages.at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

const idle = 'Ask anything';
const PIXEL_PNG = fileURLToPath(new URL('../../core/test/fixtures/pixel.png', import.meta.url));

describe.skipIf(!hasTmux)(
  `the prompt in the terminal${tmuxSkipReason}`,
  { timeout: 180_000 },
  () => {
    it('completes an @ path with Tab and attaches the file (and an image) to the prompt', async () => {
      app = await openApp([{ text: 'It says hello.' }, { text: 'A red pixel.' }]);
      const { terminal: term, server, dirs } = app;
      mkdirSync(path.join(dirs.root, 'src'));
      writeFileSync(path.join(dirs.root, 'src/greeting.txt'), 'Hello from the attached file\n');
      writeFileSync(path.join(dirs.root, 'src/other.txt'), 'other\n');
      await term.waitFor(idle);
      term.type('summarise @src/gre');
      await term.waitFor('src/greeting.txt');
      term.press('Tab');
      await term.waitFor('summarise @src/greeting.txt');
      term.press('Enter');
      await term.waitFor('It says hello.');
      const prompt = lastPrompt(server);
      expect(prompt.startsWith('summarise @src/greeting.txt')).toBe(true);
      expect(prompt).toContain('--- Content from referenced files ---');
      expect(prompt).toContain('Hello from the attached file');
      expect(prompt).not.toContain('other');
      await term.waitFor(idle);

      // An image goes to the model as an image, not as text about one.
      writeFileSync(path.join(dirs.root, 'pic.png'), readFileSync(PIXEL_PNG));
      term.type('and this? @pic.png');
      term.press('Enter');
      await term.waitFor('A red pixel.');
      const parts = server.requests[1]?.body.messages.at(-1)?.content as Array<{
        type: string;
        text?: string;
        image_url?: { url: string };
      }>;
      expect(parts[0]?.text).toMatch(/^and this\? @pic\.png\n/);
      expect(parts.find((part) => part.type === 'image_url')?.image_url?.url).toBe(
        `data:image/png;base64,${readFileSync(PIXEL_PNG).toString('base64')}`,
      );
      // The history shows what the person typed, not the attachment.
      expect(await term.waitFor(idle)).toContain('> and this? @pic.png');
    });

    it('writes several lines with Ctrl+J and keeps a bracketed paste whole', async () => {
      app = await openApp([{ text: 'Two lines seen.' }, { text: 'Paste seen.' }]);
      const { terminal: term, server } = app;
      await term.waitFor(idle);
      term.type('first line');
      term.press('C-j');
      term.type('second line');
      await term.waitFor(/> first line[\s│]*\n[\s│]*second line/);
      term.press('Enter');
      await term.waitFor('Two lines seen.');
      expect(lastPrompt(server)).toBe('first line\nsecond line');
      await term.waitFor(idle);
      term.paste('pasted one\npasted two\n');
      await term.waitFor('pasted two');
      // The paste's line breaks did not send it: nothing new reached the model yet.
      expect(server.requests).toHaveLength(1);
      term.type('end');
      term.press('Enter');
      await term.waitFor('Paste seen.');
      expect(lastPrompt(server)).toBe('pasted one\npasted two\nend');
    });

    it('runs /help from its completion, /stats, and a user command with $ARGUMENTS', async () => {
      app = await openApp(
        [
          {
            text: 'Recursion is a function calling itself.',
            usage: { prompt_tokens: 900, completion_tokens: 40 },
          },
        ],
        {
          prepare: (dirs) => {
            mkdirSync(path.join(dirs.root, '.toolhost/commands'), { recursive: true });
            writeFileSync(
              path.join(dirs.root, '.toolhost/commands/explain.md'),
              '---\ndescription: Explain a topic simply\n---\nExplain $ARGUMENTS in simple words.\n',
            );
          },
        },
      );
      const { terminal: term, server } = app;
      await term.waitFor(idle);
      term.type('/hel');
      await term.waitFor('Show the commands and keys');
      term.press('Enter');
      await term.waitFor('Ctrl+R');
      const help = term.scrollback();
      expect(help).toContain('/explain');
      expect(help).toContain('Explain a topic simply');

      term.type('/explain recursion');
      term.press('Enter');
      await term.waitFor('Recursion is a function calling itself.');
      expect(lastPrompt(server)).toBe('Explain recursion in simple words.');
      await term.waitFor(idle);

      term.type('/stats');
      term.press('Enter');
      const stats = await term.waitFor('Tool calls:');
      expect(stats).toContain('900 in, 40 out');

      term.type('/stast');
      term.press('Enter');
      await term.waitFor('Did you mean /stats?');
    });

    it('recalls earlier prompts of the project in a new run with ↑ and Ctrl+R', async () => {
      app = await openApp((_request, index) => ({ text: `answer ${index + 1}` }));
      const { server } = app;
      let term = app.terminal;
      await term.waitFor(idle);
      term.type('run the unit tests');
      term.press('Enter');
      await term.waitFor('answer 1');
      await term.waitFor(idle);
      term.type('fix the failing one');
      term.press('Enter');
      await term.waitFor('answer 2');
      await term.waitFor(idle);
      term.press('C-d');
      await term.waitForExit();

      term = app.restart([]);
      await term.waitFor(idle);
      term.press('Up');
      await term.waitFor('> fix the failing one');
      term.press('Up');
      await term.waitFor('> run the unit tests');
      term.press('C-u');
      await term.waitForGone('> run the unit tests');
      // Each key waits for the screen it leads to: on a busy machine keys typed before
      // the search opens would land in the prompt instead.
      term.press('C-r');
      await term.waitFor('(reverse search)');
      term.type('unit');
      await term.waitFor(
        (screen) =>
          screen.includes('(reverse search) unit') && screen.includes('? run the unit tests'),
      );
      term.press('Enter');
      await term.waitFor(
        (screen) => screen.includes('> run the unit tests') && !screen.includes('(reverse search)'),
      );
      term.press('Enter');
      await term.waitFor('answer 3');
      expect(lastPrompt(server)).toBe('run the unit tests');
    });

    it('runs a ! command after approval in place, and the model hears of it', async () => {
      app = await openApp([{ text: 'I see the file was made.' }]);
      const { terminal: term, server, dirs } = app;
      await term.waitFor(idle);
      term.type('!echo made > made.txt && echo shell-$((6*7))');
      term.press('Enter');
      await term.waitFor('(y)');
      expect(existsSync(path.join(dirs.root, 'made.txt'))).toBe(false);
      term.press('y');
      // The output, not the typed line: the arithmetic is the shell's.
      await term.waitFor('shell-42');
      expect(readFileSync(path.join(dirs.root, 'made.txt'), 'utf8')).toBe('made\n');
      expect(server.requests).toHaveLength(0);
      // The prompt takes keys again once the command's row is done (a busy machine is slow).
      await term.waitFor(idle);
      term.type('what happened?');
      await term.waitFor('> what happened?');
      term.press('Enter');
      await term.waitFor('I see the file was made.');
      const prompt = lastPrompt(server);
      expect(prompt).toContain('echo made > made.txt');
      expect(prompt).toContain('shell-42');
      expect(prompt.endsWith('what happened?')).toBe(true);
    });

    it('/restore brings back a file the agent overwrote', async () => {
      let file = '';
      app = await openApp(
        (_request, index) =>
          index === 0
            ? {
                toolCalls: [
                  {
                    id: 'w1',
                    name: 'write_file',
                    args: { file_path: file, content: 'overwritten\n' },
                  },
                ],
              }
            : { text: 'I rewrote the notes.' },
        { args: ['--approval-mode', 'auto-edit'] },
      );
      const term = app.terminal;
      file = path.join(app.dirs.root, 'notes.txt');
      writeFileSync(file, 'the original notes\n');
      await term.waitFor(idle);
      term.type('rewrite notes.txt');
      term.press('Enter');
      await term.waitFor('I rewrote the notes.');
      expect(readFileSync(file, 'utf8')).toBe('overwritten\n');
      await term.waitFor(idle);
      term.type('/restore');
      term.press('Enter');
      const listing = await term.waitFor('changed since: notes.txt');
      const id =
        /`?([0-9a-f]{6,})`? \d/.exec(listing)?.[1] ?? /- ([0-9a-f]{6,})/.exec(listing)?.[1];
      expect(id).toBeDefined();
      term.type(`/restore ${id}`);
      term.press('Enter');
      await term.waitFor('brought back');
      expect(readFileSync(file, 'utf8')).toBe('the original notes\n');
      // The prompt that led to the change is offered again.
      await term.waitFor('> rewrite notes.txt');
    });

    it('/restore of a checkpoint in the middle of a turn puts that turn’s prompt back', async () => {
      let a = '';
      let b = '';
      // One turn with two batches that change files: a.txt, then (next response) b.txt.
      app = await openApp(
        (_request, index) =>
          index === 0
            ? {
                toolCalls: [
                  { id: 'wa', name: 'write_file', args: { file_path: a, content: 'a new\n' } },
                ],
              }
            : index === 1
              ? {
                  toolCalls: [
                    { id: 'wb', name: 'write_file', args: { file_path: b, content: 'b new\n' } },
                  ],
                }
              : index === 2
                ? { text: 'Both written.' }
                : { text: 'Asked again.' },
        { args: ['--approval-mode', 'auto-edit'] },
      );
      const term = app.terminal;
      a = path.join(app.dirs.root, 'a.txt');
      b = path.join(app.dirs.root, 'b.txt');
      writeFileSync(a, 'a before\n');
      writeFileSync(b, 'b before\n');
      await term.waitFor(idle);
      term.type('write a and b');
      term.press('Enter');
      await term.waitFor('Both written.');
      expect(readFileSync(b, 'utf8')).toBe('b new\n');
      await term.waitFor(idle);
      term.type('/restore');
      term.press('Enter');
      // Newest first: the second batch's checkpoint, then the first's.
      const listing = await term.waitFor(/changed since: b\.txt[\s\S]*changed since: a\.txt/);
      const ids = [...listing.matchAll(/[-*] `?([0-9a-f]{6,})`? \d/g)].map((match) => match[1]);
      expect(ids).toHaveLength(2);
      term.type(`/restore ${ids[0]}`);
      term.press('Enter');
      await term.waitFor('brought back');
      expect(readFileSync(b, 'utf8')).toBe('b before\n');
      expect(readFileSync(a, 'utf8')).toBe('a new\n');
      // The turn's prompt is offered again, and the conversation is back to before that turn.
      await term.waitFor('> write a and b');
      term.press('Enter');
      await term.waitFor('Asked again.');
      const sent = app.server.requests[3]?.body.messages ?? [];
      expect(sent.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
        'write a and b',
      ]);
    });
  },
);
