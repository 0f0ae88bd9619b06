import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SessionRecorder, sessionFile } from '@toolhost/core/conversation';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestSession, type TestSession } from '../../../../test/helpers/command-context.js';
import { BUILTIN_COMMAND_NAMES, slashCommandNames } from '../../../conversation/command-names.js';
import { BUILTIN_COMMANDS, CommandCatalog } from '../command-catalog.js';
import { parseSlashLine } from '../command-line.js';

let session: TestSession;
let catalog: CommandCatalog;

beforeEach(() => {
  session = makeTestSession({ commands: () => catalog.all() });
  catalog = new CommandCatalog(session.config, session.registry);
});
afterEach(() => session.close());

async function run(line: string): Promise<string> {
  const parsed = parseSlashLine(line, catalog.all());
  if (parsed.type !== 'command') throw new Error(`${line} is not a command here`);
  const before = session.printed.length;
  await parsed.command.run(session.context, parsed.args);
  return session.printed
    .slice(before)
    .map((entry) => entry.text)
    .join('\n');
}

describe('built-in commands', () => {
  it('are named, with their aliases and in their order, where front ends list them without loading them', () => {
    expect(
      BUILTIN_COMMANDS.map(({ name, aliases }) => ({ name, ...(aliases ? { aliases } : {}) })),
    ).toEqual(BUILTIN_COMMAND_NAMES);
    // stream-json's init lists what the terminal's catalog offers, user commands included.
    mkdirSync(path.join(session.dirs.root, '.toolhost/commands'), { recursive: true });
    writeFileSync(path.join(session.dirs.root, '.toolhost/commands/ship.md'), 'Ship it');
    writeFileSync(path.join(session.dirs.root, '.toolhost/commands/exit.md'), 'Taken by /quit');
    catalog = new CommandCatalog(session.config, session.registry);
    const names = catalog.all().map((command) => command.name);
    expect(slashCommandNames(session.config, session.registry)).toEqual(names);
    expect(names).toContain('ship');
    expect(names).not.toContain('exit');
  });

  it('/help lists every command, the user commands in their own section, and the keys', async () => {
    const dir = path.join(session.dirs.root, '.toolhost/commands');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'review.md'),
      '---\ndescription: Review the change\n---\nReview $ARGUMENTS',
    );
    catalog = new CommandCatalog(session.config, session.registry);
    const help = await run('/help');
    for (const command of BUILTIN_COMMANDS) expect(help).toContain(`/${command.name}`);
    expect(help).toContain("**This project's commands**\n- `/review`: Review the change");
    expect(help).toContain('Ctrl+R');
    expect(help).toContain('(also /exit)');
  });

  it('/approval-mode shows the modes and sets one, yolo included; a wrong one is explained', async () => {
    expect(await run('/approval-mode')).toContain('**Approval mode**: default');
    await run('/approval-mode yolo');
    expect(session.config.getApprovalMode()).toBe('yolo');
    await run('/approval-mode plan');
    expect(session.config.getApprovalMode()).toBe('plan');
    expect(await run('/approval-mode fast')).toBe(
      '"fast" is not an approval mode; use one of plan, default, auto-edit, yolo.',
    );
    expect(session.config.getApprovalMode()).toBe('plan');
  });

  it('/memory add writes the project memory file, show reads it, and the model gets it', async () => {
    expect(await run('/memory show')).toContain('There is no memory yet.');
    await run('/memory add Tests run with npm test');
    const file = path.join(session.dirs.root, 'AGENTS.md');
    expect(readFileSync(file, 'utf8')).toContain('Tests run with npm test');
    expect(session.agent.systemPrompt).toContain('Tests run with npm test');
    expect(await run('/memory')).toContain('Tests run with npm test');
    await run('/memory add --global I prefer short answers');
    expect(readFileSync(path.join(session.dirs.home, '.toolhost/AGENTS.md'), 'utf8')).toContain(
      'I prefer short answers',
    );
  });

  it('/memory refresh reads files edited by hand', async () => {
    writeFileSync(path.join(session.dirs.root, 'AGENTS.md'), '# Project\nUse tabs, not spaces.\n');
    expect(session.agent.systemPrompt).not.toContain('Use tabs');
    expect(await run('/memory refresh')).toContain('AGENTS.md');
    expect(session.agent.systemPrompt).toContain('Use tabs, not spaces.');
    expect(await run('/memory forget')).toMatch(/not a subcommand/);
  });

  it('/tools lists the active tools; desc adds descriptions', async () => {
    const plain = await run('/tools');
    expect(plain).toContain('**Built-in**');
    expect(plain).toContain('`read_file`');
    expect(plain).not.toContain('Reads');
    const described = await run('/tools desc');
    expect(described.length).toBeGreaterThan(plain.length);
  });

  it('/mcp says how to add servers when there are none', async () => {
    expect(await run('/mcp')).toContain('No MCP servers are configured');
  });

  it('/stats shows time, tokens and tool calls', async () => {
    session.agent.usage.add({ inputTokens: 1200, outputTokens: 340 });
    const stats = await run('/stats');
    expect(stats).toContain('Time: 1m 5s');
    expect(stats).toContain('Tokens: 1,200 in, 340 out, 1,540 in all');
    expect(stats).toContain('Tool calls: 4 (3 succeeded, 1 failed, 0 cancelled or declined)');
    expect(stats).toContain('test-model (1 request)');
  });

  it('/init asks the model to write AGENTS.md, and leaves an existing one alone', async () => {
    await run('/init');
    expect(session.submitted).toHaveLength(1);
    expect(session.submitted[0]).toContain('write AGENTS.md');
    writeFileSync(path.join(session.dirs.root, 'AGENTS.md'), '# Already here\n');
    expect(await run('/init')).toContain('AGENTS.md already exists');
    expect(session.submitted).toHaveLength(1);
  });

  it('/resume offers saved sessions to pick from and continues one by a unique start of its id', async () => {
    expect(await run('/resume')).toBe('There is no other saved session in this project.');
    const id = 'abcdef12-0000-4000-8000-000000000000';
    const recorder = new SessionRecorder(
      sessionFile(session.config.userDir, session.config.targetDir, id),
      { sessionId: id, cwd: session.config.targetDir, model: 'test-model' },
    );
    recorder.recordMessage({ role: 'user', content: 'fix the flaky test' });
    // The test context's picker takes the first item offered.
    await run('/resume');
    expect(session.events).toEqual([
      'pick: Continue which session? (newest first)',
      `resume ${id}`,
    ]);
    session.events.length = 0;
    await run('/resume abcdef');
    expect(session.events).toEqual([`resume ${id}`]);
    expect(await run('/resume zzz')).toContain(
      'No saved session of this project starts with "zzz"',
    );
  });

  it('/agents lists the subagents, files that cannot be used included', async () => {
    const dir = path.join(session.dirs.root, '.toolhost/agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews diffs\ntools: [read_file, grep_search]\n---\nReview carefully.\n',
    );
    writeFileSync(path.join(dir, 'broken.md'), 'no front matter');
    const listing = await run('/agents');
    expect(listing).toContain('**reviewer**');
    expect(listing).toContain('Tools: read_file, grep_search');
    expect(listing).toContain('**general-purpose**');
    expect(listing).toMatch(/broken\.md: has no YAML front matter/);
  });

  it('/clear and /quit hand over to the app', async () => {
    await run('/clear');
    await run('/exit');
    expect(session.events).toEqual(['clear', 'quit']);
  });
});
