import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSearchWorkspace, withOwnSearchWorkspace } from '../../test/helpers/search-fixture.js';
import { FIXTURES, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { type Part, partsToText } from '../contract/content.js';
import { type ReadManyFilesParams, ReadManyFilesTool } from './read-many-files.js';

let ws: TempWorkspace;
const signal = new AbortController().signal;
const readMany = (params: ReadManyFilesParams, where = ws) =>
  new ReadManyFilesTool(where.config).execute(params, signal);
const headers = (content: unknown, root = ws.root) =>
  [...partsToText(content as Part[]).matchAll(/^--- (\S+)(?: \([^)]*\))? ---$/gm)].map((m) =>
    path.relative(root, m[1]!),
  );

/** The fixture, built once: tests that change files make their own. */
beforeAll(() => {
  ws = makeSearchWorkspace();
});
afterAll(() => ws.cleanup());

describe('read_many_files', () => {
  it('reads files matched by globs, each under a header, in path order', async () => {
    const result = await readMany({ paths: ['src/**/*.ts'] });
    expect(headers(result.llmContent)).toEqual([
      'src/app.ts',
      'src/components/.hidden.ts',
      'src/util.ts',
    ]);
    const text = partsToText(result.llmContent);
    expect(text).toContain(
      `--- ${ws.p('src', 'util.ts')} ---\nexport const run = () => 42;\n// todo lower case\n`,
    );
    expect(String(result.returnDisplay)).toMatch(/^Read 3 files:\n- src\/app.ts/);
  });

  it('reads named files and whole folders, recursively by default', async () => {
    const result = await readMany({ paths: ['README.md', 'src/legacy'] });
    expect(headers(result.llmContent)).toEqual([
      'README.md',
      'src/legacy/.gitignore',
      'src/legacy/old.js',
    ]);
  });

  it('reads only the top of a folder when recursive is false', async () => {
    const result = await readMany({ paths: ['src'], recursive: false });
    expect(headers(result.llmContent)).toEqual(['src/app.ts', 'src/util.ts']);
  });

  it('applies include and exclude', async () => {
    const result = await readMany({
      paths: ['src/**/*.ts'],
      include: ['docs/*.md'],
      exclude: ['**/.hidden.ts'],
    });
    expect(headers(result.llmContent)).toEqual(['docs/guide.md', 'src/app.ts', 'src/util.ts']);
  });

  it('leaves out default excludes and ignored files unless told otherwise', async () => {
    expect(headers((await readMany({ paths: ['**/*.log'] })).llmContent)).toEqual([]);
    const noGit = await readMany({
      paths: ['**/*.log'],
      file_filtering_options: { respect_git_ignore: false },
    });
    expect(headers(noGit.llmContent)).toEqual([]);
    const everything = await readMany({
      paths: ['**/*.log'],
      useDefaultExcludes: false,
      file_filtering_options: { respect_git_ignore: false },
    });
    expect(headers(everything.llmContent)).toEqual(['debug.log', 'src/legacy/keep.log']);
  });

  it('includes images only when asked for by name or extension', () =>
    withOwnSearchWorkspace(async (own) => {
      copyFileSync(path.join(FIXTURES, 'pixel.png'), own.p('docs', 'shot.png'));
      const notAsked = await readMany({ paths: ['docs'] }, own);
      expect(headers(notAsked.llmContent, own.root)).toEqual(['docs/guide.md']);
      expect(String(notAsked.returnDisplay)).toContain(
        'shot.png: image not asked for by name or extension',
      );
      const byExtension = await readMany({ paths: ['docs/*.png'] }, own);
      const parts = byExtension.llmContent as Part[];
      expect(parts.some((part) => part.inlineData?.mimeType === 'image/png')).toBe(true);
      const byName = await readMany({ paths: ['docs/shot.png'] }, own);
      expect((byName.llmContent as Part[]).some((part) => part.inlineData)).toBe(true);
    }));

  it('skips binary files and paths outside the workspace, saying why', async () => {
    const result = await readMany({
      paths: ['image.bin', '../outside/**', 'nothing/here/*.ts'],
      useDefaultExcludes: false,
    });
    const display = String(result.returnDisplay);
    expect(display).toContain('image.bin: is a binary file');
    expect(display).toContain('../outside/**: outside the workspace');
    expect(display).toContain('nothing/here/*.ts: nothing matches');
  });

  it('follows named links only where they lead inside the workspace, missing paths as named', () =>
    withOwnSearchWorkspace(async (own) => {
      const outside = path.join(own.base, 'outside-named');
      mkdirSync(outside);
      writeFileSync(path.join(outside, 'secret.txt'), 'outside secret\n');
      own.write('real/inside.txt', 'inside text\n');
      symlinkSync(outside, own.p('out-dir'));
      symlinkSync(path.join(outside, 'secret.txt'), own.p('out-file.txt'));
      symlinkSync(own.p('real'), own.p('in-dir'));
      symlinkSync(own.p('real', 'inside.txt'), own.p('in-file.txt'));
      // A dangling link whose target would be created outside.
      symlinkSync(path.join(outside, 'later.txt'), own.p('dangling.txt'));
      const result = await readMany(
        {
          paths: [
            'out-dir/secret.txt',
            'out-file.txt',
            'in-dir/inside.txt',
            'in-file.txt',
            'dangling.txt',
            'no/such/file.txt',
          ],
        },
        own,
      );
      const text = partsToText(result.llmContent as Part[]);
      expect(text).not.toContain('outside secret');
      expect(text).toContain(`--- ${own.p('real', 'inside.txt')} ---\ninside text\n`);
      const display = String(result.returnDisplay);
      for (const named of ['out-dir/secret.txt', 'out-file.txt', 'dangling.txt'])
        expect(display).toContain(`${named}: outside the workspace`);
      expect(display).toContain('no/such/file.txt: nothing matches');
    }));

  it('reads a file allowed on its own outside the workspace, not its neighbours', () =>
    withOwnSearchWorkspace(async (own) => {
      // The global memory file is allowed this way: its folder is not.
      const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'toolhost-allowed-'));
      try {
        const allowed = path.join(elsewhere, 'memory.md');
        const neighbour = path.join(elsewhere, 'secret.md');
        writeFileSync(allowed, 'remembered\n');
        writeFileSync(neighbour, 'secret\n');
        own.config.workspace.allowFile(allowed);
        const result = await readMany({ paths: [allowed, neighbour] }, own);
        const text = partsToText(result.llmContent as Part[]);
        expect(text).toContain(`--- ${allowed} ---\nremembered\n`);
        expect(text).not.toContain('secret\n');
        expect(String(result.returnDisplay)).toContain(`${neighbour}: outside the workspace`);
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    }));

  it('stays within the response budget and lists the files that did not fit', () =>
    withOwnSearchWorkspace(
      async (own) => {
        for (let i = 0; i < 10; i++) own.write(`big/f${i}.txt`, `${'x'.repeat(99)}\n`.repeat(15));
        const result = await readMany({ paths: ['big'] }, own);
        const text = partsToText(result.llmContent as Part[]);
        expect(text.length).toBeLessThan(8_000);
        expect(headers(result.llmContent, own.root)).toHaveLength(3);
        expect(text).toContain('7 more files did not fit in this response');
        expect(text).toContain(own.p('big', 'f9.txt'));
        const notFit = Array.from({ length: 7 }, (_, i) => `big/f${i + 3}.txt`).join(', ');
        expect(String(result.returnDisplay)).toContain(`Did not fit (7): ${notFit}`);
      },
      { settings: { tools: { truncateOutputThreshold: 8_000 } } },
    ));

  it('opens no file past its budget: the rest are listed unread', () =>
    withOwnSearchWorkspace(
      async (own) => {
        for (let i = 0; i < 5; i++) own.write(`big/f${i}.txt`, `${'x'.repeat(99)}\n`.repeat(15));
        // A socket cannot be opened (ENXIO): a read of it shows as an error in the answer.
        const socket = own.p('big', 'z.sock');
        const listener = net.createServer();
        await new Promise<void>((resolve) => listener.listen(socket, resolve));
        try {
          const alone = await readMany({ paths: ['big/z.sock'] }, own);
          expect(String(alone.returnDisplay)).toContain(`Skipped 1:\n- ${socket}:`);

          const paths = [...Array.from({ length: 5 }, (_, i) => `big/f${i}.txt`), 'big/z.sock'];
          const result = await readMany({ paths }, own);
          expect(headers(result.llmContent, own.root)).toHaveLength(3);
          const text = partsToText(result.llmContent as Part[]);
          expect(text).toContain(
            `3 more files did not fit in this response: ${own.p('big', 'f3.txt')}, ${own.p('big', 'f4.txt')}, ${socket}.`,
          );
          expect(String(result.returnDisplay)).not.toContain('Skipped');
        } finally {
          await new Promise((resolve) => listener.close(resolve));
        }
      },
      { settings: { tools: { truncateOutputThreshold: 8_000 } } },
    ));

  it('cuts long files as read_file does', () =>
    withOwnSearchWorkspace(async (own) => {
      own.write('long.txt', Array.from({ length: 2100 }, (_, i) => `l${i}`).join('\n'));
      const result = await readMany({ paths: ['long.txt'] }, own);
      expect(partsToText(result.llmContent as Part[])).toContain('Showing lines 1-2000 of 2100');
    }));

  it('requires at least one path', () => {
    expect(new ReadManyFilesTool(ws.config).validateToolParams({ paths: [] })).toBe(
      'paths must NOT have fewer than 1 items',
    );
  });
});
