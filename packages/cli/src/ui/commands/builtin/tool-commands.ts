/** /tools and /mcp: what the model can use right now, and the state of each MCP server. */
import { plural } from '@toolhost/core/utils';
import type { ArgumentSuggestion, SlashCommand } from '../command-types.js';

const DESCRIPTIONS: ArgumentSuggestion[] = [
  { value: 'desc', description: 'with each description' },
  { value: 'nodesc', description: 'names only' },
];

function firstSentence(text: string): string {
  const line = text.split('\n')[0] ?? '';
  const end = line.search(/\.\s/);
  return end === -1 ? line : line.slice(0, end + 1);
}

export const toolsCommand: SlashCommand = {
  name: 'tools',
  description: 'List the tools the model can use (add "desc" for their descriptions)',
  argumentHint: '[desc]',
  source: 'built-in',
  takesArguments: true,
  run(context, args) {
    const withDescriptions = args.trim() === 'desc';
    const { registry } = context;
    const groups = new Map<string, string[]>();
    for (const tool of registry.getAllTools()) {
      const source = registry.getSource(tool.name);
      const group =
        source?.type === 'mcp'
          ? `MCP server ${source.serverName}`
          : source?.type === 'discovered'
            ? 'Discovered'
            : 'Built-in';
      const detail = withDescriptions ? `: ${firstSentence(tool.description)}` : '';
      groups.set(group, [
        ...(groups.get(group) ?? []),
        `- \`${tool.name}\` (${tool.displayName})${detail}`,
      ]);
    }
    const blocks = [...groups].map(([group, lines]) => `**${group}**\n${lines.join('\n')}`);
    const off = [...registry.getUnavailableTools(), ...registry.getInactiveTools()].map(
      (entry) => `- \`${entry.name}\`: ${entry.reason}`,
    );
    if (off.length > 0) blocks.push(`**Not offered**\n${off.join('\n')}`);
    context.print(blocks.join('\n\n') || 'No tools are active.');
  },
  completeArguments: (_context, args) =>
    DESCRIPTIONS.filter((option) => option.value.startsWith(args.trim())),
};

const STATUS_WORDS: Record<string, string> = {
  connected: 'connected',
  connecting: 'connecting…',
  disconnected: 'disconnected',
  failed: 'failed',
};

export const mcpCommand: SlashCommand = {
  name: 'mcp',
  description: 'Show the MCP servers: status, tools, prompts and resources (add "desc" for more)',
  argumentHint: '[desc]',
  source: 'built-in',
  takesArguments: true,
  run(context, args) {
    const withDescriptions = args.trim() === 'desc';
    const servers = context.registry.getMcpServers();
    if (servers.length === 0) {
      context.print(
        'No MCP servers are configured. Add them under "mcpServers" in .toolhost/settings.json (this project) or ~/.toolhost/settings.json, e.g. `{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}}`.',
      );
      return;
    }
    const blocks = servers.map((server) => {
      const lines = [
        `**${server.alias}**: ${STATUS_WORDS[server.status] ?? server.status}${server.error ? `: ${server.error}` : ''}`,
      ];
      const tools = context.registry.getToolsByServer(server.alias);
      if (tools.length > 0) {
        lines.push(`- ${plural(tools.length, 'tool')}:`);
        for (const tool of tools) {
          lines.push(
            `  - \`${tool.name}\`${withDescriptions ? `: ${firstSentence(tool.description)}` : ''}`,
          );
        }
      }
      for (const rejected of server.rejectedTools) {
        lines.push(`- tool \`${rejected.name}\` left out: ${rejected.reason}`);
      }
      if (server.prompts.length > 0) {
        lines.push(`- ${plural(server.prompts.length, 'prompt')} (run them as commands):`);
        for (const prompt of server.prompts) {
          const detail = withDescriptions && prompt.description ? `: ${prompt.description}` : '';
          lines.push(`  - \`/${server.alias}:${prompt.name}\`${detail}`);
        }
      }
      if (server.resources.length > 0) {
        lines.push(
          `- ${plural(server.resources.length, 'resource')} (attach one with \`@${server.alias}:<uri>\`)`,
        );
      }
      return lines.join('\n');
    });
    context.print(blocks.join('\n\n'));
  },
  completeArguments: (_context, args) =>
    DESCRIPTIONS.filter((option) => option.value.startsWith(args.trim())),
};
