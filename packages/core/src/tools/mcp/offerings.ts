/** What a connected MCP server offers: its tools (filtered by settings, unusable schemas left out), prompts, resources and resource templates. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerSettings } from '../../config/settings.js';
import { schemaProblems } from '../../utils/schema-validator.js';
import { withTimeout } from './errors.js';

export interface McpResource {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
}

export interface McpPrompt {
  name: string;
  description?: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}

export interface McpOfferings {
  tools: McpToolDefinition[];
  /** Tools left out because their schema is unusable, with the reason. */
  rejectedTools: { name: string; reason: string }[];
  /** Only when the server offers resources (otherwise what was known stays). */
  resources?: McpResource[];
  resourceTemplates?: McpResourceTemplate[];
  /** Only when the server offers prompts. */
  prompts?: McpPrompt[];
}

/**
 * Lists everything the server offers. The tools must come within `timeout` (or the listing
 * fails with `tooSlow`); resources and prompts are optional extras, empty when they fail.
 */
export async function listOfferings(
  client: Client,
  settings: McpServerSettings,
  timeout: number,
  tooSlow: string,
): Promise<McpOfferings> {
  const listed = await withTimeout(client.listTools(undefined, { timeout }), timeout, tooSlow);
  const offerings: McpOfferings = acceptTools(listed.tools, settings);
  const capabilities = client.getServerCapabilities();
  if (capabilities?.resources) {
    const [resources, templates] = await Promise.all([
      client.listResources(undefined, { timeout }).catch(() => ({ resources: [] })),
      client.listResourceTemplates(undefined, { timeout }).catch(() => ({ resourceTemplates: [] })),
    ]);
    offerings.resources = resources.resources.map(({ uri, name, description, mimeType }) => ({
      uri,
      name,
      ...(description ? { description } : {}),
      ...(mimeType ? { mimeType } : {}),
    }));
    offerings.resourceTemplates = templates.resourceTemplates.map(
      ({ uriTemplate, name, description, mimeType }) => ({
        uriTemplate,
        name,
        ...(description ? { description } : {}),
        ...(mimeType ? { mimeType } : {}),
      }),
    );
  }
  if (capabilities?.prompts) {
    const prompts = await client.listPrompts(undefined, { timeout }).catch(() => ({ prompts: [] }));
    offerings.prompts = prompts.prompts.map((prompt) => ({
      name: prompt.name,
      ...(prompt.description ? { description: prompt.description } : {}),
      arguments: (prompt.arguments ?? []).map((arg) => ({
        name: arg.name,
        description: arg.description,
        required: arg.required,
      })),
    }));
  }
  return offerings;
}

/** The tools settings let through (includeTools, excludeTools) whose schemas can be used. */
function acceptTools(
  tools: McpToolDefinition[],
  settings: McpServerSettings,
): Pick<McpOfferings, 'tools' | 'rejectedTools'> {
  const include = settings.includeTools;
  const exclude = new Set(settings.excludeTools ?? []);
  const accepted: McpOfferings = { tools: [], rejectedTools: [] };
  for (const tool of tools) {
    if (exclude.has(tool.name)) continue;
    if (include && !include.includes(tool.name)) continue;
    const problem = schemaProblems(tool.inputSchema as Record<string, unknown>, {}).find((p) =>
      p.message.startsWith('This tool'),
    );
    if (problem) {
      accepted.rejectedTools.push({ name: tool.name, reason: problem.message });
      continue;
    }
    accepted.tools.push(tool);
  }
  return accepted;
}
