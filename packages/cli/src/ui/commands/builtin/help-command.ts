/** /help: the commands (built-in, the project's, the person's, MCP prompts) and the input keys. */
import type { CommandSource, SlashCommand } from '../command-types.js';

const SECTIONS: { source: CommandSource; title: string }[] = [
  { source: 'built-in', title: 'Commands' },
  { source: 'project', title: "This project's commands" },
  { source: 'user', title: 'Your commands' },
  { source: 'extension', title: "Extensions' commands" },
  { source: 'mcp', title: 'MCP prompts' },
];

export const KEYS_HELP = [
  '**Keys**',
  '- Enter sends; Ctrl+J, Alt+Enter or `\\` before Enter starts a new line; pasted text is kept whole',
  '- ↑/↓ move between lines, then through earlier prompts; Ctrl+R searches them (Ctrl+R again: older, Esc: back)',
  '- Ctrl+A/E line start/end, Alt+B/F or Ctrl+←/→ by words, Ctrl+W/Alt+D delete a word, Ctrl+K/U delete to line end/start',
  '- Tab takes a completion; ↑/↓ choose one',
  '- `@path` attaches a file or folder (`@server:uri` an MCP resource); `!command` runs a shell command',
].join('\n');

export const helpCommand: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  description: 'Show the commands and keys',
  source: 'built-in',
  takesArguments: false,
  run(context) {
    const commands = context.commands();
    const blocks: string[] = [];
    for (const { source, title } of SECTIONS) {
      const lines = commands
        .filter((command) => command.source === source)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map(describe);
      if (lines.length > 0) blocks.push(`**${title}**\n${lines.join('\n')}`);
    }
    blocks.push(KEYS_HELP);
    context.print(blocks.join('\n\n'));
  },
};

function describe(command: SlashCommand): string {
  const hint = command.argumentHint ? ` ${command.argumentHint}` : '';
  const aliases = command.aliases?.length
    ? ` (also ${command.aliases.map((alias) => `/${alias}`).join(', ')})`
    : '';
  return `- \`/${command.name}${hint}\`: ${command.description}${aliases}`;
}
