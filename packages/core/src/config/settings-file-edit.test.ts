import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addToSettingsList, editSettingsFile, readSettingsValue } from './settings-file-edit.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'toolhost-settings-edit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('settings file edits', () => {
  it('adds a rule and keeps comments, other keys and the file mode', async () => {
    const file = path.join(dir, 'settings.json');
    writeFileSync(
      file,
      '{\n    // my model\n    "model": { "name": "qwen3" },\n    "permissions": { "allow": ["Read"] }\n}\n',
    );
    chmodSync(file, 0o600);
    expect(await addToSettingsList({ file }, ['permissions', 'allow'], 'Bash(git:*)')).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// my model');
    expect(text).toContain('"name": "qwen3"');
    expect(readSettingsValue(file, ['permissions', 'allow'])).toEqual(['Read', 'Bash(git:*)']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Once is enough.
    expect(await addToSettingsList({ file }, ['permissions', 'allow'], 'Bash(git:*)')).toBe(false);
  });

  it('creates the file and its folder when missing', async () => {
    const file = path.join(dir, 'new', 'settings.json');
    await addToSettingsList({ file }, ['permissions', 'allow'], 'WebFetch(domain:example.com)');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      permissions: { allow: ['WebFetch(domain:example.com)'] },
    });
  });

  it('sets and removes an object key', async () => {
    const file = path.join(dir, 'settings.json');
    await editSettingsFile({ file }, () => [
      { path: ['mcpServers', 'a'], value: { command: 'x' } },
    ]);
    expect(readSettingsValue(file, ['mcpServers', 'a'])).toEqual({ command: 'x' });
    await editSettingsFile({ file }, () => [{ path: ['mcpServers', 'a'], value: undefined }]);
    expect(readSettingsValue(file, ['mcpServers'])).toEqual({});
  });

  it('leaves a file that does not parse as it is, saying where it is wrong', async () => {
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, '{\n  "model": {\n}\n');
    await expect(addToSettingsList({ file }, ['permissions', 'allow'], 'Read')).rejects.toThrow(
      /not valid JSON .* line/,
    );
    expect(readFileSync(file, 'utf8')).toBe('{\n  "model": {\n}\n');
  });

  it('does not write through a link unless told to follow it', async () => {
    const real = path.join(dir, 'real.json');
    const link = path.join(dir, 'settings.json');
    writeFileSync(real, '{}\n');
    symlinkSync(real, link);
    await expect(
      addToSettingsList({ file: link }, ['permissions', 'deny'], 'Bash'),
    ).rejects.toThrow(/symbolic link/);
    expect(readFileSync(real, 'utf8')).toBe('{}\n');
    await addToSettingsList({ file: link, followLink: true }, ['permissions', 'deny'], 'Bash');
    expect(readSettingsValue(real, ['permissions', 'deny'])).toEqual(['Bash']);
    expect(existsSync(link)).toBe(true);
  });
});
