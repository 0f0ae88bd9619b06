/**
 * MCP servers' prompts as commands: `/server:prompt` fills the prompt in on its server
 * with the arguments given (`--name value`, `name=value`, or in the declared order) and
 * sends the result to the model.
 */

import type { McpPrompt, McpServerConnection } from '@toolhost/core/mcp';
import type { ToolRegistry } from '@toolhost/core/tools';
import { mcpPromptName } from '../../conversation/command-names.js';
import { splitWords } from './command-body.js';
import type { SlashCommand } from './command-types.js';

export function mcpPromptCommands(registry: ToolRegistry): SlashCommand[] {
  return registry
    .getMcpServers()
    .filter((server) => server.status === 'connected')
    .flatMap((server) => server.prompts.map((prompt) => promptCommand(server, prompt)));
}

function promptCommand(server: McpServerConnection, prompt: McpPrompt): SlashCommand {
  const hint = prompt.arguments
    .map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`))
    .join(' ');
  return {
    name: mcpPromptName(server.alias, prompt.name),
    description: prompt.description ?? `Prompt ${prompt.name} of MCP server ${server.alias}`,
    ...(hint ? { argumentHint: hint } : {}),
    source: 'mcp',
    takesArguments: prompt.arguments.length > 0,
    async run(context, args) {
      const values = promptArguments(prompt, args);
      if (typeof values === 'string') {
        context.print(values, 'error');
        return;
      }
      let text: string;
      try {
        const result = await server.getPrompt(prompt.name, values, context.signal);
        text = result.messages
          .map((message) => {
            const content = message.content as {
              type: string;
              text?: string;
              resource?: { text?: string };
            };
            return content.text ?? content.resource?.text ?? '';
          })
          .filter(Boolean)
          .join('\n\n');
      } catch (error) {
        context.print(
          `MCP server ${server.alias} could not give prompt ${prompt.name}: ${(error as Error).message}`,
          'error',
        );
        return;
      }
      if (!text.trim()) {
        context.print(
          `Prompt ${prompt.name} of ${server.alias} came back empty; nothing was sent.`,
          'error',
        );
        return;
      }
      context.submitPrompt(text);
    },
    completeArguments(_context, args) {
      const given = new Set(
        [...args.matchAll(/(?:^|\s)--([\w-]+)|(?:^|\s)([\w-]+)=/g)].map(
          (match) => match[1] ?? match[2],
        ),
      );
      return prompt.arguments
        .filter((argument) => !given.has(argument.name))
        .map((argument) => ({
          value: `--${argument.name} `,
          ...(argument.description ? { description: argument.description } : {}),
        }))
        .filter((suggestion) => suggestion.value.startsWith(args.split(/\s+/).at(-1) ?? ''));
    },
  };
}

/** The arguments by name, or a message naming what is missing or unknown. */
export function promptArguments(prompt: McpPrompt, args: string): Record<string, string> | string {
  const names = prompt.arguments.map((argument) => argument.name);
  const values: Record<string, string> = {};
  const positional: string[] = [];
  const words = splitWords(args);
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    const flag = /^--([\w-]+)(?:=(.*))?$/.exec(word);
    const pair = /^([\w-]+)=(.*)$/.exec(word);
    if (flag) {
      const name = flag[1] ?? '';
      values[name] = flag[2] ?? words[++index] ?? '';
    } else if (pair && names.includes(pair[1] ?? '')) {
      values[pair[1] ?? ''] = pair[2] ?? '';
    } else positional.push(word);
  }
  const unknown = Object.keys(values).filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    return `Prompt ${prompt.name} has no argument ${unknown.join(', ')}; it takes ${names.join(', ') || 'none'}.`;
  }
  const open = names.filter((name) => values[name] === undefined);
  if (positional.length > open.length) {
    // More words than open arguments: the last argument takes the rest.
    const extra = positional.splice(Math.max(open.length - 1, 0)).join(' ');
    if (open.length === 0) return `Prompt ${prompt.name} takes no more arguments (got "${extra}").`;
    positional.push(extra);
  }
  for (const [index, word] of positional.entries()) values[open[index] ?? ''] = word;
  const missing = prompt.arguments
    .filter((argument) => argument.required && !values[argument.name])
    .map((argument) => argument.name);
  if (missing.length > 0) {
    return `Prompt ${prompt.name} needs ${missing.join(', ')}: /${prompt.name} ${prompt.arguments.map((argument) => `--${argument.name} <value>`).join(' ')}`;
  }
  return values;
}
