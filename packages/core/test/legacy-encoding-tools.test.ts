/**
 * The legacy-encoding verdict as the tools apply it: read_file shows the text and names
 * the encoding, edit writes the file back in it, and files.legacyEncoding breaks a tie.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { EditTool } from '../src/tools/edit.js';
import { ReadFileTool } from '../src/tools/read-file.js';
import { FIXTURES, makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const signal = new AbortController().signal;
let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

function copyFixture(workspace: TempWorkspace, name: string): string {
  const file = workspace.p(name);
  copyFileSync(path.join(FIXTURES, 'encodings', name), file);
  return file;
}

describe('files in legacy encodings, through the tools', () => {
  it('reads the GBK comment as Chinese and edits it back in GBK', async () => {
    ws = makeWorkspace();
    const file = copyFixture(ws, 'gbk-short.c');
    const read = await new ReadFileTool(ws.config).execute({ absolute_path: file }, signal);
    expect(read.llmContent).toContain('return 0; // 中文注释');
    expect(read.llmContent).toContain('encoded as gb18030');

    const before = readFileSync(file);
    const result = await new EditTool(ws.config).execute(
      { file_path: file, old_string: 'return 0;', new_string: 'return 1; // 错误' },
      signal,
    );
    expect(result.error).toBeUndefined();
    const after = readFileSync(file);
    expect(
      after.equals(
        iconv.encode(iconv.decode(before, 'gbk').replace('return 0;', 'return 1; // 错误'), 'gbk'),
      ),
    ).toBe(true);
  });

  it.each([
    ['big5-short.c', '繁體中文註解', 'big5'],
    ['shift_jis-short.c', '日本語のコメント', 'shift_jis'],
    ['euc-jp-short.c', '日本語のコメント', 'euc-jp'],
    ['euc-kr-short.c', '한국어 주석', 'euc-kr'],
    ['windows-1252-short.c', 'naïve café', 'windows-1252'],
  ])('reads %s as %s', async (name, text, encoding) => {
    ws = makeWorkspace();
    const file = copyFixture(ws, name);
    const read = await new ReadFileTool(ws.config).execute({ absolute_path: file }, signal);
    expect(read.llmContent).toContain(text);
    expect(read.llmContent).toContain(`encoded as ${encoding}`);
  });

  it.each([
    ['big5', '麼都'],
    ['gbk', '或常'],
  ])('lets files.legacyEncoding %s decide a tie', async (setting, text) => {
    ws = makeWorkspace({ settings: { files: { legacyEncoding: setting } } });
    const file = copyFixture(ws, 'big5-or-gbk-tie.txt');
    const read = await new ReadFileTool(ws.config).execute({ absolute_path: file }, signal);
    expect(read.llmContent).toContain(text);
  });
});
