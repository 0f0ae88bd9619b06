/**
 * `toolhost restore`: lists the project's checkpoints (newest first, with the calls that
 * followed each and the files they changed), or restores one: the files, and the
 * conversation of its session, back to that point. Restoring asks on a terminal; scripts
 * pass --yes.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { userSettingsDir } from '@toolhost/core/config';
import {
  type Checkpoint,
  CheckpointError,
  CheckpointStore,
  checkpointChangedFiles,
  checkpointLimits,
  checkpointRestorePreview,
  describeCheckpoint,
  describeSkipped,
  listCheckpoints,
  restoreCheckpoint,
  sessionFile,
} from '@toolhost/core/files';
import { plural, visibleText } from '@toolhost/core/utils';
import { ExitCode, UsageError } from '../errors.js';
import { localDateTime } from '../local-time.js';
import { projectSettings } from '../workspace-tools.js';

export interface RestoreOptions {
  root?: string;
  yes?: boolean;
  json?: boolean;
  session?: string;
  all?: boolean;
}

interface RestoreIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

const LISTED = 20;
const FILES_SHOWN = 3;

export async function runRestoreCommand(
  id: string | undefined,
  options: RestoreOptions,
  io: RestoreIo,
): Promise<number> {
  const projectRoot = projectFolder(options.root);
  // The project's size limit holds for every snapshot made here (the preview's and the
  // undo checkpoint's), as it does for the agent's.
  const settings = projectSettings(projectRoot, (line) =>
    io.stderr.write(`toolhost: ${visibleText(line, { multiline: true })}\n`),
  );
  const project = { userDir: userSettingsDir(), projectRoot, ...checkpointLimits(settings) };
  if (id === undefined) return listCommand(project, options, io);
  if (!/^[0-9a-f]{1,40}$/i.test(id)) {
    throw new UsageError(
      `"${id}" is not a checkpoint id (ids are hexadecimal, like 3f2a91c0); toolhost restore lists them.`,
    );
  }
  const found = new CheckpointStore(project).find(id.toLowerCase());
  if (typeof found === 'string') throw new UsageError(withMovedHint(found, project));
  const preview = await checkpointRestorePreview(project, found);
  // A repository's file names may hold control characters: shown escaped in the question.
  const relative = (file: string) => visibleText(path.relative(projectRoot, file) || file);
  io.stdout.write(
    `Checkpoint ${found.id}, taken ${when(found)}, before ${visibleText(describeCheckpoint(found))}\n`,
  );
  const changes = preview.filter((change) => change.status !== 'L');
  const left = preview.filter((change) => change.status === 'L');
  if (changes.length === 0) {
    io.stdout.write('The files are as they were at this checkpoint.\n');
  } else {
    io.stdout.write(`Restoring it changes ${plural(changes.length, 'file')}:\n`);
    const verbs: Record<string, string> = { A: 'bring back', D: 'remove' };
    for (const change of changes.slice(0, 50)) {
      io.stdout.write(
        `  ${(verbs[change.status] ?? 'rewrite').padEnd(10)} ${relative(change.file)}\n`,
      );
    }
    if (changes.length > 50) io.stdout.write(`  … and ${changes.length - 50} more\n`);
  }
  if (left.length > 0) {
    io.stdout.write(
      `Left as they are (changed since, and now over general.checkpointing.maxFileSize, so the undo checkpoint could not keep them): ${left.map((change) => relative(change.file)).join(', ')}\n`,
    );
  }
  if (found.skipped?.length) {
    io.stdout.write(
      `Left out of this checkpoint, so not brought back: ${visibleText(found.skipped.map((skipped) => describeSkipped(skipped, projectRoot)).join(', '))}\n`,
    );
  }
  if (found.sessionId && existsSync(sessionFile(project.userDir, projectRoot, found.sessionId))) {
    io.stdout.write(
      `The conversation of session ${found.sessionId} goes back to this point too.\n`,
    );
  }
  if (!options.yes) {
    if (!io.stdin.isTTY) {
      io.stderr.write(
        'toolhost: restoring changes files and the conversation; pass --yes to confirm (standard input is not a terminal).\n',
      );
      return ExitCode.NeedsConfirmation;
    }
    if (!(await askYesNo('Restore this checkpoint? [y/N] ', io))) {
      io.stdout.write('Nothing was restored.\n');
      return ExitCode.Success;
    }
  }
  let restored: Awaited<ReturnType<typeof restoreCheckpoint>>;
  try {
    restored = await restoreCheckpoint(project, found);
  } catch (error) {
    if (error instanceof CheckpointError) {
      io.stderr.write(`toolhost: checkpoint ${found.id} was not restored: ${error.message}\n`);
      return ExitCode.Failed;
    }
    throw error;
  }
  const { files, conversation } = restored;
  io.stdout.write(
    `Restored checkpoint ${found.id}: ${plural(files.written.length, 'file')} written back, ${plural(files.removed.length, 'file')} removed.\n`,
  );
  if (files.left.length > 0) {
    io.stdout.write(
      `Left as they are (too large or unreadable, so the undo checkpoint could not keep them): ${files.left.map(relative).join(', ')}\n`,
    );
  }
  if (conversation) {
    io.stdout.write(
      `Session ${conversation.sessionId} now ends before those calls (${plural(conversation.removedMessages, 'message')} removed); continue it with: toolhost -r ${conversation.sessionId} -p "<prompt>"\n`,
    );
    if (conversation.prompt) {
      io.stdout.write(
        `The prompt that led to them was: ${visibleText(oneLine(conversation.prompt))}\n`,
      );
    }
  } else if (restored.conversationNote) {
    io.stdout.write(`${restored.conversationNote}\n`);
  }
  io.stdout.write(`To undo this restore: toolhost restore ${restored.undo.id}\n`);
  return ExitCode.Success;
}

async function listCommand(
  project: { userDir: string; projectRoot: string },
  options: RestoreOptions,
  io: RestoreIo,
): Promise<number> {
  // Opening the store brings a moved project's history along (see the core's moved-project).
  const adoptedFrom = new CheckpointStore(project).adoptedFrom;
  if (adoptedFrom && !options.json) {
    io.stdout.write(
      `This project was at ${adoptedFrom}; its checkpoints and sessions now belong to ${project.projectRoot}.\n`,
    );
  }
  const all = listCheckpoints(project, options.session ? { sessionId: options.session } : {});
  const shown = options.all ? all : all.slice(0, LISTED);
  const withFiles: { checkpoint: Checkpoint; files: string[] }[] = [];
  for (const checkpoint of shown) {
    withFiles.push({ checkpoint, files: await checkpointChangedFiles(project, checkpoint) });
  }
  const relative = (file: string) => visibleText(path.relative(project.projectRoot, file) || file);
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify(
        withFiles.map(({ checkpoint, files }) => ({
          id: checkpoint.id,
          at: checkpoint.at,
          kind: checkpoint.kind,
          tool_calls: checkpoint.toolCalls,
          subagent: checkpoint.subagent ?? null,
          ...(checkpoint.restoring ? { restoring: checkpoint.restoring } : {}),
          session_id: checkpoint.sessionId ?? null,
          message_index: checkpoint.messageIndex ?? null,
          files_changed: files.map(relative),
        })),
        null,
        2,
      )}\n`,
    );
    return ExitCode.Success;
  }
  if (all.length === 0) {
    const none = options.session
      ? `There are no checkpoints of session ${options.session} in ${project.projectRoot}.`
      : `There are no checkpoints for ${project.projectRoot}. The agent takes one before each change it makes.`;
    io.stdout.write(`${withMovedHint(none, project)}\n`);
    return ExitCode.Success;
  }
  io.stdout.write(`Checkpoints of ${project.projectRoot}, newest first:\n`);
  for (const { checkpoint, files } of withFiles) {
    const names = files.slice(0, FILES_SHOWN).map(relative).join(', ');
    const more = files.length > FILES_SHOWN ? `, +${files.length - FILES_SHOWN} more` : '';
    io.stdout.write(
      `${checkpoint.id}  ${when(checkpoint)}  ${visibleText(oneLine(describeCheckpoint(checkpoint)))}\n${' '.repeat(10)}${files.length === 0 ? 'no files changed since' : `${plural(files.length, 'file')} changed: ${names}${more}`}\n`,
    );
  }
  if (all.length > shown.length) {
    io.stdout.write(`(${all.length - shown.length} older ones not shown; --all lists them)\n`);
  }
  io.stdout.write('\nRestore one (files and conversation) with: toolhost restore <id>\n');
  return ExitCode.Success;
}

function projectFolder(root: string | undefined): string {
  const folder = path.resolve(root ?? '.');
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(
      `${folder} is not a folder (was the project moved?); run toolhost restore in the project, or pass --root <dir>.`,
    );
  }
  // The same real path the agent's workspace uses, so a symlinked folder finds its checkpoints.
  return realpathSync.native(folder);
}

/** Adds where the checkpoints are when the project seems to have moved here. */
function withMovedHint(message: string, project: { userDir: string; projectRoot: string }) {
  const moved = new CheckpointStore(project).movedFrom();
  if (moved.length === 0 || !/no checkpoints/i.test(message)) return message;
  return `${message} Checkpoints are kept per folder, and there are some for ${moved.join(', ')}, which no longer exists: if the project was moved from there, move it back to restore them.`;
}

async function askYesNo(question: string, io: RestoreIo): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

function when(checkpoint: Checkpoint): string {
  return localDateTime(new Date(checkpoint.at), { seconds: true });
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
