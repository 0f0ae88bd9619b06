/**
 * /diff: what this session changed in the files, as unified diffs: each file as the
 * session's first checkpoint holds it (taken before the agent's first change) against the
 * file now. A session without checkpoints says why there is nothing to show.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  checkpointFileContent,
  checkpointRestorePreview,
  listCheckpoints,
} from '@toolhost/core/conversation';
import { makeFileDiff } from '@toolhost/core/files';
import { plural } from '@toolhost/core/utils';
import type { SlashCommand } from '../command-types.js';
import { projectOf } from './restore-slash-command.js';

/** Diff lines shown per file before the rest is counted. */
const MAX_LINES = 120;

function readNow(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

export const diffCommand: SlashCommand = {
  name: 'diff',
  description: 'Show what this session changed in the files (from its checkpoints)',
  source: 'built-in',
  takesArguments: false,
  async run(context) {
    const { config } = context;
    if (config.settings.general?.checkpointing?.enabled === false) {
      context.print(
        'Checkpoints are off (general.checkpointing.enabled), so this session kept no record of the files before its changes; `git diff` shows what changed since your last commit.',
      );
      return;
    }
    const project = projectOf(context);
    const first = listCheckpoints(project, { sessionId: config.sessionId }).at(-1);
    if (!first) {
      context.print('This session has changed no files yet.');
      return;
    }
    // The preview says what a restore would do; the session's change is the other way.
    const changes = await checkpointRestorePreview(project, first);
    if (changes.length === 0) {
      context.print('The files are as they were before this session changed them.');
      return;
    }
    const blocks: string[] = [];
    for (const change of changes) {
      const name = path.relative(config.targetDir, change.file) || change.file;
      const before =
        change.status === 'D' ? null : await checkpointFileContent(project, first, change.file);
      const after = change.status === 'A' ? '' : (readNow(change.file) ?? '');
      const what =
        change.status === 'D' ? 'created' : change.status === 'A' ? 'deleted' : 'changed';
      const diff = makeFileDiff(name, before ?? null, after, change.file, 'applied');
      const lines = diff.fileDiff.replace(/\n$/, '').split('\n');
      const shown = lines.slice(0, MAX_LINES);
      const more = lines.length - shown.length;
      blocks.push(
        `**${name}** ${what} (+${diff.diffStat.linesAdded} -${diff.diffStat.linesRemoved})\n\`\`\`diff\n${shown.join('\n')}\n\`\`\`${more > 0 ? `\n… ${plural(more, 'more line')}` : ''}`,
      );
    }
    context.print(
      `**This session changed ${plural(changes.length, 'file')}** (since checkpoint ${first.id}, before its first change)\n\n${blocks.join('\n\n')}`,
    );
  },
};
