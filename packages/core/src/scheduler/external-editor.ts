/**
 * The default `modify_with_editor` hook: opens the proposed content in the person's
 * editor ($VISUAL, $EDITOR, or the settings' `general.preferredEditor`) and returns what
 * they saved.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { shellQuote } from '../utils/lazy-libraries.js';
import type { EditProposal } from './tool-call-types.js';

export function resolveEditorCommand(preferred?: string, env = process.env): string[] {
  const command = preferred || env.VISUAL || env.EDITOR || 'vi';
  const words = shellQuote()
    .parse(command, env as Record<string, string>)
    .filter((word): word is string => typeof word === 'string');
  return words.length > 0 ? words : ['vi'];
}

/** Returns the edited text, or undefined when the editor failed or could not start. */
export async function editInExternalEditor(
  proposal: EditProposal,
  preferredEditor?: string,
): Promise<string | undefined> {
  const [program, ...args] = resolveEditorCommand(preferredEditor);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolhost-edit-'));
  const file = path.join(dir, path.basename(proposal.filePath) || 'proposal.txt');
  try {
    // Created, never opened through a link planted in the fresh folder meanwhile.
    await writeFile(file, proposal.proposedContent, { encoding: 'utf8', flag: 'wx' });
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(program!, [...args, file], { stdio: 'inherit' });
      child.on('error', () => resolve(null));
      child.on('exit', (code) => resolve(code));
    });
    if (exitCode !== 0) return undefined;
    return await readFile(file, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
