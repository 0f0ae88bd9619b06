import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  assertFolderStill,
  ConfinementError,
  openedPath,
  openFileConfined,
  openFolderConfined,
  sweepStaleTempFiles,
  tempFileName,
  throughFolder,
} from './confined-fs.js';

let dir: string;
let outside: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-confined-')));
  outside = path.join(dir, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const openFds = () => readdirSync('/proc/self/fd').length;

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('openedPath and throughFolder', () => {
  it('keep a name that merely contains " (deleted)"', () => {
    const file = path.join(dir, 'a (deleted) b');
    writeFileSync(file, 'a');
    const fd = openSync(file, 'r');
    expect(openedPath(fd)).toBe(file);
    closeSync(fd);
  });

  it('tell where an open file really is, also after it was deleted', () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'a');
    const fd = openSync(file, 'r');
    try {
      expect(openedPath(fd)).toBe(file);
      unlinkSync(file);
      expect(openedPath(fd)).toBe(file);
    } finally {
      closeSync(fd);
    }
    expect(openedPath(fd)).toBeNull();
  });

  it('reach names inside an open folder through its handle', () => {
    const fd = openSync(dir, 'r');
    try {
      expect(throughFolder(fd, dir)).toBe(`/proc/self/fd/${fd}`);
      expect(readFileSync(path.join(throughFolder(fd, dir), 'outside', 'secret.txt'), 'utf8')).toBe(
        'secret',
      );
    } finally {
      closeSync(fd);
    }
  });
});

describe('openFileConfined', () => {
  it('opens a real path and reads it', () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'inside');
    const fd = openFileConfined(file);
    try {
      expect(readFileSync(fd, 'utf8')).toBe('inside');
    } finally {
      closeSync(fd);
    }
  });

  it('refuses a file that became a symbolic link, without reading through it', () => {
    const link = path.join(dir, 'a.txt');
    symlinkSync(path.join(outside, 'secret.txt'), link);
    const error = thrown(() => openFileConfined(link));
    expect(error).toBeInstanceOf(ConfinementError);
    expect((error as Error).message).toBe(
      `${link} became a symbolic link after it was checked; it was not opened. Check the file and try again.`,
    );
  });

  it('refuses a path whose folder became a link, and closes what it opened', () => {
    symlinkSync(outside, path.join(dir, 'swapped'));
    const before = openFds();
    const error = thrown(() => openFileConfined(path.join(dir, 'swapped', 'secret.txt')));
    expect(error).toBeInstanceOf(ConfinementError);
    expect((error as Error).message).toContain(
      `it now leads to ${path.join(outside, 'secret.txt')}, outside the allowed folders`,
    );
    expect(openFds()).toBe(before);
  });

  it('with a guard, follows a final link and lets the guard judge where it leads', () => {
    const link = path.join(dir, 'link');
    symlinkSync(path.join(outside, 'secret.txt'), link);
    const seen: string[] = [];
    const fd = openFileConfined(link, (real) => {
      seen.push(real);
      return true;
    });
    closeSync(fd);
    expect(seen).toEqual([path.join(outside, 'secret.txt')]);
    const before = openFds();
    expect(thrown(() => openFileConfined(link, () => false))).toBeInstanceOf(ConfinementError);
    expect(openFds()).toBe(before);
  });

  it('passes other failures on unchanged', () => {
    expect(thrown(() => openFileConfined(path.join(dir, 'missing')))).toMatchObject({
      code: 'ENOENT',
    });
    const loop = path.join(dir, 'loop');
    symlinkSync(loop, loop);
    const error = thrown(() => openFileConfined(loop, () => true));
    expect(error).not.toBeInstanceOf(ConfinementError);
    expect(error).toMatchObject({ code: 'ELOOP' });
  });
});

