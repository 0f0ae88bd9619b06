/**
 * The editor's unsaved buffers for read_file, when the editor offers `fs/read_text_file`:
 * read_file runs as always (the workspace policy, ignore rules, media, errors), and only
 * when it read a text file does the editor get asked for that file; if its buffer differs
 * from the file on disk, the model reads the buffer, marked as unsaved. Nothing outside
 * what read_file may read is ever asked for.
 */
import { readFileSync } from 'node:fs';
import type { AgentContext } from '@agentclientprotocol/sdk';
import { DEFAULT_LINE_LIMIT } from '@toolhost/core/files';
import type { ToolRegistry, ToolResult } from '@toolhost/core/tools';

interface ReadParams {
  absolute_path: string;
  offset?: number;
  limit?: number;
}

export function readUnsavedBuffers(
  registry: ToolRegistry,
  client: AgentContext,
  sessionId: string,
): void {
  const tool = registry.getRegisteredTool('read_file');
  if (!tool) return;
  // The registry holds one built-in per name, so this session's own read_file instance
  // is extended in place rather than replaced.
  const readFromDisk = tool.execute.bind(tool);
  tool.execute = async (params: ReadParams, signal, ...rest) => {
    const result = await readFromDisk(params, signal, ...rest);
    // Refused, failed, or an image/PDF: the editor's text buffers have nothing to add.
    if (result.error || typeof result.llmContent !== 'string') return result;
    const buffer = await editorText(client, sessionId, params.absolute_path, signal);
    if (buffer === undefined || sameText(buffer, diskText(params.absolute_path))) return result;
    return bufferWindow(buffer, params);
  };
}

async function editorText(
  client: AgentContext,
  sessionId: string,
  file: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  try {
    const answer = await client.request(
      'fs/read_text_file',
      { sessionId, path: file },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    return answer.content;
  } catch {
    // The editor could not (a file it does not know): the file on disk is the answer.
    return undefined;
  }
}

function diskText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Editors keep lines with `\n`: a file saved with `\r\n` is not an unsaved change. */
function sameText(buffer: string, disk: string | undefined): boolean {
  return disk !== undefined && buffer.replace(/\r\n/g, '\n') === disk.replace(/\r\n/g, '\n');
}

function bufferWindow(buffer: string, params: ReadParams): ToolResult {
  const lines = buffer.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const start = Math.min(params.offset ?? 0, lines.length);
  const end = Math.min(start + (params.limit ?? DEFAULT_LINE_LIMIT), lines.length);
  const range =
    start === 0 && end === lines.length
      ? `${lines.length} lines`
      : `lines ${start + 1}-${end} of ${lines.length}`;
  return {
    llmContent: `[${params.absolute_path} has unsaved changes in the editor: this is the editor's buffer (${range}), not yet the file on disk.]\n${lines.slice(start, end).join('\n')}`,
    returnDisplay: `Read ${range} of the editor's unsaved buffer`,
  };
}
