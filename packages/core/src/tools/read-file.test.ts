import { copyFileSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import type { Part } from '../contract/content.js';
import { hashContent } from '../utils/file-read-tracker.js';
import { EditTool } from './edit.js';
import { ReadFileTool } from './read-file.js';
import { ToolErrorType } from './tools.js';

let ws: TempWorkspace;
let tool: ReadFileTool;
const signal = new AbortController().signal;
const read = (params: Record<string, unknown>) => tool.execute(params as never, signal);

beforeEach(() => {
  ws = makeWorkspace();
  tool = new ReadFileTool(ws.config);
});
afterEach(() => ws.cleanup());

describe('read_file: text', () => {
  it('returns a small file whole and exactly', async () => {
    const file = ws.write('a.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await read({ absolute_path: file });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe('const a = 1;\nconst b = 2;\n');
    expect(result.returnDisplay).toBe('Read 2 lines of a.ts');
  });

  it('keeps the final newline only where the file has one, so edit can match the end', async () => {
    const without = ws.write('no-newline.txt', 'first\nlast');
    expect((await read({ absolute_path: without })).llmContent).toBe('first\nlast');
    const file = ws.write('end.txt', 'first\nlast\n');
    const text = (await read({ absolute_path: file })).llmContent as string;
    const edited = await new EditTool(ws.config).execute(
      { file_path: file, old_string: text.slice(text.indexOf('last')), new_string: 'final' },
      new AbortController().signal,
    );
    expect(edited.error).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe('first\nfinal');
  });

  it('returns a window with a header giving the lines and the total', async () => {
    const file = ws.write('big.txt', Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'));
    const result = await read({ absolute_path: file, offset: 10, limit: 5 });
    expect(result.llmContent).toBe(
      `[Showing lines 11-15 of 100 in ${file}. To read on, call read_file again with offset 15.]\nline 10\nline 11\nline 12\nline 13\nline 14`,
    );
  });

  it('reads at most 2000 lines by default', async () => {
    const file = ws.write('huge.txt', Array.from({ length: 2500 }, (_, i) => `l${i}`).join('\n'));
    const text = String((await read({ absolute_path: file })).llmContent);
    expect(text.split('\n')).toHaveLength(2001);
    expect(text).toContain('Showing lines 1-2000 of 2500');
    expect(text).toContain('offset 2000');
  });

  it('refuses an offset past the end, giving the valid range', async () => {
    const file = ws.write('s.txt', 'a\nb\n');
    const result = await read({ absolute_path: file, offset: 5 });
    expect(result.error?.type).toBe(ToolErrorType.INVALID_TOOL_PARAMS);
    expect(result.error?.message).toContain('has 2 lines; use an offset from 0 to 1');
  });

  it('cuts very long lines with a visible marker', async () => {
    const file = ws.write('long.txt', `short\n${'x'.repeat(5000)}\n`);
    const text = String((await read({ absolute_path: file })).llmContent);
    expect(text).toContain(`${'x'.repeat(2000)}… [line cut: 5000 characters in all]`);
    expect(text).not.toContain('x'.repeat(2001));
    expect(text).toContain('1 line was longer than 2000 characters and cut');
  });

  it('reports an empty file', async () => {
    const file = ws.write('empty.txt', '');
    expect((await read({ absolute_path: file })).llmContent).toBe(`${file} is empty.`);
  });

  it('removes a UTF-8 BOM', async () => {
    const file = ws.write('bom.txt', Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('hello')]));
    expect((await read({ absolute_path: file })).llmContent).toBe('hello');
  });

  it('decodes UTF-16 with a BOM', async () => {
    const file = ws.write(
      'u16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('wide text\nline 2', 'utf-16le')]),
    );
    const text = String((await read({ absolute_path: file })).llmContent);
    expect(text).toContain('wide text\nline 2');
    expect(text).toContain('encoded as utf-16le');
  });

  it('decodes GBK text', async () => {
    const file = ws.p('gbk.txt');
    copyFileSync(path.join(FIXTURES, 'gbk.txt'), file);
    const text = String((await read({ absolute_path: file })).llmContent);
    expect(text).toContain('这是一个用于测试编码检测的中文句子');
    expect(text).toContain('encoded as gb18030');
  });

  it('accepts file_path as an alias of absolute_path through normalizeParams', async () => {
    const file = ws.write('alias.txt', 'via alias');
    const params = tool.normalizeParams({ file_path: file });
    expect(tool.validateToolParams(params)).toBeNull();
    expect((await read(params as Record<string, unknown>)).llmContent).toBe('via alias');
  });

  it('records what the model saw, for edits later', async () => {
    const file = ws.write('seen.txt', 'v1');
    await read({ absolute_path: file });
    expect(ws.config.fileReads.lastSeen(file)).toBe(hashContent('v1'));
    expect(ws.config.fileReads.changedSinceSeen(file, readFileSync(file))).toBe(false);
    writeFileSync(file, 'v2 by someone else');
    expect(ws.config.fileReads.changedSinceSeen(file, readFileSync(file))).toBe(true);
  });
});

describe('read_file: media and binary', () => {
  const media: [string, string][] = [
    ['pixel.png', 'image/png'],
    ['page.pdf', 'application/pdf'],
    ['beep.wav', 'audio/wav'],
  ];
  for (const [name, mimeType] of media) {
    it(`returns ${name} as inlineData ${mimeType}`, async () => {
      const file = ws.p(name);
      copyFileSync(path.join(FIXTURES, name), file);
      const result = await read({ absolute_path: file });
      const parts = result.llmContent as Part[];
      const data = parts.find((part) => part.inlineData)?.inlineData;
      expect(data?.mimeType).toBe(mimeType);
      expect(Buffer.from(data?.data ?? '', 'base64').equals(readFileSync(file))).toBe(true);
    });
  }

  it('says what image is attached: type, size and dimensions', async () => {
    const file = ws.p('colors.bmp');
    copyFileSync(path.join(FIXTURES, 'colors-3x2.bmp'), file);
    const size = readFileSync(file).length;
    const result = await read({ absolute_path: file });
    const facts = `image/bmp, ${size} B, 3×2 pixels`;
    expect((result.llmContent as Part[])[0]?.text).toBe(
      `Contents of the image file ${file} (${facts}):`,
    );
    expect(result.returnDisplay).toBe(`Read image file ${file} (${facts}); attached for the model`);
  });

  it('recognises an image with no extension by its signature', async () => {
    const file = ws.p('logo');
    copyFileSync(path.join(FIXTURES, 'pixel.png'), file);
    const parts = (await read({ absolute_path: file })).llmContent as Part[];
    expect(parts[1]?.inlineData?.mimeType).toBe('image/png');
  });

  it('refuses a binary file without dumping bytes', async () => {
    const file = ws.p('data.bin');
    copyFileSync(path.join(FIXTURES, 'data.bin'), file);
    const result = await read({ absolute_path: file });
    expect(result.error?.type).toBe(ToolErrorType.BINARY_FILE);
    expect(result.error?.message).toBe(
      `${file} is a binary file (1.0 KB) and cannot be shown as text.`,
    );
  });

  it('refuses files over 20 MB', async () => {
    const file = ws.write('large.txt', '');
    truncateSync(file, 21 * 1024 * 1024);
    const result = await read({ absolute_path: file });
    expect(result.error?.type).toBe(ToolErrorType.FILE_TOO_LARGE);
    expect(result.error?.message).toContain('21.0 MB');
  });
});

describe('read_file: errors', () => {
  it('gives target_is_directory for a folder', async () => {
    const result = await read({ absolute_path: ws.mkdir('src') });
    expect(result.error?.type).toBe(ToolErrorType.TARGET_IS_DIRECTORY);
  });

  it('suggests similarly named files for a missing file', async () => {
    ws.write('src/config.ts', '');
    ws.write('src/config.test.ts', '');
    ws.write('src/other.md', '');
    const result = await read({ absolute_path: ws.p('src', 'confg.ts') });
    expect(result.error?.type).toBe(ToolErrorType.FILE_NOT_FOUND);
    expect(result.error?.message).toContain(
      `Similar files in that folder: ${ws.p('src', 'config.ts')}`,
    );
    expect(result.error?.message).not.toContain('other.md');
  });

  it('refuses a path outside the workspace', async () => {
    const result = await read({ absolute_path: path.join(ws.home, 'x') });
    expect(result.error?.type).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
  });

  it('refuses a symlink leading out of the workspace', async () => {
    const outside = path.join(ws.base, 'secret.txt');
    copyFileSync(path.join(FIXTURES, 'gbk.txt'), outside);
    symlinkSync(outside, ws.p('innocent.txt'));
    const result = await read({ absolute_path: ws.p('innocent.txt') });
    expect(result.error?.type).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
  });

  it('rejects a relative path and a wrong type at validation', () => {
    expect(tool.validateToolParams({ absolute_path: 'a.txt' })).toMatch(
      /^absolute_path: a.txt is not an absolute path/,
    );
    // A number would be taken as its text (as Qwen Code does); a list cannot be.
    expect(tool.validateToolParams({ absolute_path: ['a'] })).toBe('absolute_path must be string');
    expect(tool.validateToolParams({ absolute_path: ws.root, offset: -1 })).toBe(
      'offset must be >= 0',
    );
  });
});
