import { chmodSync, copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptedScheduler } from '../../test/helpers/scheduler.js';
import { FIXTURES, makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { EditTool, type EditToolParams } from './edit.js';
import { ReadFileTool } from './read-file.js';
import { ToolRegistry } from './tool-registry.js';
import { type FileDiff, ToolConfirmationOutcome, ToolErrorType } from './tools.js';

let ws: TempWorkspace;
let tool: EditTool;
const signal = new AbortController().signal;
const edit = (params: EditToolParams) => tool.execute(params, signal);
const read = (file: string) => new ReadFileTool(ws.config).execute({ absolute_path: file }, signal);

beforeEach(() => {
  ws = makeWorkspace();
  tool = new EditTool(ws.config);
});
afterEach(() => ws.cleanup());

describe('edit: replacing', () => {
  it('replaces one exact occurrence and shows numbered lines around it', async () => {
    const file = ws.write('a.ts', 'line 1\nline 2\nconst x = 1;\nline 4\nline 5\nline 6\n');
    const result = await edit({
      file_path: file,
      old_string: 'const x = 1;',
      new_string: 'const x = 2;',
    });
    expect(result.error).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe(
      'line 1\nline 2\nconst x = 2;\nline 4\nline 5\nline 6\n',
    );
    expect(result.llmContent).toBe(
      `Replaced 1 occurrence in ${file}.\n1| line 1\n2| line 2\n3| const x = 2;\n4| line 4\n5| line 5`,
    );
    const diff = result.returnDisplay as FileDiff;
    expect(diff.fileDiff).toContain('-const x = 1;');
    expect(diff.fileDiff).toContain('+const x = 2;');
    expect(diff.diffStat).toMatchObject({ linesAdded: 1, linesRemoved: 1 });
  });

  it('replaces every occurrence when expected_replacements says so', async () => {
    const file = ws.write('a.txt', 'foo\nbar\nfoo\n');
    const result = await edit({
      file_path: file,
      old_string: 'foo',
      new_string: 'baz',
      expected_replacements: 2,
    });
    expect(result.llmContent).toMatch(/^Replaced 2 occurrences/);
    expect(readFileSync(file, 'utf8')).toBe('baz\nbar\nbaz\n');
  });

  it('fails with the count and lines when the occurrences differ from the expected count', async () => {
    const file = ws.write('a.txt', 'foo\nbar\nfoo\n');
    const result = await edit({ file_path: file, old_string: 'foo', new_string: 'baz' });
    expect(result.error?.type).toBe(ToolErrorType.EDIT_EXPECTED_OCCURRENCE_MISMATCH);
    expect(result.error?.message).toContain('Expected 1 occurrence of old_string');
    expect(result.error?.message).toContain('found 2 (at lines 1, 3)');
    expect(readFileSync(file, 'utf8')).toBe('foo\nbar\nfoo\n');
  });

  it('keeps CRLF, BOM and mode', async () => {
    const file = ws.write(
      'win.txt',
      Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('one\r\ntwo\r\nthree\r\n')]),
    );
    chmodSync(file, 0o600);
    await edit({ file_path: file, old_string: 'one\ntwo\n', new_string: 'uno\ndos\n' });
    expect([...readFileSync(file)]).toEqual([
      0xef,
      0xbb,
      0xbf,
      ...Buffer.from('uno\r\ndos\r\nthree\r\n'),
    ]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('leaves the rest of a mixed-line-ending file byte for byte', async () => {
    const file = ws.write('mixed.txt', 'a\r\nb\nc\r\n');
    await edit({ file_path: file, old_string: 'b', new_string: 'B' });
    expect(readFileSync(file, 'utf8')).toBe('a\r\nB\nc\r\n');
  });

  it('edits UTF-16 and GBK files in their encoding', async () => {
    const u16 = ws.write(
      'u16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('héllo wörld\n', 'utf-16le')]),
    );
    await edit({ file_path: u16, old_string: 'wörld', new_string: 'welt' });
    expect(
      readFileSync(u16).equals(
        Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('héllo welt\n', 'utf-16le')]),
      ),
    ).toBe(true);

    const gbk = ws.p('gbk.txt');
    copyFileSync(path.join(FIXTURES, 'gbk.txt'), gbk);
    await edit({ file_path: gbk, old_string: '第二行', new_string: '最后一行' });
    expect(iconv.decode(readFileSync(gbk), 'gbk')).toContain('最后一行也有更多的中文内容。');
  });

  it('tells the model which recovery matched', async () => {
    const file = ws.write('q.py', '    print(“hello”)   \n');
    const result = await edit({
      file_path: file,
      old_string: '    print("hello")   ',
      new_string: '    print("bye")   ',
    });
    expect(result.llmContent).toContain('typographic look-alikes');
    expect(readFileSync(file, 'utf8')).toBe('    print(“bye”)   \n');

    const indented = ws.write('i.py', 'def f():\n        x = 1\n        return x\n');
    const second = await edit({
      file_path: indented,
      old_string: 'x = 1\n    return x\n',
      new_string: 'x = 2\n    return x\n',
    });
    expect(second.error).toBeUndefined();
    expect(second.llmContent).toContain('ignoring indentation');
    expect(readFileSync(indented, 'utf8')).toBe('def f():\n        x = 2\n        return x\n');
  });

  it('shows the most similar region with line numbers when nothing matches', async () => {
    const file = ws.write(
      'm.ts',
      'import a;\n\nexport function sum(xs: number[]) {\n  return xs.reduce((s, x) => s + x, 0);\n}\n',
    );
    const result = await edit({
      file_path: file,
      old_string: 'export function sum(xs: number[]) {\n  return xs.reduce((s, x) => s + x);\n}',
      new_string: 'x',
    });
    expect(result.error?.type).toBe(ToolErrorType.EDIT_NO_OCCURRENCE_FOUND);
    expect(result.error?.message).toContain('The most similar text is at lines 3-5');
    expect(result.error?.message).toContain('4|   return xs.reduce((s, x) => s + x, 0);');
  });

  it('fails with edit_no_change for identical strings', async () => {
    const file = ws.write('a.txt', 'x');
    expect((await edit({ file_path: file, old_string: 'x', new_string: 'x' })).error?.type).toBe(
      ToolErrorType.EDIT_NO_CHANGE,
    );
  });

  it('refuses to edit a file that changed since the model read it, and works after a new read', async () => {
    const file = ws.write('a.txt', 'version 1\n');
    await read(file);
    writeFileSync(file, 'version 1\nadded by the person\n');
    const stale = await edit({ file_path: file, old_string: 'version 1', new_string: 'version 2' });
    expect(stale.error?.type).toBe(ToolErrorType.FILE_CHANGED_SINCE_READ);
    expect(stale.error?.message).toContain('Read the file again');
    await read(file);
    expect(
      (await edit({ file_path: file, old_string: 'version 1', new_string: 'version 2' })).error,
    ).toBeUndefined();
  });

  it('counts its own edit as seen, so a second edit works without a new read', async () => {
    const file = ws.write('a.txt', 'a b c');
    await read(file);
    await edit({ file_path: file, old_string: 'a', new_string: 'A' });
    expect(
      (await edit({ file_path: file, old_string: 'b', new_string: 'B' })).error,
    ).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe('A B c');
  });
});

