import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileForChild } from '../../test/helpers/child-module.js';
import { canMount, mountTmpfs, needsMount, remountReadOnly } from '../../test/helpers/mounts.js';
import { waitUntil } from '../../test/helpers/processes.js';
import { scriptedScheduler } from '../../test/helpers/scheduler.js';
import { FIXTURES, makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { TEMP_FILE_MARKER } from '../utils/atomic-write.js';
import { ReadFileTool } from './read-file.js';
import { ToolRegistry } from './tool-registry.js';
import { type FileDiff, ToolConfirmationOutcome, ToolErrorType } from './tools.js';
import { WriteFileTool } from './write-file.js';

let ws: TempWorkspace;
let tool: WriteFileTool;
const signal = new AbortController().signal;
const write = (file_path: string, content: string) => tool.execute({ file_path, content }, signal);
const leftovers = (dir: string) =>
  readdirSync(dir).filter((name) => name.includes(TEMP_FILE_MARKER));

beforeEach(() => {
  ws = makeWorkspace();
  tool = new WriteFileTool(ws.config);
});
afterEach(() => ws.cleanup());

describe('write_file: creating and overwriting', () => {
  it('creates a file and its parent folders, UTF-8 without BOM', async () => {
    const file = ws.p('deep', 'new', 'a.ts');
    const result = await write(file, 'export const a = 1;\n');
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(`Created ${file} (1 line).`);
    expect(readFileSync(file, 'utf8')).toBe('export const a = 1;\n');
    const display = result.returnDisplay as FileDiff;
    expect(display.originalContent).toBeNull();
    expect(display.fileName).toBe(path.join('deep', 'new', 'a.ts'));
    expect(display.diffStat).toMatchObject({ linesAdded: 1, linesRemoved: 0 });
    expect(display.fileDiff).toContain('+export const a = 1;');
    expect(leftovers(path.dirname(file))).toEqual([]);
  });

  it('writes new files with a BOM when settings ask for it', async () => {
    ws.cleanup();
    ws = makeWorkspace({ settings: { files: { defaultEncoding: 'utf-8-bom' } } });
    tool = new WriteFileTool(ws.config);
    const file = ws.p('bom.txt');
    await write(file, 'x');
    expect([...readFileSync(file)]).toEqual([0xef, 0xbb, 0xbf, 0x78]);
  });

  it('overwrites and says what changed', async () => {
    const file = ws.write('a.txt', 'one\ntwo\n');
    const result = await write(file, 'one\nthree\nfour\n');
    expect(result.llmContent).toBe(`Overwrote ${file} (3 lines; 2 added, 1 removed).`);
    expect((result.returnDisplay as FileDiff).originalContent).toBe('one\ntwo\n');
  });

  it('keeps CRLF line endings when the model sends LF', async () => {
    const file = ws.write('win.txt', 'a\r\nb\r\n');
    const result = await write(file, 'a\nb\nc\n');
    expect(readFileSync(file, 'utf8')).toBe('a\r\nb\r\nc\r\n');
    expect(result.llmContent).toContain('kept its CRLF');
  });

  it('keeps a UTF-8 BOM', async () => {
    const file = ws.write('bom.txt', Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('old')]));
    await write(file, 'new');
    expect([...readFileSync(file)]).toEqual([0xef, 0xbb, 0xbf, ...Buffer.from('new')]);
  });

  it('keeps UTF-16 LE with its BOM', async () => {
    const file = ws.write(
      'u16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('old\n', 'utf-16le')]),
    );
    await write(file, 'nouveau été\n');
    expect(
      readFileSync(file).equals(
        Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('nouveau été\n', 'utf-16le')]),
      ),
    ).toBe(true);
  });

  it('keeps GBK', async () => {
    const file = ws.p('gbk.txt');
    copyFileSync(path.join(FIXTURES, 'gbk.txt'), file);
    const text = `${iconv.decode(readFileSync(file), 'gbk')}第三行：新的内容。\n`;
    await write(file, text);
    expect(readFileSync(file).equals(iconv.encode(text, 'gbk'))).toBe(true);
  });

  it('keeps Shift-JIS', async () => {
    const original =
      'これは文字コードの検出をテストするための日本語の文章です。十分な長さが必要です。\n';
    const file = ws.write('sjis.txt', iconv.encode(original, 'shift_jis'));
    const text = `${original}追加の行です。\n`;
    await write(file, text);
    expect(readFileSync(file).equals(iconv.encode(text, 'shift_jis'))).toBe(true);
  });

  it("keeps the file's mode", async () => {
    const file = ws.write('run.sh', '#!/bin/sh\necho old\n');
    chmodSync(file, 0o750);
    await write(file, '#!/bin/sh\necho new\n');
    expect(statSync(file).mode & 0o777).toBe(0o750);
  });

  it('writes through a symlink inside the workspace, keeping the link', async () => {
    const target = ws.write('real.txt', 'old');
    symlinkSync(target, ws.p('link.txt'));
    await write(ws.p('link.txt'), 'new');
    expect(lstatSync(ws.p('link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it('refuses a symlink that leads out of the workspace, existing or dangling', async () => {
    const outside = path.join(ws.base, 'outside.txt');
    writeFileSync(outside, 'safe');
    symlinkSync(outside, ws.p('out.txt'));
    symlinkSync(path.join(ws.base, 'would-be-created.txt'), ws.p('dangling.txt'));
    for (const name of ['out.txt', 'dangling.txt']) {
      const result = await write(ws.p(name), 'pwned');
      expect(result.error?.type).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
    }
    expect(readFileSync(outside, 'utf8')).toBe('safe');
    expect(readdirSync(ws.base)).not.toContain('would-be-created.txt');
  });

  it('replaces a binary file with text when asked for the whole content', async () => {
    const file = ws.p('data.bin');
    copyFileSync(path.join(FIXTURES, 'data.bin'), file);
    expect((await write(file, 'text now')).error).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe('text now');
  });
});

describe('write_file: refusals and failures', () => {
  it('gives target_is_directory for a folder', async () => {
    const result = await write(ws.mkdir('dir'), 'x');
    expect(result.error?.type).toBe(ToolErrorType.TARGET_IS_DIRECTORY);
  });

  it('refuses paths outside the workspace and relative paths', async () => {
    expect((await write(path.join(ws.home, 'x.txt'), 'x')).error?.type).toBe(
      ToolErrorType.PATH_NOT_IN_WORKSPACE,
    );
    expect(tool.validateToolParams({ file_path: 'x.txt', content: '' })).toMatch(
      /not an absolute path/,
    );
    expect(tool.validateToolParams({ file_path: ws.p('x') })).toBe('content is required');
  });

  it('refuses to overwrite a file that changed since the model read it', async () => {
    const file = ws.write('a.txt', 'v1');
    await new ReadFileTool(ws.config).execute({ absolute_path: file }, signal);
    writeFileSync(file, 'v2 by someone else');
    const result = await write(file, 'v3');
    expect(result.error?.type).toBe(ToolErrorType.FILE_CHANGED_SINCE_READ);
    expect(result.error?.message).toContain('Read it again');
    expect(readFileSync(file, 'utf8')).toBe('v2 by someone else');
    await new ReadFileTool(ws.config).execute({ absolute_path: file }, signal);
    expect((await write(file, 'v3')).error).toBeUndefined();
  });

  it.skipIf(!canMount)(
    `reports a full disk as no_space_left and keeps the old content, leaving no temporary file${needsMount}`,
    async () => {
      const dir = ws.p('small');
      const unmount = mountTmpfs(dir, 'size=64k');
      try {
        const file = path.join(dir, 'f.txt');
        writeFileSync(file, 'old content');
        const result = await write(file, 'x'.repeat(200_000));
        expect(result.error?.type).toBe(ToolErrorType.NO_SPACE_LEFT);
        expect(readFileSync(file, 'utf8')).toBe('old content');
        expect(leftovers(dir)).toEqual([]);
      } finally {
        unmount();
      }
    },
  );

  it.skipIf(!canMount)(
    `reports a read-only file system as permission_denied${needsMount}`,
    async () => {
      const dir = ws.p('ro');
      const unmount = mountTmpfs(dir, 'size=1m');
      try {
        writeFileSync(path.join(dir, 'f.txt'), 'old');
        remountReadOnly(dir);
        const result = await write(path.join(dir, 'f.txt'), 'new');
        expect(result.error?.type).toBe(ToolErrorType.PERMISSION_DENIED);
        expect(readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('old');
      } finally {
        unmount();
      }
    },
  );

  it('reports a file where a folder should be as file_write_failure', async () => {
    ws.write('file', 'x');
    const result = await write(ws.p('file', 'child.txt'), 'x');
    expect(result.error?.type).toBe(ToolErrorType.FILE_WRITE_FAILURE);
  });

  it('leaves the old content or the new when the writer is killed mid-write', async () => {
    const size = 16_000_000;
    const file = ws.write('big.txt', 'A'.repeat(size));
    // Today's source, compiled for a separate process that is killed while it writes.
    const child = compileForChild(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../utils/atomic-write.ts'),
    );
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(child.file)};
      const target = ${JSON.stringify(file)};
      for (;;) {
        await writeFileAtomic(target, Buffer.alloc(${size}, 'B'));
        await writeFileAtomic(target, Buffer.alloc(${size}, 'A'));
      }`;
    let killedMidWrite = 0;
    let killedAnywhere = 0;
    try {
      for (let attempt = 0; attempt < 30 && killedAnywhere < 6; attempt++) {
        const writer = spawn(process.execPath, ['--input-type=module', '-e', script], {
          stdio: 'ignore',
        });
        const exited = new Promise((resolve) => writer.on('exit', resolve));
        // After three kills between open and rename, the rounds kill the moment the target
        // changes in any way, so a write that touched the target itself would be caught too.
        const anywhere = killedMidWrite >= 3;
        const before = statSync(file);
        let sawTempFile = false;
        try {
          // Kill once a temporary file shows the writer is between open and rename.
          sawTempFile = await waitUntil(() => leftovers(ws.root).length > 0, 5_000, 2);
          if (anywhere) {
            await waitUntil(
              () => {
                const now = statSync(file);
                return (
                  now.ino !== before.ino ||
                  now.size !== before.size ||
                  now.mtimeMs !== before.mtimeMs
                );
              },
              5_000,
              1,
            );
          }
        } finally {
          writer.kill('SIGKILL');
          await exited;
        }
        const content = readFileSync(file);
        expect(content.length).toBe(size);
        const first = content[0];
        expect(first === 0x41 || first === 0x42).toBe(true);
        expect(content.every((byte) => byte === first)).toBe(true);
        expect(sawTempFile, 'the writer never used a temporary file').toBe(true);
        const stale = leftovers(ws.root);
        if (anywhere) killedAnywhere++;
        // The dead writer's temporary file is still there: the kill landed mid-write.
        else if (stale.length > 0) killedMidWrite++;
        for (const name of stale) rmSync(ws.p(name));
      }
    } finally {
      child.cleanup();
    }
    expect(killedMidWrite).toBe(3);
    expect(killedAnywhere).toBe(6);
  }, 120_000);
});

describe('write_file: confirmation through the scheduler', () => {
  const schedule = async (mode: 'default' | 'auto-edit' | 'plan', answer?: boolean) => {
    ws.config.setApprovalMode(mode);
    const registry = new ToolRegistry(ws.config);
    registry.registerTool(tool);
    const scheduled = scriptedScheduler(ws.config, {
      registry,
      answer:
        answer === undefined
          ? null
          : answer
            ? ToolConfirmationOutcome.ProceedOnce
            : ToolConfirmationOutcome.Cancel,
    });
    const done = await scheduled.call(
      'write_file',
      { file_path: ws.p('c.txt'), content: 'hi\n' },
      { signal },
    );
    const asked = scheduled.asked.map((details) =>
      details.type === 'edit' ? details.fileDiff : details.type,
    );
    return { done, asked };
  };

  it('asks with the unified diff in default mode', async () => {
    const { done, asked } = await schedule('default', true);
    expect(done?.status).toBe('success');
    expect(asked[0]).toContain('+hi');
    expect(asked[0]).toContain('/dev/null');
  });

  it('writes nothing when the person declines', async () => {
    const { done } = await schedule('default', false);
    expect(done?.status).toBe('cancelled');
    expect(() => readFileSync(ws.p('c.txt'))).toThrow();
  });

  it('does not ask in auto-edit mode', async () => {
    const { done, asked } = await schedule('auto-edit', true);
    expect(done?.status).toBe('success');
    expect(asked).toEqual([]);
  });

  it('is refused in plan mode', async () => {
    const { done } = await schedule('plan', true);
    expect(done?.response.error?.type).toBe(ToolErrorType.EXECUTION_DENIED);
    expect(readdirSync(ws.root)).not.toContain('c.txt');
  });
});
