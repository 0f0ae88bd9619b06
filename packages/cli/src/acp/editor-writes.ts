/**
 * Changes shown in the editor, when it offers `fs/write_text_file`: write_file and edit run
 * as always (the workspace policy, the checkpoint and the approval before, the atomic
 * write with the file's encoding and line endings), and once a change is on disk the editor
 * is handed the file's new text, so its buffer holds the change instead of an outdated copy
 * (Zed shows it in its review of the agent's edits). Files the editor could not hold as
 * they are (not UTF-8, or with a byte order mark it might not keep) are left to the disk.
 */
import { readFileSync } from 'node:fs';
import type { AgentContext } from '@agentclientprotocol/sdk';
import type { ToolRegistry } from '@toolhost/core/tools';

const WRITING_TOOLS = ['write_file', 'edit'];

export function showWritesInEditor(
  registry: ToolRegistry,
  client: AgentContext,
  sessionId: string,
  warn: (line: string) => void,
): void {
  for (const name of WRITING_TOOLS) {
    const tool = registry.getRegisteredTool(name);
    if (!tool) continue;
    // One built-in per name in the registry: this session's instance is extended in place.
    const writeOnDisk = tool.execute.bind(tool);
    tool.execute = async (params: { file_path: string }, signal, ...rest) => {
      const result = await writeOnDisk(params, signal, ...rest);
      if (result.error) return result;
      const content = plainText(params.file_path);
      if (content === undefined) return result;
      try {
        await client.request(
          'fs/write_text_file',
          { sessionId, path: params.file_path, content },
          { cancellationSignal: signal, stopWaitingOnCancel: true },
        );
      } catch (error) {
        // The change is on disk either way; only the editor's copy may lag behind.
        warn(
          `the editor did not take the change to ${params.file_path}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return result;
    };
  }
}

/** The file's text when it is UTF-8 without a byte order mark; undefined otherwise. */
function plainText(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
