/**
 * Checkpoints on a large tree (the corpus, or BENCH_TREE): the first snapshot of a project
 * (every file hashed), one when nothing changed (the agent's usual case), one after a
 * single file changed, and restoring that file; beside git itself doing the same work
 * (`git add -A` + `git write-tree` into a repository of its own).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CORE, CORPUS, load, machine, ms, RUNS, table, times } from './lib.mjs';

const core = await import(CORE);
const tree = process.env.BENCH_TREE ?? CORPUS;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolhost-bench-checkpoints-'));
const project = { userDir: path.join(scratch, 'home', '.toolhost'), projectRoot: tree };
const changed = execFileSync('git', ['ls-files'], {
  cwd: tree,
  encoding: 'utf8',
  maxBuffer: 1 << 28,
})
  .split('\n')
  .find((file) => file.endsWith('.ts'));
if (!changed) throw new Error(`no tracked .ts file in ${tree}`);
const changedPath = path.join(tree, changed);
const original = readFileSync(changedPath);

const timed = async (work) => {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const gitEnv = (gitDir) => ({ ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: tree });
function gitSnapshot(gitDir) {
  execFileSync('git', ['add', '-A'], { cwd: tree, env: gitEnv(gitDir) });
  execFileSync('git', ['write-tree'], { cwd: tree, env: gitEnv(gitDir) });
}

try {
  const store = new core.CheckpointStore(project);
  const snapshot = () => store.create({ roots: [tree], kind: 'tool_calls' });
  const first = await timed(snapshot);
  const files =
    execFileSync(
      'git',
      [
        '--git-dir',
        path.join(store.dir, 'git'),
        'ls-tree',
        '-r',
        '--name-only',
        first.result.checkpoint.commit,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 28 },
    ).split('\n').length - 1;

  const nativeDir = path.join(scratch, 'native.git');
  execFileSync('git', ['init', '-q', '--bare', nativeDir]);
  execFileSync('git', ['--git-dir', nativeDir, 'config', 'core.bare', 'false']);
  const nativeFirst = await timed(() => gitSnapshot(nativeDir));

  const unchanged = [];
  const nativeUnchanged = [];
  const oneFile = [];
  const restore = [];
  for (let round = 0; round < RUNS; round++) {
    unchanged.push((await timed(snapshot)).ms);
    nativeUnchanged.push((await timed(() => gitSnapshot(nativeDir))).ms);
    writeFileSync(changedPath, `${original}// changed in round ${round}\n`);
    oneFile.push((await timed(snapshot)).ms);
    // The checkpoint taken before the change (the round's first).
    const target = store.list().at(-2);
    restore.push((await timed(() => core.restoreCheckpoint(project, target.id))).ms);
    if (!readFileSync(changedPath).equals(original))
      throw new Error('restore did not bring the file back');
  }
  console.log(`\nCheckpoints: ${files.toLocaleString('en')} files in ${tree}`);
  console.log(`${machine()}; load average ${load()}\n`);
  table(
    ['operation', 'toolhost', 'git add -A + write-tree', 'toolhost / git'],
    [
      [
        'first checkpoint (every file read)',
        ms(first.ms),
        ms(nativeFirst.ms),
        times(first.ms, nativeFirst.ms),
      ],
      [
        'checkpoint, nothing changed',
        ms(median(unchanged)),
        ms(median(nativeUnchanged)),
        times(median(unchanged), median(nativeUnchanged)),
      ],
      ['checkpoint, one file changed', ms(median(oneFile)), '-', '-'],
      ['restore one file (with its undo checkpoint)', ms(median(restore)), '-', '-'],
    ],
  );
} finally {
  writeFileSync(changedPath, original);
  rmSync(scratch, { recursive: true, force: true });
}
