/**
 * `toolhost restore` run as a person runs it, after a real headless agent run against the
 * scripted model server changed a file: the list, the restore (files and conversation),
 * the session resuming from that point, and the messages for what cannot be done.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../core/src/agent/checkpoints/checkpoint-store.js';
import {
  type ModelServer,
  type Script,
  startModelServer,
} from '../../core/test/helpers/model-server.js';
import { hasTmux, startToolhostInTmux, tmuxSkipReason } from './helpers/tmux.js';
import { runCliAsync } from './run-cli.js';

let base: string;
let root: string;
let home: string;
let server: ModelServer | undefined;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-restore-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(base, { recursive: true, force: true });
});

async function withModel(script: Script) {
  server = await startModelServer(script);
  return {
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODEL: 'scripted-model',
  };
}

const toolhost = (args: string[], env: NodeJS.ProcessEnv = {}, cwd = root) =>
  runCliAsync(args, { cwd, home, env });

interface ListedCheckpoint {
  id: string;
  at: string;
  kind: string;
  tool_calls: { name: string; description: string }[];
  restoring?: string;
  session_id: string | null;
  files_changed: string[];
}

describe('toolhost restore', { timeout: 180_000 }, () => {
  it('brings back a file the agent overwrote and the conversation before it; the session resumes there', async () => {
    const notes = path.join(root, 'notes.txt');
    writeFileSync(notes, 'original notes\n');
    writeFileSync(path.join(root, '.gitignore'), 'build/\n');
    execFileSync('git', ['init', '-q'], { cwd: root });
    mkdirSync(path.join(root, 'build'));
    writeFileSync(path.join(root, 'build', 'out.js'), 'built\n');
    const env = await withModel((_request, index) => {
      const steps = [
        { toolCalls: [{ name: 'read_file', args: { absolute_path: notes } }] },
        {
          toolCalls: [
            { name: 'write_file', args: { file_path: notes, content: 'overwritten\n' } },
            {
              name: 'run_shell_command',
              args: {
                command: 'echo made > made.txt && echo rebuilt > build/out.js',
                is_background: false,
              },
            },
          ],
        },
        { text: 'Rewrote the notes.' },
      ];
      return steps[index] ?? { text: 'Resumed.' };
    });
    const run = await toolhost(['-p', 'rewrite the notes', '--yolo'], env);
    expect(run.stderr).toMatch(/✓ write_file/);
    expect(run.stderr).toMatch(/✓ run_shell_command/);
    expect(run.code).toBe(0);
    expect(readFileSync(notes, 'utf8')).toBe('overwritten\n');
    expect(existsSync(path.join(root, 'made.txt'))).toBe(true);

    const listed = await toolhost(['restore']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^Checkpoints of .*project, newest first:/);
    expect(listed.stdout).toMatch(
      /[0-9a-f]{8} {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}write_file: .*notes\.txt.*\(\+1 more call\)/,
    );
    expect(listed.stdout).toMatch(/2 files changed: (made\.txt, notes\.txt|notes\.txt, made\.txt)/);
    const [checkpoint] = JSON.parse(
      (await toolhost(['restore', '--json'])).stdout,
    ) as ListedCheckpoint[];
    expect(checkpoint).toMatchObject({
      kind: 'tool_calls',
      tool_calls: [{ name: 'write_file' }, { name: 'run_shell_command' }],
    });
    expect(checkpoint?.files_changed.sort()).toEqual(['made.txt', 'notes.txt']);
    const id = checkpoint?.id ?? '';

    // No terminal and no --yes: nothing changes.
    const unconfirmed = await toolhost(['restore', id]);
    expect(unconfirmed.code).toBe(3);
    expect(unconfirmed.stdout).toMatch(/rewrite +notes\.txt/);
    expect(unconfirmed.stdout).toMatch(/remove +made\.txt/);
    expect(unconfirmed.stderr).toMatch(/pass --yes/);
    expect(readFileSync(notes, 'utf8')).toBe('overwritten\n');

    const restored = await toolhost(['restore', id.slice(0, 6), '--yes']);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(readFileSync(notes, 'utf8')).toBe('original notes\n');
    expect(existsSync(path.join(root, 'made.txt'))).toBe(false);
    // Ignored output is not the checkpoint's to restore.
    expect(readFileSync(path.join(root, 'build', 'out.js'), 'utf8')).toBe('rebuilt\n');
    const sessionId = checkpoint?.session_id ?? '';
    expect(restored.stdout).toContain(`Session ${sessionId} now ends before those calls`);
    expect(restored.stdout).toContain('The prompt that led to them was: rewrite the notes');
    const undoId = /toolhost restore ([0-9a-f]{8})/.exec(restored.stdout)?.[1];
    expect(undoId).toBeDefined();

    // The checkpoint is in the middle of the turn (after the read): the session goes on from
    // before that turn's prompt, so the read, the overwrite and the answer are all gone.
    const resumed = await toolhost(['-r', sessionId, '-p', 'what is in the notes?', '--yolo'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Resumed.\n');
    const sent = server?.requests.at(-1)?.body.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(['system', 'user']);
    expect(sent[1]?.content).toBe('what is in the notes?');
    expect(JSON.stringify(sent)).not.toContain('overwritten');

    // The restore can itself be undone.
    const afterList = JSON.parse(
      (await toolhost(['restore', '--json'])).stdout,
    ) as ListedCheckpoint[];
    expect(afterList[0]).toMatchObject({ id: undoId, kind: 'restore', restoring: id });
    const undone = await toolhost(['restore', undoId ?? '', '--yes']);
    expect(undone.code).toBe(0);
    expect(readFileSync(notes, 'utf8')).toBe('overwritten\n');
    expect(readFileSync(path.join(root, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('says clearly when there is nothing to restore, the id is unknown, or the project moved', async () => {
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    const none = await toolhost(['restore']);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/There are no checkpoints for .*project\./);
    const noneToRestore = await toolhost(['restore', 'abc123', '--yes']);
    expect(noneToRestore.code).toBe(2);
    expect(noneToRestore.stderr).toMatch(/no checkpoints for .*project/);

    const env = await withModel((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              { name: 'write_file', args: { file_path: path.join(root, 'a.txt'), content: 'b' } },
            ],
          }
        : { text: 'ok' },
    );
    expect((await toolhost(['-p', 'change a', '--yolo'], env)).code).toBe(0);
    const unknown = await toolhost(['restore', 'ffffffff', '--yes']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No checkpoint "ffffffff".*toolhost restore lists them/);
    const notAnId = await toolhost(['restore', 'latest']);
    expect(notAnId.code).toBe(2);
    expect(notAnId.stderr).toMatch(/"latest" is not a checkpoint id/);
    const gone = await toolhost(['restore', '--root', path.join(base, 'nowhere')]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/nowhere is not a folder \(was the project moved\?\)/);

    const moved = path.join(base, 'elsewhere', 'project');
    mkdirSync(path.dirname(moved));
    execFileSync('mv', [root, moved]);
    // Moved: the checkpoints come along.
    const afterMove = await toolhost(['restore'], {}, moved);
    expect(afterMove.stdout).toContain(
      `This project was at ${root}; its checkpoints and sessions now belong to ${moved}.`,
    );
    expect(afterMove.stdout).toMatch(/write_file: .*a\.txt/);
    // Copied elsewhere and the original deleted: not the same folder, so it is only named.
    const copy = path.join(base, 'copied', 'project');
    mkdirSync(path.dirname(copy));
    execFileSync('cp', ['-r', moved, copy]);
    rmSync(moved, { recursive: true });
    const afterCopy = await toolhost(['restore'], {}, copy);
    expect(afterCopy.stdout).toContain(
      `There are no checkpoints for ${copy}. The agent takes one before each change it makes. Checkpoints are kept per folder, and there are some for ${moved}, which no longer exists`,
    );
  });

  it('takes no checkpoint when settings turn them off', async () => {
    mkdirSync(path.join(root, '.toolhost'));
    writeFileSync(
      path.join(root, '.toolhost', 'settings.json'),
      '{ "general": { "checkpointing": { "enabled": false } } }',
    );
    const env = await withModel((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              { name: 'write_file', args: { file_path: path.join(root, 'a.txt'), content: 'b' } },
            ],
          }
        : { text: 'ok' },
    );
    const run = await toolhost(['-p', 'write a', '--yolo'], env);
    expect(run.stderr).not.toMatch(/warning/);
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('b');
    expect((await toolhost(['restore'])).stdout).toMatch(/There are no checkpoints/);
  });

  it("keeps to the project's size limit for the undo checkpoint: a file grown past it is left, not overwritten", async () => {
    mkdirSync(path.join(root, '.toolhost'));
    writeFileSync(
      path.join(root, '.toolhost', 'settings.json'),
      '{ "general": { "checkpointing": { "maxFileSize": 4096 } } }',
    );
    const log = path.join(root, 'log.txt');
    writeFileSync(log, 'small\n');
    const env = await withModel((_request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'write_file', args: { file_path: log, content: 'agent\n' } }] }
        : { text: 'ok' },
    );
    expect((await toolhost(['-p', 'write the log', '--yolo'], env)).code).toBe(0);
    const [checkpoint] = JSON.parse(
      (await toolhost(['restore', '--json'])).stdout,
    ) as ListedCheckpoint[];
    // Grown past the project's limit (far below the 10 MiB default) after the checkpoint.
    const grown = 'x'.repeat(20_000);
    writeFileSync(log, grown);
    const preview = await toolhost(['restore', checkpoint?.id ?? ''], { TZ: 'Asia/Kolkata' });
    expect(preview.stdout).toContain('The files are as they were at this checkpoint.');
    // Shown in the machine's time zone (here UTC+5:30); the JSON keeps UTC.
    const local = new Date(Date.parse(checkpoint?.at ?? '') + 5.5 * 3600_000).toISOString();
    expect(preview.stdout).toContain(`taken ${local.replace('T', ' ').slice(0, 19)},`);
    expect(preview.stdout).toMatch(/Left as they are \(changed since.*\): log\.txt\n/);
    const restored = await toolhost(['restore', checkpoint?.id ?? '', '--yes']);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/0 files written back.*\n.*Left as they are .*: log\.txt/);
    expect(readFileSync(log, 'utf8')).toBe(grown);
  });

  it('a checkpoint that cannot be taken is reported and the batch does not run', async () => {
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    mkdirSync(path.join(home, '.toolhost'));
    writeFileSync(path.join(home, '.toolhost', 'history'), 'a file where the folder goes\n');
    const env = await withModel((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              { name: 'write_file', args: { file_path: path.join(root, 'a.txt'), content: 'b' } },
            ],
          }
        : { text: 'ok' },
    );
    const run = await toolhost(['-p', 'write a', '--yolo', '-o', 'json'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /toolhost: No checkpoint could be taken before write_file \(cannot create the checkpoint folder/,
    );
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a\n');
    const result = (JSON.parse(run.stdout) as { type: string; error?: string }[]).at(-1);
    expect(result?.error).toMatch(/general\.checkpointing\.onFailure/);
  });

  it.skipIf(!hasTmux)(`asks on a terminal before restoring${tmuxSkipReason}`, async () => {
    const file = path.join(root, 'a.txt');
    writeFileSync(file, 'before\n');
    const store = new CheckpointStore({
      userDir: path.join(home, '.toolhost'),
      projectRoot: root,
    });
    const { checkpoint } = await store.create({
      roots: [root],
      kind: 'tool_calls',
      toolCalls: [{ name: 'write_file', description: 'Writing to a.txt' }],
    });
    writeFileSync(file, 'after\n');
    const start = () =>
      startToolhostInTmux(['restore', checkpoint.id], {
        cwd: root,
        home,
        env: { NO_COLOR: '1' },
        columns: 120,
      });
    const declined = start();
    try {
      await declined.waitFor('Restore this checkpoint? [y/N]');
      declined.type('n');
      declined.press('Enter');
      expect(await declined.waitForExit()).toBe(0);
      expect(declined.screen()).toContain('Nothing was restored.');
      expect(readFileSync(file, 'utf8')).toBe('after\n');
    } finally {
      declined.close();
    }
    const accepted = start();
    try {
      const shown = await accepted.waitFor('Restore this checkpoint? [y/N]');
      expect(shown).toMatch(/rewrite +a\.txt/);
      accepted.type('y');
      accepted.press('Enter');
      expect(await accepted.waitForExit()).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe('before\n');
    } finally {
      accepted.close();
    }
  });
});
