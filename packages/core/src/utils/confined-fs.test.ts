import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exitedPid, makeTempFolder, openDescriptorsInto } from '../../test/helpers/file-system.js';
import {
  assertFolderStill,
  ConfinementError,
  FolderHandles,
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
  dir = makeTempFolder('toolhost-confined-');
  outside = path.join(dir, 'outside');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

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
    fs.writeFileSync(file, 'a');
    const fd = fs.openSync(file, 'r');
    expect(openedPath(fd)).toBe(file);
    fs.closeSync(fd);
  });

  it('tell where an open file really is, also after it was deleted', () => {
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'a');
    const fd = fs.openSync(file, 'r');
    try {
      expect(openedPath(fd)).toBe(file);
      fs.unlinkSync(file);
      expect(openedPath(fd)).toBe(file);
    } finally {
      fs.closeSync(fd);
    }
    expect(openedPath(fd)).toBeNull();
  });

  it('reach names inside an open folder through its handle', () => {
    const fd = fs.openSync(dir, 'r');
    try {
      expect(throughFolder(fd, dir)).toBe(`/proc/self/fd/${fd}`);
      expect(
        fs.readFileSync(path.join(throughFolder(fd, dir), 'outside', 'secret.txt'), 'utf8'),
      ).toBe('secret');
    } finally {
      fs.closeSync(fd);
    }
  });
});

describe('openFileConfined', () => {
  it('opens a real path and reads it', () => {
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'inside');
    const fd = openFileConfined(file);
    try {
      expect(fs.readFileSync(fd, 'utf8')).toBe('inside');
    } finally {
      fs.closeSync(fd);
    }
  });

  it('refuses a file that became a symbolic link, without reading through it', () => {
    const link = path.join(dir, 'a.txt');
    fs.symlinkSync(path.join(outside, 'secret.txt'), link);
    const error = thrown(() => openFileConfined(link));
    expect(error).toBeInstanceOf(ConfinementError);
    expect((error as Error).message).toBe(
      `${link} became a symbolic link after it was checked; it was not opened. Check the file and try again.`,
    );
  });

  it('refuses a path whose folder became a link, and closes what it opened', () => {
    fs.symlinkSync(outside, path.join(dir, 'swapped'));
    const before = openDescriptorsInto(dir);
    const error = thrown(() => openFileConfined(path.join(dir, 'swapped', 'secret.txt')));
    expect(error).toBeInstanceOf(ConfinementError);
    expect((error as Error).message).toContain(
      `it now leads to ${path.join(outside, 'secret.txt')}, outside the allowed folders`,
    );
    expect(openDescriptorsInto(dir)).toEqual(before);
  });

  it('with a guard, follows a final link and lets the guard judge where it leads', () => {
    const link = path.join(dir, 'link');
    fs.symlinkSync(path.join(outside, 'secret.txt'), link);
    const seen: string[] = [];
    const fd = openFileConfined(link, (real) => {
      seen.push(real);
      return true;
    });
    fs.closeSync(fd);
    expect(seen).toEqual([path.join(outside, 'secret.txt')]);
    const before = openDescriptorsInto(dir);
    expect(thrown(() => openFileConfined(link, () => false))).toBeInstanceOf(ConfinementError);
    expect(openDescriptorsInto(dir)).toEqual(before);
  });

  it('passes other failures on unchanged', () => {
    expect(thrown(() => openFileConfined(path.join(dir, 'missing')))).toMatchObject({
      code: 'ENOENT',
    });
    const loop = path.join(dir, 'loop');
    fs.symlinkSync(loop, loop);
    const error = thrown(() => openFileConfined(loop, () => true));
    expect(error).not.toBeInstanceOf(ConfinementError);
    expect(error).toMatchObject({ code: 'ELOOP' });
  });
});

