import {
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionRecorder } from '../agent/sessions/session-file.js';
import { openOwnFileToAppend, writeOwnFile } from './own-files.js';

const KEEP = 'victim content\n';
let temp: string;
let base: string;
let outside: string;
let victim: string;
beforeEach(() => {
  temp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'own-files-')));
  base = path.join(temp, 'base');
  outside = path.join(temp, 'outside');
  mkdirSync(base);
  mkdirSync(outside);
  victim = path.join(outside, 'victim.txt');
  writeFileSync(victim, KEEP);
});
afterEach(() => rmSync(temp, { recursive: true, force: true }));

function append(file: string, text: string) {
  const fd = openOwnFileToAppend(base, file);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

describe('writeOwnFile', () => {
  it('writes a new file, creating its folders', async () => {
    await writeOwnFile(base, path.join(base, 'a/b/out.txt'), 'new');
    expect(readFileSync(path.join(base, 'a/b/out.txt'), 'utf8')).toBe('new');
  });

  it('replaces a link at the file name, leaving where it led alone', async () => {
    const file = path.join(base, 'out.txt');
    symlinkSync(victim, file);
    await writeOwnFile(base, file, 'new');
    expect(readFileSync(victim, 'utf8')).toBe(KEEP);
    expect(lstatSync(file).isFile()).toBe(true);
  });

  it('refuses a folder below the base that is a link', async () => {
    symlinkSync(outside, path.join(base, 'outputs'));
    await expect(
      writeOwnFile(base, path.join(base, 'outputs/victim.txt'), 'new'),
    ).rejects.toThrow();
    await expect(writeOwnFile(base, path.join(base, 'outputs/new.txt'), 'new')).rejects.toThrow();
    expect(readdirSync(outside)).toEqual(['victim.txt']);
    expect(readFileSync(victim, 'utf8')).toBe(KEEP);
  });

  it('refuses a base that is a link, and a file outside the base', async () => {
    const linked = path.join(temp, 'linked-base');
    symlinkSync(outside, linked);
    await expect(writeOwnFile(linked, path.join(linked, 'new.txt'), 'x')).rejects.toThrow(
      /symbolic link/,
    );
    await expect(writeOwnFile(base, victim, 'x')).rejects.toThrow(/not inside/);
    expect(readdirSync(outside)).toEqual(['victim.txt']);
  });
});

describe('openOwnFileToAppend', () => {
  it('appends to a file of its own, in private folders it creates', () => {
    const file = path.join(base, 'logs/a.log');
    append(file, 'one\n');
    append(file, 'two\n');
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    expect(lstatSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a link at the file name', () => {
    const file = path.join(base, 'a.log');
    symlinkSync(victim, file);
    expect(() => append(file, 'x')).toThrow(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe(KEEP);
  });

  it('refuses a file with another name (a hard link)', () => {
    const inside = path.join(base, 'kept.txt');
    writeFileSync(inside, KEEP);
    linkSync(inside, path.join(base, 'a.log'));
    expect(() => append(path.join(base, 'a.log'), 'x')).toThrow(/another name/);
    expect(readFileSync(inside, 'utf8')).toBe(KEEP);
  });

  it('refuses a linked folder, and creates nothing where it leads', () => {
    symlinkSync(outside, path.join(base, 'background'));
    expect(() => append(path.join(base, 'background/new.log'), 'x')).toThrow();
    expect(readdirSync(outside)).toEqual(['victim.txt']);
  });
});

describe('session records', () => {
  it('are not written through a link planted at the session file', () => {
    const file = path.join(base, 'project', 'session.jsonl');
    mkdirSync(path.dirname(file));
    symlinkSync(victim, file);
    const recorder = new SessionRecorder(file, { sessionId: 's', cwd: temp, model: 'm' }, true);
    expect(() => recorder.recordEnd('done')).toThrow(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe(KEEP);
  });
});
