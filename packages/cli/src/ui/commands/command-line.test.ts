import { describe, expect, it } from 'vitest';
import { completeSlashLine, parseSlashLine } from './command-line.js';
import type { CommandContext, SlashCommand } from './command-types.js';

function command(name: string, extra: Partial<SlashCommand> = {}): SlashCommand {
  return {
    name,
    description: `the ${name} command`,
    source: 'built-in',
    takesArguments: false,
    run: () => undefined,
    ...extra,
  };
}

const commands = [
  command('help', { aliases: ['?'] }),
  command('quit', { aliases: ['exit'] }),
  command('memory', {
    takesArguments: true,
    argumentHint: 'show|add <fact>|refresh',
    completeArguments: (_context, args) =>
      ['show', 'add', 'refresh']
        .filter((sub) => !args.includes(' ') && sub.startsWith(args))
        .map((value) => ({ value })),
  }),
  command('mcp'),
  command('git:commit', { source: 'project', takesArguments: true }),
];
const context = {} as CommandContext;

describe('slash lines', () => {
  it('finds a command by name or alias, case-insensitively, with its arguments', () => {
    expect(parseSlashLine('/memory add  use pnpm ', commands)).toMatchObject({
      type: 'command',
      command: { name: 'memory' },
      args: 'add  use pnpm',
    });
    expect(parseSlashLine('/EXIT', commands)).toMatchObject({ command: { name: 'quit' } });
    expect(parseSlashLine('/git:commit fix typo', commands)).toMatchObject({
      command: { name: 'git:commit' },
      args: 'fix typo',
    });
  });

  it('answers an unknown name with the nearest commands', () => {
    const parsed = parseSlashLine('/hlep', commands);
    expect(parsed).toEqual({
      type: 'unknown',
      name: 'hlep',
      message: '/hlep is not a command. Did you mean /help? Type /help to see them all.',
    });
    const far = parseSlashLine('/zzzzzzzz', commands);
    expect(far.type === 'unknown' && far.message).toBe(
      '/zzzzzzzz is not a command. Type /help to see them all.',
    );
  });

  it('leaves a path or ordinary text as a prompt', () => {
    expect(parseSlashLine('/usr/bin/env is missing on this machine', commands).type).toBe('prompt');
    expect(parseSlashLine('why does this fail?', commands).type).toBe('prompt');
  });
});

describe('slash completion', () => {
  it('offers command names matching what is typed, prefixes first', () => {
    const completion = completeSlashLine('/m', 2, commands, context);
    expect(completion?.items.map((item) => item.value)).toEqual([
      '/mcp',
      '/memory ',
      '/git:commit ',
    ]);
    expect(completion?.items[0]).toMatchObject({ submitOnEnter: true });
    expect(completion?.items[1]).toMatchObject({ label: '/memory show|add <fact>|refresh' });
    expect(completion).toMatchObject({ start: 0, end: 2 });
    expect(completeSlashLine('/mit', 4, commands, context)?.items[0]?.value).toBe('/git:commit ');
    expect(completeSlashLine('/zz', 3, commands, context)).toBeUndefined();
  });

  it("offers a command's own arguments after its name", () => {
    const completion = completeSlashLine('/memory re', 10, commands, context);
    expect(completion).toMatchObject({ items: [{ value: 'refresh' }], start: 8, end: 10 });
    expect(completeSlashLine('/memory refresh', 15, commands, context)).toBeUndefined();
  });
});
