/**
 * Checkpoints against real git on a real tree: thousands of files, ignored folders
 * (dependencies, build output, .toolhostignore), a nested repository, two workspace roots.
 * The project's own .git must come out byte for byte as it went in.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Checkpoint, CheckpointStore } from '../src/agent/checkpoints/checkpoint-store.js';
import { Checkpointer } from '../src/agent/checkpoints/checkpointer.js';
import { listCheckpoints, restoreCheckpoint } from '../src/agent/checkpoints/restore-checkpoint.js';
import { SessionRecorder, sessionFile } from '../src/agent/sessions/session-file.js';
import { loadSession } from '../src/agent/sessions/session-loader.js';
import { Config } from '../src/config/config.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { startAgentHarness } from './helpers/agent-harness.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs;
let userDir: string;
const savedGitDir = process.env.GIT_DIR;
beforeEach(() => {
  dirs = makeTempDirs();
  userDir = path.join(dirs.home, '.toolhost');
});
afterEach(() => {
  if (savedGitDir === undefined) delete process.env.GIT_DIR;
  else process.env.GIT_DIR = savedGitDir;
  dirs.cleanup();
});

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: dirs.home },
  });
}

/** Every entry under a folder: type, mode and content digest (or link target), by path. */
function fingerprint(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      const stat = lstatSync(full);
      const key = path.relative(dir, full);
      if (stat.isSymbolicLink()) {
        found.set(key, `link ${readlinkSync(full)}`);
      } else if (stat.isDirectory()) {
        found.set(key, `dir ${stat.mode}`);
        walk(full);
      } else {
        const digest = createHash('sha256').update(readFileSync(full)).digest('hex');
        found.set(key, `file ${stat.mode} ${stat.size} ${digest} ${stat.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return found;
}

/** A git project: 2000 tracked files, 1500 in node_modules, build output, a nested repository. */
function makeLargeProject(root: string): void {
  write(path.join(root, '.gitignore'), 'node_modules/\ndist/\n*.log\n');
  write(path.join(root, '.toolhostignore'), 'secrets/\n');
  for (let i = 0; i < 2000; i++) {
    write(path.join(root, 'src', `m${i % 20}`, `file${i}.ts`), `export const n${i} = ${i};\n`);
  }
  for (let i = 0; i < 1500; i++) {
    write(
      path.join(root, 'node_modules', `pkg${i % 100}`, `index${i}.js`),
      `module.exports = ${i};\n`,
    );
  }
  for (let i = 0; i < 200; i++) write(path.join(root, 'dist', `out${i}.js`), `// built ${i}\n`);
  write(path.join(root, 'secrets', 'key.txt'), 'hidden from toolhost\n');
  write(path.join(root, 'debug.log'), 'log\n');
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial');
  // A hook that would leave a canary if anything ran it.
  write(path.join(root, '.git', 'hooks', 'post-commit'), `#!/bin/sh\ntouch "${root}/HOOK-RAN"\n`);
  execFileSync('chmod', ['+x', path.join(root, '.git', 'hooks', 'post-commit')]);
  const nested = path.join(root, 'vendor', 'lib');
  write(path.join(nested, 'lib.c'), 'int lib(void) { return 1; }\n');
  git(nested, 'init', '-q');
  git(nested, 'add', '-A');
  git(nested, 'commit', '-qm', 'nested');
}

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

describe('checkpoints in the agent loop', () => {
  it('a batch that writes gets a checkpoint in the session; restoring it brings back the file and the conversation', async () => {
    let file = '';
    const h = await startAgentHarness(
      (_request, index) =>
        [
          { toolCalls: [{ id: 'c1', name: 'read_file', args: { absolute_path: file } }] },
          {
            toolCalls: [
              { id: 'c2', name: 'write_file', args: { file_path: file, content: 'overwritten\n' } },
            ],
          },
          { text: 'done' },
        ][index] ?? { text: 'no more steps' },
      { config: { approvalMode: 'auto-edit' } },
    );
    try {
      file = h.ws.write('notes.txt', 'original\n');
      const { config } = h.ws;
      const sessionPath = sessionFile(config.userDir, config.targetDir, config.sessionId);
      const recorder = new SessionRecorder(sessionPath, {
        sessionId: config.sessionId,
        cwd: config.targetDir,
        model: 'scripted-model',
      });
      const result = await h
        .loop({ checkpoints: new Checkpointer(config, h.registry), recorder })
        .run('rewrite notes.txt', new AbortController().signal);
      expect(result.status).toBe('success');
      expect(readFileSync(file, 'utf8')).toBe('overwritten\n');
      // Only the writing batch needed one: read_file is read-only.
      expect(h.events.filter((e) => e.type === 'checkpoint')).toHaveLength(1);
      const project = { userDir: config.userDir, projectRoot: config.targetDir };
      const [checkpoint] = listCheckpoints(project, { sessionId: config.sessionId });
      expect(checkpoint).toMatchObject({
        kind: 'tool_calls',
        sessionId: config.sessionId,
        messageIndex: 3,
        toolCalls: [{ name: 'write_file' }],
      });
      expect(checkpoint?.toolCalls[0]?.description).toContain('notes.txt');

      const restored = await restoreCheckpoint(project, checkpoint?.id ?? '');
      expect(readFileSync(file, 'utf8')).toBe('original\n');
      // Back to the read: the prompt, the read_file call and its result.
      expect(restored.conversation?.history.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
      ]);
      expect(restored.conversation?.removedMessages).toBe(3);
      expect(loadSession(sessionPath).history).toEqual(restored.conversation?.history);
    } finally {
      await h.close();
    }
  });

  it('a checkpoint that fails stops the run before the batch, with a notice (default policy)', async () => {
    let file = '';
    const h = await startAgentHarness(
      () => ({
        toolCalls: [{ id: 'c1', name: 'write_file', args: { file_path: file, content: 'x' } }],
      }),
      { config: { approvalMode: 'auto-edit' } },
    );
    try {
      file = h.ws.write('notes.txt', 'original\n');
      write(path.join(h.ws.config.userDir, 'history'), 'a file where the folder should be\n');
      const result = await h
        .loop({ checkpoints: new Checkpointer(h.ws.config, h.registry) })
        .run('rewrite notes.txt', new AbortController().signal);
      expect(result.status).toBe('error');
      expect(result.message).toMatch(/No checkpoint could be taken before write_file/);
      expect(readFileSync(file, 'utf8')).toBe('original\n');
      const notices = h.events.filter((e) => e.type === 'notice' && e.level === 'warning');
      expect(notices).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
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