describe('edit: creating', () => {
  it('creates a file from an empty old_string', async () => {
    const file = ws.p('new', 'file.md');
    const result = await edit({ file_path: file, old_string: '', new_string: '# Title\n' });
    expect(result.llmContent).toBe(`Created ${file}.`);
    expect(readFileSync(file, 'utf8')).toBe('# Title\n');
  });

  it('refuses to create a file that exists', async () => {
    const file = ws.write('exists.md', 'x');
    const result = await edit({ file_path: file, old_string: '', new_string: 'y' });
    expect(result.error?.type).toBe(ToolErrorType.ATTEMPT_TO_CREATE_EXISTING_FILE);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('explains how to create a missing file', async () => {
    const result = await edit({ file_path: ws.p('missing.ts'), old_string: 'a', new_string: 'b' });
    expect(result.error?.type).toBe(ToolErrorType.FILE_NOT_FOUND);
    expect(result.error?.message).toContain('empty old_string');
  });

  it('refuses paths outside the workspace', async () => {
    const result = await edit({
      file_path: path.join(ws.base, 'x.txt'),
      old_string: '',
      new_string: 'y',
    });
    expect(result.error?.type).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
  });

  it('validates expected_replacements', () => {
    expect(
      tool.validateToolParams({
        file_path: ws.p('a'),
        old_string: 'a',
        new_string: 'b',
        expected_replacements: 0,
      }),
    ).toBe('expected_replacements must be >= 1');
    expect(
      tool.validateToolParams({
        file_path: ws.p('a'),
        old_string: 'a',
        new_string: 'b',
        expected_replacements: 1.5,
      }),
    ).toMatch(/whole number/);
  });
});

describe('edit: through the scheduler', () => {
  function scheduler(
    answer: (details: unknown) => ToolConfirmationOutcome,
    editProposal?: (p: { proposedContent: string }) => Promise<string>,
  ) {
    const registry = new ToolRegistry(ws.config);
    registry.registerTool(tool);
    return scriptedScheduler(ws.config, { registry, answer, editProposal }).scheduler;
  }

  it('accepts replace as an alias of edit and asks with the diff', async () => {
    const file = ws.write('a.txt', 'hello\n');
    let shown = '';
    const [done] = await scheduler((details) => {
      shown = (details as { fileDiff: string }).fileDiff;
      return ToolConfirmationOutcome.ProceedOnce;
    }).schedule(
      {
        callId: '1',
        name: 'replace',
        args: { file_path: file, old_string: 'hello', new_string: 'bye' },
      },
      signal,
    );
    expect(done?.status).toBe('success');
    expect(shown).toContain('-hello');
    expect(shown).toContain('+bye');
  });

  it('serialises concurrent edits of one file so neither is lost', async () => {
    const file = ws.write('shared.txt', 'alpha\nbeta\n');
    ws.config.setApprovalMode('auto-edit');
    const first = scheduler(() => ToolConfirmationOutcome.ProceedOnce);
    const second = scheduler(() => ToolConfirmationOutcome.ProceedOnce);
    const results = await Promise.all([
      first.schedule(
        {
          callId: 'a',
          name: 'edit',
          args: { file_path: file, old_string: 'alpha', new_string: 'ALPHA' },
        },
        signal,
      ),
      second.schedule(
        {
          callId: 'b',
          name: 'edit',
          args: { file_path: file, old_string: 'beta', new_string: 'BETA' },
        },
        signal,
      ),
    ]);
    expect(results.map(([c]) => c?.status)).toEqual(['success', 'success']);
    expect(readFileSync(file, 'utf8')).toBe('ALPHA\nBETA\n');
  });

  it('lets the person rewrite the proposal in an editor, and tells the model', async () => {
    const file = ws.write('a.txt', 'one\ntwo\n');
    const answers = [ToolConfirmationOutcome.ModifyWithEditor, ToolConfirmationOutcome.ProceedOnce];
    const [done] = await scheduler(
      () => answers.shift()!,
      async (proposal) => proposal.proposedContent.replace('TWO', 'deux'),
    ).schedule(
      {
        callId: 'm',
        name: 'edit',
        args: { file_path: file, old_string: 'two', new_string: 'TWO' },
      },
      signal,
    );
    expect(done?.status).toBe('success');
    expect(readFileSync(file, 'utf8')).toBe('one\ndeux\n');
    expect(String(done?.response.responseParts[0]?.functionResponse?.response?.output)).toContain(
      'the person changed your proposed content',
    );
  });
});
