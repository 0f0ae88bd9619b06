/**
 * /memory: what the model is told from the memory (context) files, adding a fact to one,
 * and reading them again after they were edited by hand.
 */
import {
  loadMemory,
  type MemoryScope,
  MemoryTool,
  memoryFilePath,
} from '@toolhost/core/conversation';
import type { ArgumentSuggestion, CommandContext, SlashCommand } from '../command-types.js';

const SUBCOMMANDS: ArgumentSuggestion[] = [
  { value: 'show', description: 'what the model reads from the memory files' },
  { value: 'add ', description: 'remember a fact (--global: for every project)' },
  { value: 'refresh', description: 'read the memory files again' },
];

export const memoryCommand: SlashCommand = {
  name: 'memory',
  description: 'Show, add to or reload the memory the model reads (AGENTS.md files)',
  argumentHint: 'show|add [--global] <fact>|refresh',
  source: 'built-in',
  takesArguments: true,
  async run(context, args) {
    const [first = '', ...rest] = args.trim().split(/\s+/);
    const sub = first || 'show';
    const text = args.trim().slice(first.length).trim();
    switch (sub) {
      case 'show':
        return showMemory(context);
      case 'add':
        return addMemory(context, rest[0] === '--global', text.replace(/^--global\s*/, ''));
      case 'refresh':
      case 'reload': {
        const memory = context.agent.refreshMemory();
        context.print(
          memory.files.length > 0
            ? `Memory read again from ${memory.files.map((file) => `\`${file}\``).join(', ')} (${memory.text.length.toLocaleString('en-US')} characters).`
            : 'Memory read again: there are no memory files.',
        );
        return;
      }
      default:
        context.print(
          `/memory ${sub} is not a subcommand. Use /memory show, /memory add <fact> or /memory refresh.`,
          'error',
        );
    }
  },
  completeArguments(_context, args) {
    if (args.includes(' ')) return [];
    return SUBCOMMANDS.filter((sub) => sub.value.startsWith(args));
  },
};

function showMemory(context: CommandContext): void {
  const memory = loadMemory(context.config, { cwd: context.config.targetDir });
  if (memory.files.length === 0) {
    const name = context.config.getContextFileNames()[0];
    context.print(
      `There is no memory yet. Add a fact with /memory add <fact>, or write ${name} with /init.`,
    );
    return;
  }
  const cut = memory.cut.length > 0 ? `\n\nLeft out or cut for size: ${memory.cut.join(', ')}` : '';
  const outside =
    memory.outside.length > 0
      ? `\n\nLeft out, leading outside the workspace: ${memory.outside.join(', ')}`
      : '';
  context.print(
    `**Memory** from ${memory.files.map((file) => `\`${file}\``).join(', ')}\n\n${memory.text}${cut}${outside}`,
  );
}

async function addMemory(context: CommandContext, global: boolean, fact: string): Promise<void> {
  if (!fact) {
    context.print(
      'Say what to remember: /memory add <fact> (or /memory add --global <fact>).',
      'error',
    );
    return;
  }
  // The person typed the fact: save_memory's own logic (file lock, encoding), without asking.
  const scope: MemoryScope = global ? 'global' : 'project';
  const result = await new MemoryTool(context.config).execute({ fact, scope });
  if (result.error) {
    context.print(result.error.message, 'error');
    return;
  }
  context.agent.refreshMemory();
  context.print(`Remembered in \`${memoryFilePath(context.config, scope)}\`: ${fact}`);
}
