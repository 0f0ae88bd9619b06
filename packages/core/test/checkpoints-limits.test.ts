/**
 * What a checkpoint leaves out or keeps small: files over the size limit, symbolic links
 * (kept as links, never followed), old checkpoints past the retention, and the stat cache
 * a restore must keep so the next checkpoint stays fast.
 */
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../src/agent/checkpoints/checkpoint-store.js';
import { restoreCheckpoint } from '../src/agent/checkpoints/restore-checkpoint.js';
import { fingerprint, git, useCheckpointDirs, write } from './helpers/checkpoint-project.js';
import type { TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs;
let userDir: string;
useCheckpointDirs((made, user) => {
  dirs = made;
  userDir = user;
});

describe('large files and symbolic links', () => {
  it('leaves out files over the size limit (named), keeps links as links, and never follows one out on restore', async () => {
    const root = path.join(dirs.base, 'project');
    const outside = path.join(dirs.base, 'outside');
    const bytes = (size: number, seed: number) =>
      Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed) % 256));
    write(path.join(outside, 'canary.txt'), 'canary\n');
    write(path.join(outside, 'secret.txt'), 'not for the snapshot\n');
    mkdirSync(path.join(root, 'src'), { recursive: true });
    writeFileSync(path.join(root, 'src', 'data.bin'), bytes(5000, 1));
    writeFileSync(path.join(root, 'big.bin'), bytes(300_000, 2));
    writeFileSync(path.join(root, 'grows.bin'), bytes(1000, 5));
    symlinkSync('src/data.bin', path.join(root, 'rel-link'));
    symlinkSync(path.join(outside, 'canary.txt'), path.join(root, 'out-link'));
    symlinkSync('../outside', path.join(root, 'docs'));
    const outsideBefore = fingerprint(outside);
    const project = { userDir, projectRoot: root };
    const store = new CheckpointStore({ ...project, maxFileSize: 100_000 });
    const taken = await store.create({ roots: [root], kind: 'tool_calls' });
    expect(taken.skipped).toEqual([
      { file: path.join(root, 'big.bin'), reason: 'too_large', size: 300_000 },
    ]);
    expect(store.list()[0]?.skipped).toEqual(taken.skipped);
    const entries = git(
      dirs.base,
      `--git-dir=${store.dir}/git`,
      'ls-tree',
      '-r',
      `${taken.checkpoint.commit}:${taken.checkpoint.roots[0]?.key}`,
    );
    // Links are kept as links (mode 120000); the folder a link leads to is not walked.
    expect(entries).toMatch(/^120000 blob \w+\trel-link$/m);
    expect(entries).toMatch(/^120000 blob \w+\tout-link$/m);
    expect(entries).toMatch(/^120000 blob \w+\tdocs$/m);
    expect(entries).toMatch(/\tsrc\/data\.bin$/m);
    expect(entries).not.toMatch(/big\.bin|secret|canary/);

    // What an agent might do: links swapped for files and a folder, data changed, the big file rewritten.
    rmSync(path.join(root, 'rel-link'));
    writeFileSync(path.join(root, 'rel-link'), 'a file now\n');
    rmSync(path.join(root, 'out-link'));
    writeFileSync(path.join(root, 'out-link'), 'written where the link was\n');
    rmSync(path.join(root, 'docs'));
    write(path.join(root, 'docs', 'canary.txt'), 'a real folder now\n');
    writeFileSync(path.join(root, 'src', 'data.bin'), bytes(7000, 3));
    const bigNow = bytes(400_000, 4);
    writeFileSync(path.join(root, 'big.bin'), bigNow);
    const grown = bytes(200_000, 6);
    writeFileSync(path.join(root, 'grows.bin'), grown);

    const restored = await new CheckpointStore({ ...project, maxFileSize: 100_000 }).restoreFiles(
      taken.checkpoint,
    );
    expect(readFileSync(path.join(root, 'src', 'data.bin')).equals(bytes(5000, 1))).toBe(true);
    for (const [link, target] of [
      ['rel-link', 'src/data.bin'],
      ['out-link', path.join(outside, 'canary.txt')],
      ['docs', '../outside'],
    ] as const) {
      expect(lstatSync(path.join(root, link)).isSymbolicLink()).toBe(true);
      expect(readlinkSync(path.join(root, link))).toBe(target);
    }
    // Nothing was written through a link: the folder outside is as it was.
    expect(fingerprint(outside)).toEqual(outsideBefore);
    // Files too large for the undo checkpoint are not overwritten (nothing could bring them
    // back): the one that grew is left alone and named; the big one was never in a checkpoint.
    expect(readFileSync(path.join(root, 'grows.bin')).equals(grown)).toBe(true);
    expect(readFileSync(path.join(root, 'big.bin')).equals(bigNow)).toBe(true);
    expect(restored.files.left).toEqual([path.join(root, 'grows.bin')]);
    expect(restored.undo.skipped?.map((s) => s.file).sort()).toEqual([
      path.join(root, 'big.bin'),
      path.join(root, 'grows.bin'),
    ]);

    // Undoing the restore brings the agent's version back, link-free.
    await new CheckpointStore({ ...project, maxFileSize: 100_000 }).restoreFiles(restored.undo);
    expect(lstatSync(path.join(root, 'docs')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(root, 'out-link'), 'utf8')).toBe('written where the link was\n');
    expect(fingerprint(outside)).toEqual(outsideBefore);
  });
});

