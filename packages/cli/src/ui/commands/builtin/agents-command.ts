/**
 * /agents: the subagents this session can hand work to, and `create <description>`, which
 * has the model write a new subagent file (name, description, tools, instructions) into
 * the project's `.toolhost/agents/` (`--user`: the person's, for every project).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSubagents, parseSubagentFile } from '@toolhost/core/conversation';
import { joinFrontMatter } from '@toolhost/core/files';
import { plural } from '@toolhost/core/utils';
import type { ArgumentSuggestion, CommandContext, SlashCommand } from '../command-types.js';

const SUBCOMMANDS: ArgumentSuggestion[] = [
  { value: 'list', description: 'the subagents and where they come from' },
  {
    value: 'create ',
    description: 'write a new subagent from a description (--user: for every project)',
  },
];

const WRITER_INSTRUCTIONS = `You design subagents for a coding agent. A subagent is a helper the main agent hands a self-contained task to; it runs with its own instructions and a chosen set of tools, and reports back once.
From the person's description, answer with one JSON object and nothing else:
{"name": "<lowercase words joined by hyphens, at most 40 characters>",
 "description": "<one or two sentences telling the main agent when to use this subagent>",
 "tools": ["<tool names it needs>"] or null for every tool,
 "instructions": "<the subagent's system prompt: its role, how it works step by step, what it must not do, and what its final report contains>"}
Choose the fewest tools that do the job; a reviewer or researcher needs no tools that change files.`;

export const agentsCommand: SlashCommand = {
  name: 'agents',
  description: 'List the subagents, or create one from a description',
  argumentHint: 'list|create [--user] <description>',
  source: 'built-in',
  takesArguments: true,
  async run(context, args) {
    const trimmed = args.trim();
    const sub = trimmed.split(/\s+/)[0] || 'list';
    if (sub === 'list') return listAgents(context);
    if (sub === 'create') {
      let description = trimmed.slice('create'.length).trim();
      const user = /^--user\b/.test(description);
      if (user) description = description.replace(/^--user\s*/, '');
      return createAgent(context, description, user);
    }
    context.print(
      `/agents ${sub} is not a subcommand. Use /agents list or /agents create <description>.`,
      'error',
    );
  },
  completeArguments(_context, args) {
    if (args.includes(' ')) return [];
    return SUBCOMMANDS.filter((sub) => sub.value.startsWith(args));
  },
};

function listAgents(context: CommandContext): void {
  const { definitions, warnings } = loadSubagents(context.config);
  const lines = definitions.map((definition) => {
    const tools = definition.tools ? definition.tools.join(', ') : 'every tool';
    const where = definition.source ? ` (${definition.source})` : ' (built-in)';
    const settings = [
      definition.model ? `model ${definition.model}` : '',
      definition.approvalMode ? `approval mode ${definition.approvalMode}` : '',
      definition.maxTurns ? `at most ${definition.maxTurns} turns` : '',
      definition.color ? `color ${definition.color}` : '',
    ].filter(Boolean);
    const extra = settings.length > 0 ? `\n  ${settings.join(', ')}` : '';
    return `- **${definition.name}**${where}: ${definition.description}\n  Tools: ${tools}${extra}`;
  });
  const problems = warnings.map((warning) => `- ${warning}`);
  context.print(
    [
      `**Subagents** (${plural(definitions.length, 'subagent')})`,
      ...lines,
      ...(problems.length > 0 ? ['', '**Problems in subagent files**', ...problems] : []),
      '',
      'Create one with /agents create <what it should do>.',
    ].join('\n'),
  );
}

interface Draft {
  name: string;
  description: string;
  tools: string[] | null;
  instructions: string;
}

async function createAgent(context: CommandContext, description: string, user: boolean) {
  if (!description) {
    context.print('Describe the subagent: /agents create <what it should do and when>.', 'error');
    return;
  }
  const toolNames = context.registry.getAllToolNames().filter((name) => name !== 'task');
  context.print('Asking the model to write the subagent…');
  let draft: Draft | string;
  try {
    const response = await context.agent.model.generate(
      {
        messages: [
          { role: 'system', content: WRITER_INSTRUCTIONS },
          {
            role: 'user',
            content: `Available tools: ${toolNames.join(', ')}\n\nThe subagent to create: ${description}`,
          },
        ],
      },
      { signal: context.signal },
    );
    context.agent.usage.add(response.usage);
    draft = parseDraft(response.text, toolNames);
  } catch (error) {
    context.print(`The model could not write the subagent: ${(error as Error).message}`, 'error');
    return;
  }
  if (typeof draft === 'string') {
    context.print(
      `The model's answer was not a usable subagent (${draft}). Try again, perhaps with more detail.`,
      'error',
    );
    return;
  }
  const base = user ? path.dirname(context.config.userDir) : context.config.targetDir;
  const folder = path.join(base, '.toolhost', 'agents');
  const file = path.join(folder, `${draft.name}.md`);
  const text = joinFrontMatter(
    {
      name: draft.name,
      description: draft.description,
      ...(draft.tools ? { tools: draft.tools } : {}),
    },
    draft.instructions,
  );
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(file, text, { flag: 'wx' });
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
    context.print(
      exists
        ? `${file} already exists; it was left as it is. Edit it, or describe a subagent with another purpose.`
        : `Could not write ${file}: ${(error as Error).message}`,
      'error',
    );
    return;
  }
  const check = parseSubagentFile(file);
  if (typeof check === 'string') {
    rmSync(file, { force: true });
    context.print(`The written file was not usable (${check}); nothing was kept.`, 'error');
    return;
  }
  context.print(
    `Created subagent **${draft.name}** in \`${file}\`: ${draft.description}\nTools: ${draft.tools?.join(', ') ?? 'every tool'}. Review and edit the file as you like; it is offered to the model from the next session on.`,
  );
}

/** The JSON object in the model's answer, checked; or what is wrong with it. */
export function parseDraft(text: string, toolNames: readonly string[]): Draft | string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end <= start) return 'no JSON object';
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return 'invalid JSON';
  }
  const fields = value as Record<string, unknown>;
  const name = typeof fields.name === 'string' ? slug(fields.name) : '';
  if (!name) return 'no name';
  if (typeof fields.description !== 'string' || !fields.description.trim()) return 'no description';
  if (typeof fields.instructions !== 'string' || !fields.instructions.trim())
    return 'no instructions';
  let tools: string[] | null = null;
  if (Array.isArray(fields.tools)) {
    const known = new Set(toolNames);
    tools = fields.tools.filter(
      (tool): tool is string => typeof tool === 'string' && known.has(tool),
    );
    if (tools.length === 0) tools = null;
  }
  return {
    name,
    description: fields.description.trim(),
    tools,
    instructions: fields.instructions,
  };
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
    .replace(/^(\d)/, 'agent-$1');
}
