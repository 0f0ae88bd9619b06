/**
 * Checkpoints against real git on a real tree: thousands of files, ignored folders
 * (dependencies, build output, .toolhostignore), a nested repository, two workspace roots.
 * The project's own .git must come out byte for byte as it went in.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../src/agent/checkpoints/checkpoint-store.js';
import type { Checkpoint } from '../src/agent/checkpoints/checkpoint-types.js';
import { Checkpointer } from '../src/agent/checkpoints/checkpointer.js';
import { listCheckpoints, restoreCheckpoint } from '../src/agent/checkpoints/restore-checkpoint.js';
import { SessionRecorder, sessionFile } from '../src/agent/sessions/session-file.js';
import { Config } from '../src/config/config.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import {
  fingerprint,
  git,
  makeLargeProject,
  useCheckpointDirs,
  write,
} from './helpers/checkpoint-project.js';
import type { TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs;
let userDir: string;
useCheckpointDirs((made, user) => {
  dirs = made;
  userDir = user;
});

describe('checkpoints on a large tree', { timeout: 120_000 }, () => {
  it('restores changed, deleted and created files; ignored files and every .git stay untouched', async () => {
    const root = path.join(dirs.base, 'project');
    makeLargeProject(root);
    const projectGit = fingerprint(path.join(root, '.git'));
    const nestedGit = fingerprint(path.join(root, 'vendor', 'lib', '.git'));
    // A GIT_DIR in the environment must not redirect the shadow repository to the project's.
    process.env.GIT_DIR = path.join(root, '.git');

    const store = new CheckpointStore({ userDir, projectRoot: root });
    const first = await store.create({
      roots: [root],
      kind: 'tool_calls',
      toolCalls: [{ name: 'write_file', description: 'src/m0/file0.ts' }],
      sessionId: 's1',
      messageIndex: 1,
    });
    expect(first.changed).toBe(true);
    const tracked = git(
      dirs.base,
      `--git-dir=${store.dir}/git`,
      'ls-tree',
      '-r',
      '--name-only',
      first.checkpoint.commit,
    )
      .trim()
      .split('\n');
    const key = first.checkpoint.roots[0]?.key;
    expect(tracked).toContain(`${key}/src/m0/file0.ts`);
    expect(tracked).toContain(`${key}/vendor/lib/lib.c`);
    expect(tracked).toContain(`${key}/.gitignore`);
    expect(tracked.filter((f) => /node_modules|dist\/|secrets|debug\.log|\.git\//.test(f))).toEqual(
      [],
    );
    expect(tracked.length).toBe(2003); // 2000 sources, .gitignore, .toolhostignore, lib.c

    // Nothing changed: the same commit, no new snapshot.
    const again = await store.create({ roots: [root], kind: 'tool_calls', toolCalls: [] });
    expect(again.changed).toBe(false);
    expect(again.checkpoint.commit).toBe(first.checkpoint.commit);

    // What the agent did after the checkpoint.
    write(path.join(root, 'src', 'm0', 'file0.ts'), 'overwritten\n');
    rmSync(path.join(root, 'src', 'm1', 'file1.ts'));
    rmSync(path.join(root, 'src', 'm2'), { recursive: true });
    write(path.join(root, 'src', 'brand', 'new', 'deep.ts'), 'new\n');
    write(path.join(root, 'created.txt'), 'new\n');
    write(path.join(root, 'vendor', 'lib', 'lib.c'), 'changed in the nested repository\n');
    write(path.join(root, 'node_modules', 'pkg0', 'index0.js'), 'ignored edit\n');
    write(path.join(root, 'dist', 'fresh.js'), 'ignored new file\n');
    write(path.join(root, 'secrets', 'key.txt'), 'ignored by .toolhostignore\n');
    execFileSync('chmod', ['+x', path.join(root, 'src', 'm3', 'file3.ts')]);

    const changed = await store.changedFiles(again.checkpoint);
    expect(changed.map((f) => path.relative(root, f)).sort()).toEqual(
      expect.arrayContaining([
        'created.txt',
        'src/m0/file0.ts',
        'src/m1/file1.ts',
        'vendor/lib/lib.c',
      ]),
    );

    const restored = await restoreCheckpoint({ userDir, projectRoot: root }, first.checkpoint.id);
    expect(readFileSync(path.join(root, 'src', 'm0', 'file0.ts'), 'utf8')).toBe(
      'export const n0 = 0;\n',
    );
    expect(readFileSync(path.join(root, 'src', 'm1', 'file1.ts'), 'utf8')).toBe(
      'export const n1 = 1;\n',
    );
    expect(readdirSync(path.join(root, 'src', 'm2'))).toHaveLength(100);
    expect(existsSync(path.join(root, 'src', 'brand'))).toBe(false);
    expect(existsSync(path.join(root, 'created.txt'))).toBe(false);
    expect(readFileSync(path.join(root, 'vendor', 'lib', 'lib.c'), 'utf8')).toBe(
      'int lib(void) { return 1; }\n',
    );
    expect(lstatSync(path.join(root, 'src', 'm3', 'file3.ts')).mode & 0o111).toBe(0);
    // Ignored files are not the checkpoint's business.
    expect(readFileSync(path.join(root, 'node_modules', 'pkg0', 'index0.js'), 'utf8')).toBe(
      'ignored edit\n',
    );
    expect(readFileSync(path.join(root, 'dist', 'fresh.js'), 'utf8')).toBe('ignored new file\n');
    expect(readFileSync(path.join(root, 'secrets', 'key.txt'), 'utf8')).toBe(
      'ignored by .toolhostignore\n',
    );
    expect(restored.files.removed.map((f) => path.relative(root, f)).sort()).toEqual([
      'created.txt',
      'src/brand/new/deep.ts',
    ]);
    expect(restored.conversationNote).toMatch(/no longer recorded/);

    // The project's and the nested repository's .git, byte for byte; no hook ran.
    expect(fingerprint(path.join(root, '.git'))).toEqual(projectGit);
    expect(fingerprint(path.join(root, 'vendor', 'lib', '.git'))).toEqual(nestedGit);
    expect(existsSync(path.join(root, 'HOOK-RAN'))).toBe(false);
    delete process.env.GIT_DIR;
    // secrets/ is the project's own file, left alone because .toolhostignore hides it.
    expect(git(root, 'status', '--porcelain')).toBe(' M secrets/key.txt\n?? vendor/\n');

    // The restore took a checkpoint first: restoring it undoes the restore.
    expect(restored.undo).toMatchObject({ kind: 'restore', restoring: first.checkpoint.id });
    const listed = listCheckpoints({ userDir, projectRoot: root });
    expect(listed.map((c) => c.id)).toEqual([
      restored.undo.id,
      again.checkpoint.id,
      first.checkpoint.id,
    ]);
    await restoreCheckpoint({ userDir, projectRoot: root }, restored.undo.id.slice(0, 5));
    expect(readFileSync(path.join(root, 'src', 'm0', 'file0.ts'), 'utf8')).toBe('overwritten\n');
    expect(existsSync(path.join(root, 'src', 'm2'))).toBe(false);
    expect(readFileSync(path.join(root, 'src', 'brand', 'new', 'deep.ts'), 'utf8')).toBe('new\n');
  });

  it('snapshots every root of a multi-folder workspace, and refuses an unknown id or a moved project', async () => {
    const root = path.join(dirs.base, 'app');
    const shared = path.join(dirs.base, 'shared');
    write(path.join(root, 'main.txt'), 'main\n');
    write(path.join(shared, 'lib.txt'), 'lib\n');
    const project = { userDir, projectRoot: root };
    const store = new CheckpointStore(project);
    const taken = await store.create({ roots: [root, shared], kind: 'tool_calls', toolCalls: [] });
    expect(taken.checkpoint.roots.map((r) => r.path)).toEqual([root, shared]);
    write(path.join(shared, 'lib.txt'), 'changed\n');
    write(path.join(shared, 'extra.txt'), 'extra\n');
    write(path.join(root, 'main.txt'), 'changed\n');
    await restoreCheckpoint(project, taken.checkpoint.id);
    expect(readFileSync(path.join(shared, 'lib.txt'), 'utf8')).toBe('lib\n');
    expect(readFileSync(path.join(root, 'main.txt'), 'utf8')).toBe('main\n');
    expect(existsSync(path.join(shared, 'extra.txt'))).toBe(false);

    await expect(restoreCheckpoint(project, 'ffffffff')).rejects.toThrow(
      /No checkpoint "ffffffff"/,
    );
    await expect(
      restoreCheckpoint({ userDir, projectRoot: path.join(dirs.base, 'other') }, 'abc'),
    ).rejects.toThrow(/no checkpoints for/);

    rmSync(shared, { recursive: true });
    await expect(restoreCheckpoint(project, taken.checkpoint.id)).rejects.toThrow(
      /no longer exists.*nothing was restored/,
    );
    // A copy is not the same folder: its checkpoints stay with the original, which is named.
    const copy = path.join(dirs.base, 'copy', 'app');
    mkdirSync(path.dirname(copy));
    execFileSync('cp', ['-r', root, copy]);
    execFileSync('rm', ['-r', root]);
    const atCopy = new CheckpointStore({ userDir, projectRoot: copy });
    expect(atCopy.adoptedFrom).toBeUndefined();
    expect(atCopy.movedFrom()).toEqual([root]);
  });

  it('a moved project keeps its checkpoints: listed and restored at the new path, with its sessions', async () => {
    const root = path.join(dirs.base, 'old-parent', 'app');
    const content = Buffer.from([0, 1, 2, 255, 10, 13, 10]);
    write(path.join(root, 'src', 'data.bin'), '');
    writeFileSync(path.join(root, 'src', 'data.bin'), content);
    write(path.join(root, 'keep.txt'), 'kept\n');
    const recorder = new SessionRecorder(sessionFile(userDir, root, 's1'), {
      sessionId: 's1',
      cwd: root,
      model: 'm',
    });
    recorder.recordMessage({ role: 'user', content: 'hello' });
    const first = await new CheckpointStore({ userDir, projectRoot: root }).create({
      roots: [root],
      kind: 'tool_calls',
      sessionId: 's1',
      messageIndex: 1,
    });
    recorder.recordCheckpoint(first.checkpoint.id);
    recorder.recordMessage({ role: 'assistant', content: 'changing data.bin' });
    writeFileSync(path.join(root, 'src', 'data.bin'), 'changed');
    const moved = path.join(dirs.base, 'new-parent', 'app');
    mkdirSync(path.dirname(moved));
    execFileSync('mv', [root, moved]);

    const store = new CheckpointStore({ userDir, projectRoot: moved });
    expect(store.adoptedFrom).toBe(root);
    expect(existsSync(sessionFile(userDir, moved, 's1'))).toBe(true);
    const [listed] = listCheckpoints({ userDir, projectRoot: moved });
    expect(listed?.id).toBe(first.checkpoint.id);
    expect(listed?.roots.map((r) => r.path)).toEqual([moved]);
    // The moved root keeps its key: now and then compare file by file.
    expect(await store.differencesFromNow(listed as Checkpoint)).toEqual([
      { status: 'M', file: path.join(moved, 'src', 'data.bin') },
    ]);
    const changed = await store.changedFiles(listed as Checkpoint);
    expect(changed).toEqual([path.join(moved, 'src', 'data.bin')]);
    write(path.join(moved, 'created.txt'), 'new\n');
    const restored = await restoreCheckpoint({ userDir, projectRoot: moved }, first.checkpoint.id);
    expect(readFileSync(path.join(moved, 'src', 'data.bin')).equals(content)).toBe(true);
    expect(existsSync(path.join(moved, 'created.txt'))).toBe(false);
    expect(restored.files.written).toEqual([path.join(moved, 'src', 'data.bin')]);
    expect(restored.conversation?.sessionId).toBe('s1');
  });
});

describe('restoring through links an agent planted', () => {
  it('a folder or file swapped for a link out of the workspace is replaced, never written through', async () => {
    const root = path.join(dirs.base, 'project');
    const outside = path.join(dirs.base, 'outside');
    write(path.join(root, 'src', 'a.txt'), 'inside\n');
    write(path.join(root, 'lib', 'b.txt'), 'inside\n');
    write(path.join(outside, 'a.txt'), 'keep\n');
    write(path.join(outside, 'b.txt'), 'keep\n');
    const project = { userDir, projectRoot: root };
    const { checkpoint } = await new CheckpointStore(project).create({
      roots: [root],
      kind: 'tool_calls',
    });
    rmSync(path.join(root, 'src'), { recursive: true });
    symlinkSync(outside, path.join(root, 'src'));
    rmSync(path.join(root, 'lib', 'b.txt'));
    symlinkSync(path.join(outside, 'b.txt'), path.join(root, 'lib', 'b.txt'));
    await restoreCheckpoint(project, checkpoint.id);
    expect(lstatSync(path.join(root, 'src')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(root, 'src', 'a.txt'), 'utf8')).toBe('inside\n');
    expect(lstatSync(path.join(root, 'lib', 'b.txt')).isFile()).toBe(true);
    expect(readFileSync(path.join(outside, 'a.txt'), 'utf8')).toBe('keep\n');
    expect(readFileSync(path.join(outside, 'b.txt'), 'utf8')).toBe('keep\n');
  });
});

describe('a checkpoint that cannot be taken', () => {
  it('is reported with its cause; the batch runs only when settings say continue', async () => {
    const root = path.join(dirs.base, 'ws');
    write(path.join(root, 'a.txt'), 'a\n');
    // ~/.toolhost/history is a file: the checkpoint folder cannot be made.
    write(path.join(userDir, 'history'), 'in the way\n');
    const config = new Config({ roots: [root], homeDir: dirs.home });
    const registry = createToolRegistry(config);
    const write1 = [
      { id: '1', name: 'write_file', args: { file_path: path.join(root, 'a.txt'), content: 'b' } },
    ];
    const stop = await new Checkpointer(config, registry).beforeBatch(
      write1,
      1,
      new AbortController().signal,
    );
    expect(stop).toMatchObject({ kind: 'failed', runBatch: false });
    expect(stop.kind === 'failed' && stop.message).toMatch(/write_file.*history.*not run/s);
    const go = await new Checkpointer(config, registry, { onFailure: 'continue' }).beforeBatch(
      write1,
      1,
      new AbortController().signal,
    );
    expect(go).toMatchObject({ kind: 'failed', runBatch: true });

    rmSync(path.join(userDir, 'history'));
    const noGit = await new Checkpointer(config, registry, {
      gitPath: path.join(dirs.base, 'no-such-git'),
    }).beforeBatch(write1, 1, new AbortController().signal);
    expect(noGit.kind === 'failed' && noGit.message).toMatch(/git is not installed/);
    await config.dispose();
  });
});