describe('retention', () => {
  it('keeps the newest maxCount checkpoints: older records and refs go, the kept ones restore', async () => {
    const root = path.join(dirs.base, 'project');
    write(path.join(root, 'a.txt'), 'v0\n');
    const store = new CheckpointStore({ userDir, projectRoot: root, retention: { maxCount: 2 } });
    const ids: string[] = [];
    for (let version = 1; version <= 4; version++) {
      ids.push((await store.create({ roots: [root], kind: 'tool_calls' })).checkpoint.id);
      write(path.join(root, 'a.txt'), `v${version}\n`);
    }
    expect(store.list().map((c) => c.id)).toEqual(ids.slice(2));
    const refs = git(
      dirs.base,
      `--git-dir=${store.dir}/git`,
      'for-each-ref',
      '--format=%(refname)',
      'refs/checkpoints',
    )
      .trim()
      .split('\n')
      .sort();
    expect(refs).toEqual(
      ids
        .slice(2)
        .map((id) => `refs/checkpoints/${id}`)
        .sort(),
    );
    await restoreCheckpoint({ userDir, projectRoot: root }, ids[2] ?? '');
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('v2\n');
    await expect(restoreCheckpoint({ userDir, projectRoot: root }, ids[0] ?? '')).rejects.toThrow(
      /No checkpoint/,
    );
  });

  it('a restore keeps the stat cache of the files it leaves alone, so the next checkpoint does not read them again', async () => {
    const root = path.join(dirs.base, 'project');
    for (let i = 0; i < 20; i++) write(path.join(root, `same-${i}.txt`), `unchanged ${i}\n`);
    write(path.join(root, 'edited.txt'), 'before\n');
    const store = new CheckpointStore({ userDir, projectRoot: root });
    const before = (await store.create({ roots: [root], kind: 'tool_calls' })).checkpoint.id;
    write(path.join(root, 'edited.txt'), 'after\n');
    await store.create({ roots: [root], kind: 'tool_calls' });
    await restoreCheckpoint({ userDir, projectRoot: root }, before);
    expect(readFileSync(path.join(root, 'edited.txt'), 'utf8')).toBe('before\n');
    // git keeps a file's size and times in the index; an entry whose stat data was cleared
    // (size 0 for a file that is not empty) is one the next snapshot must read and hash.
    const indexes = path.join(store.dir, 'indexes');
    const [indexName] = readdirSync(indexes);
    const debug = execFileSync('git', ['ls-files', '--debug'], {
      cwd: root,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: dirs.home,
        GIT_DIR: path.join(store.dir, 'git'),
        GIT_WORK_TREE: root,
        GIT_INDEX_FILE: path.join(indexes, indexName ?? ''),
      },
    });
    const sizes = new Map<string, number>();
    let current = '';
    for (const line of debug.split('\n')) {
      const size = /^\s+size: (\d+)/.exec(line);
      if (size) sizes.set(current, Number(size[1]));
      else if (line && !line.startsWith(' ')) current = line;
    }
    expect(sizes.size).toBe(21);
    for (const [file, size] of sizes) {
      expect({ file, size }).toEqual({ file, size: statSync(path.join(root, file)).size });
    }
  });
});
