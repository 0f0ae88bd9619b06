import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitedPid, makeTempFolder, openDescriptorsInto } from '../../test/helpers/file-system.js';
import { ToolErrorType } from '../contract/tool-error.js';
import { FileWriteError, TEMP_FILE_MARKER, toWriteError, writeFileAtomic } from './atomic-write.js';
import { ConfinementError } from './confined-fs.js';

let dir: string;
beforeEach(() => {
  dir = makeTempFolder('toolhost-atomic-');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const tempFilesIn = (folder: string) =>
  fs.readdirSync(folder).filter((name) => name.startsWith(TEMP_FILE_MARKER));

async function writeError(promise: Promise<void>): Promise<FileWriteError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FileWriteError);
  return error as FileWriteError;
}

/** The process umask, learnt from a file created with every permission bit asked for. */
function umask(): number {
  const probe = path.join(dir, 'umask-probe');
  fs.closeSync(fs.openSync(probe, 'w', 0o777));
  const granted = fs.statSync(probe).mode & 0o777;
  fs.unlinkSync(probe);
  return 0o777 & ~granted;
}

describe('writeFileAtomic', () => {
  it('creates a file and replaces an existing one, leaving no temporary file', async () => {
    const file = path.join(dir, 'a.txt');
    await writeFileAtomic(file, Buffer.from('first'));
    expect(fs.readFileSync(file, 'utf8')).toBe('first');
    await writeFileAtomic(file, Buffer.from('second'));
    expect(fs.readFileSync(file, 'utf8')).toBe('second');
    expect(fs.readdirSync(dir)).toEqual(['a.txt']);
  });

  it('keeps the mode it is given, even bits the umask clears', async () => {
    const script = path.join(dir, 'run.sh');
    await writeFileAtomic(script, Buffer.from('#!/bin/sh\n'), { mode: 0o777 });
    expect(fs.statSync(script).mode & 0o777).toBe(0o777);
    await writeFileAtomic(script, Buffer.from('#!/bin/sh\n'), { mode: 0o640 });
    expect(fs.statSync(script).mode & 0o777).toBe(0o640);
  });

  it('gives a new file without a mode the usual 0644 (less the umask)', async () => {
    const file = path.join(dir, 'plain.txt');
    await writeFileAtomic(file, Buffer.from('x'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o644 & ~umask());
  });

  it('creates missing folders only when asked', async () => {
    const file = path.join(dir, 'new', 'deep', 'a.txt');
    const error = await writeError(writeFileAtomic(file, Buffer.from('x')));
    expect(error.type).toBe(ToolErrorType.FILE_WRITE_FAILURE);
    expect(error.message).toContain(file);
    await writeFileAtomic(file, Buffer.from('x'), { createParents: true });
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });

  it('refuses to write over a folder, removing its temporary file', async () => {
    const target = path.join(dir, 'folder');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'inside.txt'), 'kept');
    const error = await writeError(writeFileAtomic(target, Buffer.from('x')));
    expect(error.type).toBe(ToolErrorType.TARGET_IS_DIRECTORY);
    expect(fs.readFileSync(path.join(target, 'inside.txt'), 'utf8')).toBe('kept');
    expect(tempFilesIn(dir)).toEqual([]);
  });

  it('says permission denied when a missing folder cannot be created', async () => {
    // /sys refuses new folders, even to root (EPERM, or EROFS where it is mounted read-only).
    const target = '/sys/toolhost-mutation-test/a.txt';
    const error = await writeError(
      writeFileAtomic(target, Buffer.from('x'), { createParents: true }),
    );
    expect(error.type).toBe(ToolErrorType.PERMISSION_DENIED);
  });

  it('says when a part of the folder path is a file', async () => {
    fs.writeFileSync(path.join(dir, 'file'), 'x');
    const target = path.join(dir, 'file', 'a.txt');
    const error = await writeError(writeFileAtomic(target, Buffer.from('x')));
    expect(error.type).toBe(ToolErrorType.FILE_WRITE_FAILURE);
    expect(error.message).toBe(
      `Cannot write ${target}: a part of its folder path is a file, not a folder.`,
    );
  });

  it('with confined, refuses a folder that is a symbolic link and writes nothing there', async () => {
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(dir, 'link'));
    const error = await writeError(
      writeFileAtomic(path.join(dir, 'link', 'a.txt'), Buffer.from('x'), { confined: true }),
    );
    expect(error.type).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('without confined, writes through a linked folder', async () => {
    const real = path.join(dir, 'real');
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(dir, 'link'));
    await writeFileAtomic(path.join(dir, 'link', 'a.txt'), Buffer.from('x'));
    expect(fs.readFileSync(path.join(real, 'a.txt'), 'utf8')).toBe('x');
  });

  it('leaves no file descriptor open, after a success or a failure', async () => {
    const before = openDescriptorsInto(dir);
    await writeFileAtomic(path.join(dir, 'a.txt'), Buffer.from('x'), { confined: true });
    fs.mkdirSync(path.join(dir, 'folder'));
    await writeError(writeFileAtomic(path.join(dir, 'folder'), Buffer.from('x')));
    expect(openDescriptorsInto(dir)).toEqual(before);
  });

  it('with confined, refuses to land in a folder that was moved during the write', async () => {
    const sub = path.join(dir, 'sub');
    const moved = path.join(dir, 'moved');
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(sub);
    fs.mkdirSync(outside);
    const writing = writeFileAtomic(path.join(sub, 'a.txt'), Buffer.from('x'), { confined: true });
    // The folder is open by now; swap it for a link before the bytes land.
    fs.renameSync(sub, moved);
    fs.symlinkSync(outside, sub);
    const error = await writeError(writing);
    expect(error.type).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
    expect(fs.readdirSync(moved)).toEqual([]);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('removes temporary files of dead writers, never those of live ones', async () => {
    const dead = `${TEMP_FILE_MARKER}a.txt.${exitedPid()}-0123456789ab`;
    const live = `${TEMP_FILE_MARKER}a.txt.1-0123456789ab`;
    fs.writeFileSync(path.join(dir, dead), 'half');
    fs.writeFileSync(path.join(dir, live), 'busy');
    await writeFileAtomic(path.join(dir, 'b.txt'), Buffer.from('x'));
    expect(fs.readdirSync(dir).sort()).toEqual([live, 'b.txt'].sort());
  });
});

describe('toWriteError: what the model is told', () => {
  const target = '/ws/a.txt';
  const withCode = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

  it('maps EACCES and EPERM to permission_denied', () => {
    for (const code of ['EACCES', 'EPERM']) {
      const error = toWriteError(withCode(code), target);
      expect(error.type).toBe(ToolErrorType.PERMISSION_DENIED);
      expect(error.message).toBe(
        'Permission denied when writing /ws/a.txt. Ask the person to check the permissions of the file and its folder.',
      );
    }
  });

  it('says when the file system is read-only', () => {
    const error = toWriteError(withCode('EROFS'), target);
    expect(error.type).toBe(ToolErrorType.PERMISSION_DENIED);
    expect(error.message).toContain('/ws/a.txt (read-only file system).');
  });

  it('maps a full disk or quota to no_space_left', () => {
    for (const code of ['ENOSPC', 'EDQUOT']) {
      const error = toWriteError(withCode(code), target);
      expect(error.type).toBe(ToolErrorType.NO_SPACE_LEFT);
      expect(error.message).toBe(
        'No space left on the device to write /ws/a.txt; the file was left as it was. Ask the person to free some disk space.',
      );
    }
  });

  it('maps a folder target and a file in the folder path', () => {
    expect(toWriteError(withCode('EISDIR'), target)).toMatchObject({
      type: ToolErrorType.TARGET_IS_DIRECTORY,
      message: '/ws/a.txt is a folder, not a file.',
    });
    expect(toWriteError(withCode('ENOTDIR'), target).type).toBe(ToolErrorType.FILE_WRITE_FAILURE);
  });

  it('passes other failures on with their message', () => {
    expect(toWriteError(withCode('EIO'), target)).toMatchObject({
      type: ToolErrorType.FILE_WRITE_FAILURE,
      message: 'Could not write /ws/a.txt: EIO: failed',
    });
  });

  it('maps a confinement failure to path_not_in_workspace and keeps a FileWriteError', () => {
    const confined = toWriteError(new ConfinementError('moved'), target);
    expect(confined).toMatchObject({ type: ToolErrorType.PATH_NOT_IN_WORKSPACE, message: 'moved' });
    const original = new FileWriteError(ToolErrorType.NO_SPACE_LEFT, 'full');
    expect(toWriteError(original, target)).toBe(original);
  });
});
