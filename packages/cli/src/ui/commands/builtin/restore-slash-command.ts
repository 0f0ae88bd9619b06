/**
 * The slash command /restore (alias /rewind; `toolhost restore` is commands/restore-command.ts):
 * the checkpoints taken before the agent changed files, newest first, and restoring one:
 * the files as they were, the conversation back to that point (the prompt that led to the
 * changes offered again), and an undo checkpoint of the state before.
 */
import path from 'node:path';
import type { Checkpoint, CheckpointRestore } from '@toolhost/core/conversation';
import {
  type CheckpointProject,
  checkpointChangedFiles,
  checkpointProjectOf,
  describeCheckpoint,
  listCheckpoints,
} from '@toolhost/core/conversation';
import { plural } from '@toolhost/core/utils';
import type { CommandContext, SlashCommand } from '../command-types.js';

const LISTED = 20;
/** Changed files are looked up (one git command each) for the newest few only. */
const WITH_FILES = 8;

export function projectOf(context: CommandContext): CheckpointProject {
  return checkpointProjectOf(context.config);
}

export const restoreSlashCommand: SlashCommand = {
  name: 'restore',
  aliases: ['rewind'],
  description: 'List checkpoints, or bring back the files and conversation of one',
  argumentHint: '[checkpoint id | --all]',
  source: 'built-in',
  takesArguments: true,
  async run(context, args) {
    const wanted = args.trim();
    if (!wanted || wanted === '--all') return list(context, wanted === '--all');
    await restore(context, wanted);
  },
  completeArguments(context, args) {
    return listCheckpoints(projectOf(context), { sessionId: context.config.sessionId })
      .filter((checkpoint) => checkpoint.id.startsWith(args.trim()))
      .slice(0, 10)
      .map((checkpoint) => ({ value: checkpoint.id, description: describeCheckpoint(checkpoint) }));
  },
};

async function list(context: CommandContext, all: boolean): Promise<void> {
  const project = projectOf(context);
  const checkpoints = listCheckpoints(project, all ? {} : { sessionId: context.config.sessionId });
  if (checkpoints.length === 0) {
    context.print(
      all
        ? 'This project has no checkpoints yet: one is taken before each batch of calls that may change files.'
        : 'No checkpoints in this session yet: one is taken before each batch of calls that may change files. /restore --all lists the whole project’s.',
    );
    return;
  }
  const lines = await Promise.all(
    checkpoints.slice(0, LISTED).map(async (checkpoint, index) => {
      const files = index < WITH_FILES ? await changedFiles(context, checkpoint) : '';
      return `- \`${checkpoint.id}\` ${new Date(checkpoint.at).toLocaleTimeString()}: ${describeCheckpoint(checkpoint)}${files}`;
    }),
  );
  const more =
    checkpoints.length > LISTED ? `\n(${checkpoints.length - LISTED} older not shown)` : '';
  context.print(
    `**Checkpoints**${all ? ' of this project' : ''} (newest first; bring one back with \`/restore <id>\`)\n${lines.join('\n')}${more}`,
  );
}

async function changedFiles(context: CommandContext, checkpoint: Checkpoint): Promise<string> {
  try {
    const files = await checkpointChangedFiles(projectOf(context), checkpoint);
    if (files.length === 0) return '';
    const shown = files.slice(0, 4).map((file) => relative(context, file));
    return `\n  changed since: ${shown.join(', ')}${files.length > 4 ? ` and ${files.length - 4} more` : ''}`;
  } catch {
    return '';
  }
}

async function restore(context: CommandContext, id: string): Promise<void> {
  let result: CheckpointRestore;
  try {
    result = await context.restoreCheckpoint(id);
  } catch (error) {
    context.print((error as Error).message, 'error');
    return;
  }
  const { files, conversation, undo } = result;
  const lines = [
    `Restored checkpoint \`${result.checkpoint.id}\` (${describeCheckpoint(result.checkpoint)}).`,
  ];
  const changed = [
    ...files.written.map((file) => `- brought back \`${relative(context, file)}\``),
    ...files.removed.map((file) => `- removed \`${relative(context, file)}\` (created later)`),
  ];
  lines.push(changed.length > 0 ? changed.join('\n') : 'The files were already as they were then.');
  if (conversation && conversation.sessionId === context.config.sessionId) {
    // The conversation went back with the files (Conversation.restoreCheckpoint).
    const forgotten = `${plural(conversation.removedMessages, 'message')} after it forgotten by the model`;
    lines.push(
      conversation.prompt
        ? `The conversation is back to before the prompt that led to the changes (${forgotten}); the prompt is in the input to send again.`
        : `The conversation is back to that point (${forgotten}).`,
    );
    if (conversation.prompt) context.setPromptText(conversation.prompt);
  } else if (conversation) {
    lines.push(
      `Session ${conversation.sessionId}'s conversation was rewound too; continue it with /resume ${conversation.sessionId}.`,
    );
  } else if (result.conversationNote) {
    lines.push(result.conversationNote);
  }
  lines.push(`To undo this restore: \`/restore ${undo.id}\``);
  context.print(lines.join('\n'));
}

function relative(context: CommandContext, file: string): string {
  const inProject = path.relative(context.config.targetDir, file);
  return inProject.startsWith('..') ? file : inProject;
}