describe('openFolderConfined', () => {
  it('opens an existing folder', () => {
    const fd = openFolderConfined(outside, false);
    expect(openedPath(fd)).toBe(outside);
    closeSync(fd);
  });

  it('refuses a folder reached through a link unless told any place will do', () => {
    const link = path.join(dir, 'link');
    symlinkSync(outside, link);
    const before = openFds();
    const error = thrown(() => openFolderConfined(link, false));
    expect(error).toBeInstanceOf(ConfinementError);
    expect((error as Error).message).toContain(`${link} was changed while it was being opened`);
    expect(openFds()).toBe(before);
    const fd = openFolderConfined(link, false, false);
    expect(openedPath(fd)).toBe(outside);
    closeSync(fd);
  });

  it('creates missing folders one inside the other when asked', () => {
    const deep = path.join(dir, 'a', 'b', 'c');
    expect(thrown(() => openFolderConfined(deep, false))).toMatchObject({ code: 'ENOENT' });
    const fd = openFolderConfined(deep, true);
    expect(openedPath(fd)).toBe(deep);
    closeSync(fd);
    const again = openFolderConfined(deep, true);
    expect(openedPath(again)).toBe(deep);
    closeSync(again);
  });

  it('does not create folders through a link it meets on the way', () => {
    // `made` appears between the check and the creation as a link to outside: simulated by
    // asking for a path whose missing part exists as a link only after existsSync said no.
    const target = path.join(dir, 'made', 'deeper');
    const fd = openFolderConfined(dir, false);
    closeSync(fd);
    symlinkSync(outside, path.join(dir, 'made'));
    // existsSync follows the link, so `made` counts as existing; open it exactly and refuse.
    const before = openFds();
    expect(thrown(() => openFolderConfined(target, true))).toBeInstanceOf(ConfinementError);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(openFds()).toBe(before);
  });

  it('says so when a folder it creates turns out to be a link', () => {
    // A dangling link: existsSync says it is missing, mkdir finds it exists, and opening it
    // without following links fails with ELOOP.
    const elsewhere = path.join(outside, 'not-yet');
    symlinkSync(elsewhere, path.join(dir, 'dangling'));
    const target = path.join(dir, 'dangling', 'x');
    const error = thrown(() => openFolderConfined(target, true));
    expect(error).toBeInstanceOf(ConfinementError);
    expect((error as Error).message).toBe(
      `${target} was changed while it was being created: a folder became a symbolic link. Nothing was written; check the folder and try again.`,
    );
  });

  it('when any place will do, lets a dangling link fail as missing', () => {
    symlinkSync(path.join(outside, 'not-yet'), path.join(dir, 'dangling'));
    const error = thrown(() => openFolderConfined(path.join(dir, 'dangling', 'x'), true, false));
    expect(error).not.toBeInstanceOf(ConfinementError);
    expect(error).toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('passes other creation failures on', () => {
    writeFileSync(path.join(dir, 'file'), 'x');
    const error = thrown(() => openFolderConfined(path.join(dir, 'file', 'sub'), true));
    expect(error).not.toBeInstanceOf(ConfinementError);
    expect(error).toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('assertFolderStill', () => {
  it('passes while the folder stays, refuses once it moved', () => {
    const sub = path.join(dir, 'sub');
    mkdirSync(sub);
    const fd = openFolderConfined(sub, false);
    try {
      expect(() => assertFolderStill(fd, sub)).not.toThrow();
      renameSync(sub, path.join(dir, 'moved'));
      expect(() => assertFolderStill(fd, sub)).toThrow(ConfinementError);
    } finally {
      closeSync(fd);
    }
  });
});

describe('temporary files', () => {
  const marker = '.toolhost-write-';
  const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

  it('carry the writer PID and a random part', () => {
    const name = tempFileName(marker, 'a.txt');
    expect(name).toMatch(new RegExp(`^\\.toolhost-write-a\\.txt\\.${process.pid}-[0-9a-f]{12}$`));
    expect(tempFileName(marker, 'a.txt')).not.toBe(name);
  });

  it('are swept only when their writer is dead', () => {
    const dead = `${marker}a.${deadPid()}-0123456789ab`;
    const mine = tempFileName(marker, 'b');
    const live = `${marker}c.1-0123456789ab`;
    const strange = `${marker}d.notapid-0123456789ab`;
    const other = `notours.${deadPid()}-0123456789ab`;
    const backup = `${dead}~`;
    for (const name of [dead, mine, live, strange, other, backup])
      writeFileSync(path.join(dir, name), '');
    expect(sweepStaleTempFiles(dir, marker)).toEqual([dead]);
    expect(readdirSync(dir).sort()).toEqual([live, strange, mine, other, backup, 'outside'].sort());
  });

  it('of a writer running as another user (EPERM) are kept', () => {
    const name = `${marker}a.4242-0123456789ab`;
    writeFileSync(path.join(dir, name), '');
    vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('not permitted'), { code: 'EPERM' });
    });
    expect(sweepStaleTempFiles(dir, marker)).toEqual([]);
    expect(readdirSync(dir)).toContain(name);
  });

  it('in a missing folder, sweeps nothing', () => {
    expect(sweepStaleTempFiles(path.join(dir, 'missing'), marker)).toEqual([]);
  });
});
