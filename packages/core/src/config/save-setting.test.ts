import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { saveUserSetting } from './save-setting.js';

let dirs: TempDirs | undefined;
afterEach(() => {
  dirs?.cleanup();
  dirs = undefined;
});

describe('saveUserSetting', () => {
  it('creates the file, then changes one key keeping comments and the others', async () => {
    dirs = makeTempDirs();
    const userDir = path.join(dirs.home, '.toolhost');
    const file = await saveUserSetting(userDir, ['ui', 'theme'], 'light');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ui: { theme: 'light' } });
    writeFileSync(
      file,
      '{\n  // mine\n  "model": { "name": "qwen3" },\n  "ui": { "theme": "light" }\n}\n',
    );
    await saveUserSetting(userDir, ['ui', 'theme'], 'mono');
    await saveUserSetting(userDir, ['general', 'vimMode'], true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// mine');
    expect(text).toContain('"name": "qwen3"');
    expect(text).toContain('"theme": "mono"');
    expect(text).toMatch(/"vimMode": true/);
  });

  it('leaves a file it cannot read as JSON alone and says so', async () => {
    dirs = makeTempDirs();
    const userDir = path.join(dirs.home, '.toolhost');
    await saveUserSetting(userDir, ['ui', 'theme'], 'dark');
    const file = path.join(userDir, 'settings.json');
    writeFileSync(file, '{ "ui": ');
    await expect(saveUserSetting(userDir, ['ui', 'theme'], 'light')).rejects.toThrow(
      /not valid JSON/,
    );
    expect(readFileSync(file, 'utf8')).toBe('{ "ui": ');
  });
});
