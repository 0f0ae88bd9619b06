/**
 * `toolhost --acp` with an editor that offers more: its file system for writes (the editor
 * gets each change once toolhost made it, never one it refused), and form elicitation (an
 * MCP server's question reaches the editor, its answer the server); an editor that offers
 * no elicitation gets no question and the server a decline.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sdkServerScript } from '../../core/test/helpers/mcp-servers.js';
import type { Script } from '../../core/test/helpers/model-server.js';
import {
  type Editor,
  type EditorOptions,
  initialize,
  newSession,
  pick,
  prompt,
} from './helpers/acp-editor.js';
import { acpProject } from './helpers/acp-project.js';

const f = acpProject();

async function open(script: Script, options: Partial<EditorOptions>): Promise<Editor> {
  return f.startEditorWith(await f.modelEnv(script), options);
}

const ASKING_SERVER = sdkServerScript(`
const server = new McpServer({ name: 'asking', version: '1.0.0' });
server.registerTool('register', { description: 'Registers the person' }, async () => {
  const answer = await server.server.elicitInput({
    message: 'Who is registering?',
    requestedSchema: {
      type: 'object',
      properties: { name: { type: 'string', title: 'Name' } },
      required: ['name'],
    },
  });
  return { content: [{ type: 'text', text: 'server got ' + JSON.stringify(answer) }] };
});
await server.connect(new StdioServerTransport());
`);

function toolResult(index: number): string {
  const messages = f.server?.requests[index]?.body.messages ?? [];
  return String(messages.filter((message) => message.role === 'tool').at(-1)?.content);
}

describe('toolhost --acp with the editor’s file system and questions', { timeout: 150_000 }, () => {
  it('writes reach the editor after toolhost made them; refused ones never do', async () => {
    const made = path.join(f.dirs.root, 'made.txt');
    const edited = path.join(f.dirs.root, 'edited.ts');
    const declined = path.join(f.dirs.root, 'declined.txt');
    const outside = path.join(f.dirs.base, 'outside.txt');
    const withBom = path.join(f.dirs.root, 'bom.ts');
    writeFileSync(edited, 'const colour = "red";\n');
    writeFileSync(withBom, '\uFEFFconst size = 1;\n');
    const editor = await open(
      [
        {
          toolCalls: [
            { id: 'call_made', name: 'write_file', args: { file_path: made, content: 'made\n' } },
            { id: 'call_read', name: 'read_file', args: { absolute_path: edited } },
            { id: 'call_read_bom', name: 'read_file', args: { absolute_path: withBom } },
          ],
        },
        {
          toolCalls: [
            {
              id: 'call_edit',
              name: 'edit',
              args: { file_path: edited, old_string: 'red', new_string: 'blue' },
            },
            {
              id: 'call_bom',
              name: 'edit',
              args: { file_path: withBom, old_string: 'size = 1', new_string: 'size = 2' },
            },
            { id: 'call_no', name: 'write_file', args: { file_path: declined, content: 'no\n' } },
            { id: 'call_out', name: 'write_file', args: { file_path: outside, content: 'out\n' } },
          ],
        },
        { text: 'Done.' },
      ],
      {
        writes: true,
        answer: (request) => {
          const declining = JSON.stringify(request.toolCall).includes('declined.txt');
          return pick(declining ? 'reject_once' : 'allow_once')(request);
        },
      },
    );
    const { sessionId } = await newSession(editor);
    expect((await prompt(editor, sessionId, 'Make the changes.')).stopReason).toBe('end_turn');
    expect(readFileSync(made, 'utf8')).toBe('made\n');
    expect(readFileSync(edited, 'utf8')).toBe('const colour = "blue";\n');
    // The byte order mark is kept on disk; the editor, which might drop it, is not handed it.
    expect(readFileSync(withBom, 'utf8')).toBe('\uFEFFconst size = 2;\n');
    expect(editor.writes).toEqual([
      { sessionId, path: made, content: 'made\n' },
      { sessionId, path: edited, content: 'const colour = "blue";\n' },
    ]);
  });

  it("an MCP server's question goes to the editor and its answer to the server", async () => {
    const script = path.join(f.dirs.home, 'asking.mjs');
    writeFileSync(script, ASKING_SERVER);
    const editor = await open(
      [{ toolCalls: [{ id: 'call_register', name: 'register', args: {} }] }, { text: 'Done.' }],
      {
        answer: pick('allow_once'),
        elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
      },
    );
    await initialize(editor);
    const { sessionId } = await editor.connection.agent.request('session/new', {
      cwd: f.dirs.root,
      mcpServers: [{ name: 'asking', command: process.execPath, args: [script], env: [] }],
    });
    expect((await prompt(editor, sessionId, 'Register me.')).stopReason).toBe('end_turn');
    expect(editor.questions).toEqual([
      expect.objectContaining({
        sessionId,
        toolCallId: 'call_register',
        mode: 'form',
        message: 'Who is registering?',
        requestedSchema: expect.objectContaining({ required: ['name'] }),
      }),
    ]);
    expect(toolResult(1)).toContain('server got {"action":"accept","content":{"name":"Ada"}}');
  });

  it('an editor without elicitation: the server is declined and the log says why', async () => {
    const script = path.join(f.dirs.home, 'asking.mjs');
    writeFileSync(script, ASKING_SERVER);
    const editor = await open(
      [{ toolCalls: [{ id: 'call_register', name: 'register', args: {} }] }, { text: 'Done.' }],
      { answer: pick('allow_once') },
    );
    await initialize(editor);
    const { sessionId } = await editor.connection.agent.request('session/new', {
      cwd: f.dirs.root,
      mcpServers: [{ name: 'asking', command: process.execPath, args: [script], env: [] }],
    });
    expect((await prompt(editor, sessionId, 'Register me.')).stopReason).toBe('end_turn');
    expect(editor.questions).toEqual([]);
    expect(toolResult(1)).toContain('server got {"action":"decline"}');
    expect(editor.stderr()).toContain('asked a question ("Who is registering?")');
  });
});