describe('FolderHandles', () => {
  const inside = (real: string) =>
    real.startsWith(`${dir}${path.sep}`) && !real.startsWith(outside);
  const read = (handles: FolderHandles, file: string) => {
    const fd = handles.openFile(file);
    try {
      return fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  };

  it('reads files of a folder, the guard judging each real path, and closes the folder', () => {
    fs.mkdirSync(path.join(dir, 'work'));
    for (const name of ['a.txt', 'b.txt']) fs.writeFileSync(path.join(dir, 'work', name), name);
    const seen: string[] = [];
    const before = openDescriptorsInto(dir);
    const handles = new FolderHandles((real) => {
      seen.push(real);
      return inside(real);
    });
    expect(read(handles, path.join(dir, 'work', 'a.txt'))).toBe('a.txt');
    expect(read(handles, path.join(dir, 'work', 'b.txt'))).toBe('b.txt');
    expect(seen).toEqual([path.join(dir, 'work', 'a.txt'), path.join(dir, 'work', 'b.txt')]);
    handles.close();
    expect(openDescriptorsInto(dir)).toEqual(before);
  });

  it('judges a file that is a link by where it leads', () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'));
    fs.writeFileSync(path.join(dir, 'target.txt'), 'target');
    fs.symlinkSync(path.join(dir, 'target.txt'), path.join(dir, 'near.txt'));
    const handles = new FolderHandles(inside);
    try {
      expect(thrown(() => handles.openFile(path.join(dir, 'link.txt')))).toBeInstanceOf(
        ConfinementError,
      );
      expect(read(handles, path.join(dir, 'near.txt'))).toBe('target');
    } finally {
      handles.close();
    }
  });

  it('never reads through a folder swapped for a link after it was opened', () => {
    fs.mkdirSync(path.join(dir, 'work'));
    fs.writeFileSync(path.join(dir, 'work', 'a.txt'), 'inside');
    fs.writeFileSync(path.join(outside, 'a.txt'), 'secret');
    const handles = new FolderHandles(inside);
    try {
      expect(read(handles, path.join(dir, 'work', 'a.txt'))).toBe('inside');
      fs.renameSync(path.join(dir, 'work'), path.join(dir, 'moved'));
      fs.symlinkSync(outside, path.join(dir, 'work'));
      expect(read(handles, path.join(dir, 'work', 'a.txt'))).toBe('inside');
      // A folder first met as a link is judged by where it leads.
      const fresh = new FolderHandles(inside);
      expect(thrown(() => fresh.openFile(path.join(dir, 'work', 'a.txt')))).toBeInstanceOf(
        ConfinementError,
      );
      fresh.close();
    } finally {
      handles.close();
    }
  });

  it('answers from the folder it checked, never looking the path up again', () => {
    fs.mkdirSync(path.join(dir, 'work'));
    fs.writeFileSync(path.join(dir, 'work', 'a.txt'), 'first');
    const handles = new FolderHandles(inside);
    try {
      expect(read(handles, path.join(dir, 'work', 'a.txt'))).toBe('first');
      // A new folder takes the old one's path: its files are not the checked folder's.
      fs.renameSync(path.join(dir, 'work'), path.join(dir, 'moved'));
      fs.mkdirSync(path.join(dir, 'work'));
      fs.writeFileSync(path.join(dir, 'work', 'b.txt'), 'second');
      // The error names the file by the folder's checked path, not the handle it went through.
      const missing = thrown(() => handles.openFile(path.join(dir, 'work', 'b.txt')));
      expect(missing).toMatchObject({
        code: 'ENOENT',
        path: path.join(dir, 'work', 'b.txt'),
        message: `ENOENT: no such file or directory, open '${path.join(dir, 'work', 'b.txt')}'`,
      });
      expect(read(handles, path.join(dir, 'work', 'a.txt'))).toBe('first');
    } finally {
      handles.close();
    }
  });

  it('keeps a bounded number of folders open', () => {
    const before = openDescriptorsInto(dir);
    const handles = new FolderHandles(inside);
    // The oldest entry, a folder that could not be opened, is dropped with nothing to close.
    expect(thrown(() => handles.openFile(path.join(dir, 'no-folder', 'x.txt')))).toMatchObject({
      code: 'ENOENT',
    });
    for (let i = 0; i < 100; i++) {
      fs.mkdirSync(path.join(dir, `f${i}`));
      fs.writeFileSync(path.join(dir, `f${i}`, 'x.txt'), `${i}`);
      expect(read(handles, path.join(dir, `f${i}`, 'x.txt'))).toBe(`${i}`);
    }
    expect(openDescriptorsInto(dir).length - before.length).toBeLessThanOrEqual(64);
    handles.close();
    expect(openDescriptorsInto(dir)).toEqual(before);
  });

  it('passes a missing file on as ENOENT', () => {
    const handles = new FolderHandles(inside);
    expect(thrown(() => handles.openFile(path.join(dir, 'missing.txt')))).toMatchObject({
      code: 'ENOENT',
    });
    expect(thrown(() => handles.openFile(path.join(dir, 'no-folder', 'x.txt')))).toMatchObject({
      code: 'ENOENT',
    });
    handles.close();
  });
});

