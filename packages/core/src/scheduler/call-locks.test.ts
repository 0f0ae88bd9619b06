import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { WriteFileTool } from '../tools/write-file.js';
import { lockKeys } from './call-locks.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  await ws.config.dispose();
  ws.cleanup();
});

describe('lockKeys', () => {
  it('locks a file by its real path, however the call names it', () => {
    const file = ws.write('src/a.txt', 'a');
    symlinkSync(file, ws.p('link.txt'));
    const tool = new WriteFileTool(ws.config);
    const keys = (filePath: string) =>
      lockKeys(ws.config, tool, { file_path: filePath, content: '' });
    expect(keys(ws.p('link.txt'))).toEqual([file]);
    expect(keys(ws.p('src', '..', 'src', 'a.txt'))).toEqual([file]);
  });

  it('locks a path the workspace refuses by the path itself, resolved', () => {
    const tool = new WriteFileTool(ws.config);
    const elsewhere = path.join(ws.base, 'elsewhere', '..', 'outside.txt');
    expect(lockKeys(ws.config, tool, { file_path: elsewhere, content: '' })).toEqual([
      path.join(ws.base, 'outside.txt'),
    ]);
  });
});
