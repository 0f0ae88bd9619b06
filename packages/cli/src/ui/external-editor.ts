/**
 * "Edit in $EDITOR" from the approval dialog: the app lets go of the terminal (no key
 * reading, no redrawing), the editor runs in it, and the app takes it back. The editor is
 * run synchronously so that nothing in this process can read the keys meant for it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveEditorCommand } from '@toolhost/core/scheduler';
import type { EditProposal } from '@toolhost/core/tools';
import type { ConversationController } from './conversation-controller.js';

/** How long to wait for Ink to leave raw mode before the editor starts anyway. */
const RELEASE_TIMEOUT_MS = 2000;

export function editorForApp(
  controller: ConversationController,
  stdin: NodeJS.ReadStream,
  preferredEditor: string | undefined,
): (proposal: EditProposal) => Promise<string | undefined> {
  return (proposal) =>
    controller.whileSuspended(async () => {
      const deadline = Date.now() + RELEASE_TIMEOUT_MS;
      while (stdin.isRaw && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const [program, ...args] = resolveEditorCommand(preferredEditor);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'toolhost-edit-'));
      const file = path.join(dir, path.basename(proposal.filePath) || 'proposal.txt');
      try {
        writeFileSync(file, proposal.proposedContent, 'utf8');
        const result = spawnSync(program!, [...args, file], { stdio: 'inherit' });
        if (result.error || result.status !== 0) {
          controller.add({
            kind: 'message',
            level: 'warning',
            text: `The editor (${program}) ${result.error ? `could not start: ${result.error.message}` : `ended with code ${result.status}`}; the proposal is unchanged. Set $EDITOR or general.preferredEditor.`,
          });
          return undefined;
        }
        return readFileSync(file, 'utf8');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
}