describe('openFolderConfined', () => {
  it('opens an existing folder', () => {
    const fd = openFolderConfined(outside, false);
    expect(openedPath(fd)).toBe(outside);
    fs.closeSync(fd);
  });

  it('refuses a folder reached through a link unless told any place will do', () => {
    const link = path.join(dir, 'link');
    fs.symlinkSync(outside, link);
    const before = openDescriptorsInto(dir);
    const error = thrown(() => openFolderConfined(link, false));
    expect(error).toBeInstanceOf(ConfinementError);
    expect((error as Error).message).toContain(`${link} was changed while it was being opened`);
    expect(openDescriptorsInto(dir)).toEqual(before);
    const fd = openFolderConfined(link, false, false);
    expect(openedPath(fd)).toBe(outside);
    fs.closeSync(fd);
  });

  it('creates missing folders one inside the other when asked', () => {
    const deep = path.join(dir, 'a', 'b', 'c');
    expect(thrown(() => openFolderConfined(deep, false))).toMatchObject({ code: 'ENOENT' });
    const fd = openFolderConfined(deep, true);
    expect(openedPath(fd)).toBe(deep);
    fs.closeSync(fd);
    const again = openFolderConfined(deep, true);
    expect(openedPath(again)).toBe(deep);
    fs.closeSync(again);
  });

  it('does not create folders through a link it meets on the way', () => {
    // `made` appears between the check and the creation as a link to outside: simulated by
    // asking for a path whose missing part exists as a link only after existsSync said no.
    const target = path.join(dir, 'made', 'deeper');
    const fd = openFolderConfined(dir, false);
    fs.closeSync(fd);
    fs.symlinkSync(outside, path.join(dir, 'made'));
    // existsSync follows the link, so `made` counts as existing; open it exactly and refuse.
    const before = openDescriptorsInto(dir);
    expect(thrown(() => openFolderConfined(target, true))).toBeInstanceOf(ConfinementError);
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    expect(openDescriptorsInto(dir)).toEqual(before);
  });

  it('says so when a folder it creates turns out to be a link', () => {
    // A dangling link: existsSync says it is missing, mkdir finds it exists, and opening it
    // without following links fails with ELOOP.
    const elsewhere = path.join(outside, 'not-yet');
    fs.symlinkSync(elsewhere, path.join(dir, 'dangling'));
    const target = path.join(dir, 'dangling', 'x');
    const error = thrown(() => openFolderConfined(target, true));
    expect(error).toBeInstanceOf(ConfinementError);
    expect((error as Error).message).toBe(
      `${target} was changed while it was being created: a folder became a symbolic link. Nothing was written; check the folder and try again.`,
    );
  });

  it('when any place will do, lets a dangling link fail as missing', () => {
    fs.symlinkSync(path.join(outside, 'not-yet'), path.join(dir, 'dangling'));
    const error = thrown(() => openFolderConfined(path.join(dir, 'dangling', 'x'), true, false));
    expect(error).not.toBeInstanceOf(ConfinementError);
    expect(error).toMatchObject({ code: 'ENOENT' });
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('passes other creation failures on', () => {
    fs.writeFileSync(path.join(dir, 'file'), 'x');
    const error = thrown(() => openFolderConfined(path.join(dir, 'file', 'sub'), true));
    expect(error).not.toBeInstanceOf(ConfinementError);
    expect(error).toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('assertFolderStill', () => {
  it('passes while the folder stays, refuses once it moved', () => {
    const sub = path.join(dir, 'sub');
    fs.mkdirSync(sub);
    const fd = openFolderConfined(sub, false);
    try {
      expect(() => assertFolderStill(fd, sub)).not.toThrow();
      fs.renameSync(sub, path.join(dir, 'moved'));
      expect(() => assertFolderStill(fd, sub)).toThrow(ConfinementError);
    } finally {
      fs.closeSync(fd);
    }
  });
});

describe('temporary files', () => {
  const marker = '.toolhost-write-';

  it('carry the writer PID and a random part', () => {
    const name = tempFileName(marker, 'a.txt');
    expect(name).toMatch(new RegExp(`^\\.toolhost-write-a\\.txt\\.${process.pid}-[0-9a-f]{12}$`));
    expect(tempFileName(marker, 'a.txt')).not.toBe(name);
  });

  it('are swept only when their writer is dead', () => {
    const dead = `${marker}a.${exitedPid()}-0123456789ab`;
    const mine = tempFileName(marker, 'b');
    const live = `${marker}c.1-0123456789ab`;
    const strange = `${marker}d.notapid-0123456789ab`;
    const other = `notours.${exitedPid()}-0123456789ab`;
    const backup = `${dead}~`;
    for (const name of [dead, mine, live, strange, other, backup])
      fs.writeFileSync(path.join(dir, name), '');
    expect(sweepStaleTempFiles(dir, marker)).toEqual([dead]);
    expect(fs.readdirSync(dir).sort()).toEqual(
      [live, strange, mine, other, backup, 'outside'].sort(),
    );
  });

  it('of a writer running as another user (EPERM) are kept', () => {
    const name = `${marker}a.4242-0123456789ab`;
    fs.writeFileSync(path.join(dir, name), '');
    vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('not permitted'), { code: 'EPERM' });
    });
    expect(sweepStaleTempFiles(dir, marker)).toEqual([]);
    expect(fs.readdirSync(dir)).toContain(name);
  });

  it('in a missing folder, sweeps nothing', () => {
    expect(sweepStaleTempFiles(path.join(dir, 'missing'), marker)).toEqual([]);
  });
});
