/**
 * What a sent line does, with real parts: `!` commands through run_shell_command and its
 * approvals (a real shell), `/` lines through the commands, MCP prompts from a real server
 * (server-everything), `/agents create` with the scripted model server. A prompt leaves
 * the dispatcher as typed: the conversation core attaches its `@` references (and MCP
 * resources) when its turn starts, for the terminal as for every front end.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type ConfirmationDecision,
  partsToText,
  ToolConfirmationOutcome,
  type WaitingToolCall,
} from '@toolhost/core';
import { attachReferences, withNoteBefore } from '@toolhost/core/conversation';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../core/test/helpers/mcp-servers.js';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { CommandCatalog } from '../src/ui/commands/command-catalog.js';
import { PromptDispatcher } from '../src/ui/input/prompt-dispatcher.js';
import {
  makeTestSession,
  type TestSession,
  type TestSessionOptions,
} from './helpers/command-context.js';

let session: TestSession | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await session?.close();
  await server?.close();
  session = undefined;
  server = undefined;
});

function setUp(options: TestSessionOptions = {}) {
  let catalog: CommandCatalog | undefined;
  const current = makeTestSession({ ...options, commands: () => catalog?.all() ?? [] });
  session = current;
  catalog = new CommandCatalog(current.config, current.registry);
  const sent: { prompt: string; shown: string }[] = [];
  const echoed: string[] = [];
  const dispatcher: PromptDispatcher = new PromptDispatcher({
    commandContext: () => ({
      ...current.context,
      submitPrompt: (prompt) => void dispatcher.sendPrompt(prompt),
    }),
    commands: () => catalog?.all() ?? [],
    runTool: current.runTool,
    echo: (line) => echoed.push(line),
    print: (text, kind = 'info') => current.printed.push({ text, kind }),
    // What the conversation core sends: the notes before the prompt (Conversation.send).
    sendToModel: (prompt, notes) => {
      const content = notes.length > 0 ? withNoteBefore(notes.join('\n\n'), prompt) : prompt;
      sent.push({
        prompt: typeof content === 'string' ? content : partsToText(content),
        shown: prompt,
      });
    },
    signal: () => new AbortController().signal,
  });
  return { session: current, dispatcher, sent, echoed };
}

describe('! shell lines', () => {
  it('run through run_shell_command once approved, and the model hears of them with the next prompt', async () => {
    const asked: string[] = [];
    const decide = async (call: WaitingToolCall): Promise<ConfirmationDecision> => {
      asked.push(String(call.request.args.command));
      return { outcome: ToolConfirmationOutcome.ProceedOnce };
    };
    const { session, dispatcher, sent, echoed } = setUp({ decide });
    await dispatcher.submit('!echo made > canary.txt && echo done-$((40+2))');
    expect(asked).toEqual(['echo made > canary.txt && echo done-$((40+2))']);
    expect(readFileSync(path.join(session.dirs.root, 'canary.txt'), 'utf8')).toBe('made\n');
    expect(echoed).toEqual(['!echo made > canary.txt && echo done-$((40+2))']);
    expect(sent).toEqual([]);
    await dispatcher.submit('why 42?');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.shown).toBe('why 42?');
    expect(sent[0]?.prompt).toMatch(
      /^The person ran this shell command in the terminal: `echo made/,
    );
    expect(sent[0]?.prompt).toContain('done-42');
    expect(sent[0]?.prompt.endsWith('\n\nwhy 42?')).toBe(true);
    await dispatcher.submit('and now?');
    expect(sent[1]?.prompt).toBe('and now?');
  });

  it('run nothing when the person declines', async () => {
    const decide = async (): Promise<ConfirmationDecision> => ({
      outcome: ToolConfirmationOutcome.Cancel,
    });
    const { session, dispatcher, sent } = setUp({ decide });
    await dispatcher.submit('!touch canary.txt');
    expect(existsSync(path.join(session.dirs.root, 'canary.txt'))).toBe(false);
    await dispatcher.submit('hello');
    expect(sent[0]?.prompt).toContain('It did not run (declined or cancelled).');
  });

  it('follow the approval mode: plan mode refuses a command that changes files', async () => {
    const { session, dispatcher } = setUp({
      decide: async () => ({ outcome: ToolConfirmationOutcome.ProceedOnce }),
    });
    session.config.setApprovalMode('plan');
    await dispatcher.submit('!touch canary.txt');
    expect(existsSync(path.join(session.dirs.root, 'canary.txt'))).toBe(false);
  });
});

describe('/ lines', () => {
  it('run their command, or answer an unknown one with the nearest name', async () => {
    const { session, dispatcher, sent, echoed } = setUp();
    await dispatcher.submit('/approval-mode auto-edit');
    expect(session.config.getApprovalMode()).toBe('auto-edit');
    await dispatcher.submit('/stast');
    expect(session.printed.at(-1)).toEqual({
      text: '/stast is not a command. Did you mean /stats? Type /help to see them all.',
      kind: 'error',
    });
    expect(echoed).toEqual(['/approval-mode auto-edit', '/stast']);
    expect(sent).toEqual([]);
  });

  it('send a user command with its arguments, its @ references left for the conversation', async () => {
    const { session, dispatcher, sent } = setUp();
    const dir = path.join(session.dirs.root, '.toolhost/commands/code');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'review.md'), 'Review @main.py with care for $ARGUMENTS.');
    writeFileSync(path.join(session.dirs.root, 'main.py'), 'print("hello")\n');
    await dispatcher.submit('/code:review error handling');
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]?.prompt).toBe('Review @main.py with care for error handling.');
  });
});

describe('MCP prompts and resources (server-everything)', () => {
  it('run a server prompt as /server:prompt and attach a resource with @server:uri', async () => {
    const { session, dispatcher, sent } = setUp({
      prepare: (dirs) => {
        mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
        writeFileSync(
          path.join(dirs.home, '.toolhost/settings.json'),
          JSON.stringify({
            mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
          }),
        );
      },
    });
    await session.registry.discoverAllTools();
    await dispatcher.submit('/everything:args-prompt Lisbon');
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]?.prompt).toContain('Lisbon');
    await dispatcher.submit('/everything:args-prompt');
    expect(session.printed.at(-1)?.text).toMatch(/needs city/);

    const resource = session.registry
      .getMcpServers()[0]
      ?.resources.find((item) => item.mimeType?.startsWith('text'));
    expect(resource).toBeDefined();
    await dispatcher.submit(`summarise @everything:${resource?.uri}`);
    await expect.poll(() => sent.length).toBe(2);
    expect(sent[1]?.prompt).toBe(`summarise @everything:${resource?.uri}`);
    // What the conversation does with it when its turn starts (Conversation.send).
    const attached = await attachReferences(sent[1]?.prompt ?? '', {
      config: session.config,
      registry: session.registry,
      runTool: session.runTool,
      signal: new AbortController().signal,
    });
    expect(partsToText(attached.content)).toContain(
      `--- Content from MCP resource everything:${resource?.uri} ---`,
    );
  }, 60_000);
});

describe('/agents create', () => {
  it('writes a subagent file the session can load, from the model’s draft', async () => {
    server = await startModelServer([
      {
        text: JSON.stringify({
          name: 'Test Writer',
          description: 'Writes unit tests for a given module.',
          tools: ['read_file', 'write_file', 'no_such_tool'],
          instructions: 'You write focused unit tests. Read the module first.',
        }),
      },
    ]);
    const { session, dispatcher } = setUp({ baseUrl: server.baseUrl });
    await dispatcher.submit('/agents create a subagent that writes unit tests');
    const file = path.join(session.dirs.root, '.toolhost/agents/test-writer.md');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(
      /^---\nname: test-writer\ndescription: Writes unit tests for a given module\.\ntools:\n {2}- read_file\n {2}- write_file\n---\n/,
    );
    expect(text).toContain('You write focused unit tests.');
    expect(server.requests[0]?.body.messages.at(-1)?.content).toContain('writes unit tests');
    await dispatcher.submit('/agents');
    expect(session.output()).toContain('**test-writer**');
    await dispatcher.submit('/agents create another one');
    expect(session.printed.at(-1)?.kind).toBe('error');
  });
});

describe('user commands with !{} blocks', () => {
  it('run the block once approved, with the arguments quoted for the shell, and send its output', async () => {
    const asked: string[] = [];
    const { session, dispatcher, sent } = setUp({
      decide: async (call) => {
        asked.push(String(call.request.args.command));
        return { outcome: ToolConfirmationOutcome.ProceedOnce };
      },
    });
    const dir = path.join(session.dirs.root, '.toolhost/commands');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'note.md'),
      'Saved: !{printf "%s" $ARGUMENTS > note.txt && wc -c < note.txt}. Explain.',
    );
    await dispatcher.submit("/note it's; touch canary");
    expect(asked).toEqual([`printf "%s" 'it'\\''s; touch canary' > note.txt && wc -c < note.txt`]);
    expect(readFileSync(path.join(session.dirs.root, 'note.txt'), 'utf8')).toBe(
      "it's; touch canary",
    );
    expect(existsSync(path.join(session.dirs.root, 'canary'))).toBe(false);
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]?.prompt).toMatch(/^Saved: [\s\S]*18[\s\S]*\. Explain\.$/);
  });

  it('send nothing when the block is declined', async () => {
    const { session, dispatcher, sent } = setUp({
      decide: async () => ({ outcome: ToolConfirmationOutcome.Cancel }),
    });
    const dir = path.join(session.dirs.root, '.toolhost/commands');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'status.md'), 'Status: !{touch canary}');
    await dispatcher.submit('/status');
    expect(sent).toEqual([]);
    expect(existsSync(path.join(session.dirs.root, 'canary'))).toBe(false);
    expect(session.printed.at(-1)).toMatchObject({ kind: 'error' });
  });
});
