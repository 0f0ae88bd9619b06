/**
 * /context: what fills the model's context window now, part by part (the system prompt's
 * own guidance, the memory files in it, the tools' declarations, the conversation), in
 * estimated tokens against the window's size.
 */
import { estimateJsonTokens, estimateTokens, loadMemory } from '@toolhost/core/conversation';
import { plural } from '@toolhost/core/utils';
import type { CommandContext, SlashCommand } from '../command-types.js';

export interface ContextPart {
  name: string;
  tokens: number;
  detail: string;
}

export function contextParts(context: CommandContext): ContextPart[] {
  const { agent, config, registry } = context;
  const memory = loadMemory(config, { cwd: config.targetDir });
  const memoryTokens = agent.systemPrompt.includes(memory.text) ? estimateTokens(memory.text) : 0;
  const declarations = registry.getFunctionDeclarations();
  const history = agent.loop.history;
  return [
    {
      name: 'System prompt',
      tokens: Math.max(0, estimateTokens(agent.systemPrompt) - memoryTokens),
      detail: 'guidance, environment',
    },
    {
      name: 'Memory',
      tokens: memoryTokens,
      detail: memory.files.length > 0 ? memory.files.join(', ') : 'no memory files',
    },
    {
      name: 'Tools',
      tokens: estimateJsonTokens(declarations),
      detail: plural(declarations.length, 'declaration'),
    },
    {
      name: 'Messages',
      tokens: estimateJsonTokens(history),
      detail: plural(history.length, 'message'),
    },
  ];
}

const BAR = 30;

export const contextCommand: SlashCommand = {
  name: 'context',
  description: 'Show what fills the context window (system prompt, memory, tools, messages)',
  source: 'built-in',
  takesArguments: false,
  run(context) {
    const window = context.agent.model.endpoint.contextWindow;
    const parts = contextParts(context);
    const used = parts.reduce((sum, part) => sum + part.tokens, 0);
    const count = (n: number) => n.toLocaleString('en-US');
    const percent = (n: number) => (window > 0 ? `${((n * 100) / window).toFixed(1)}%` : '?');
    const filled = window > 0 ? Math.min(BAR, Math.round((used * BAR) / window)) : 0;
    const lines = parts.map(
      (part) =>
        `- ${part.name}: ${count(part.tokens)} tokens (${percent(part.tokens)}) · ${part.detail}`,
    );
    context.print(
      [
        `**Context window** ${count(used)} of ${count(window)} tokens used (${percent(used)}), ${count(Math.max(0, window - used))} free`,
        `\`${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}\``,
        ...lines,
        '',
        'Counts are estimates (about four characters a token); /compress frees room.',
      ].join('\n'),
    );
  },
};
