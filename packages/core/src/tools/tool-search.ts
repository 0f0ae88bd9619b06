/**
 * tool_search: finds MCP tools whose declarations were held back (deferred-tools.ts) and
 * has them declared from the model's next request on. Offered only while tools are held back.
 */
import { type DeferredTools, TOOL_SEARCH_NAME, type ToolSource } from './deferred-tools.js';
import { BaseTool, Kind, type ToolResult } from './tools.js';

export interface ToolSearchParams {
  query: string;
  max_results?: number;
}

const DESCRIPTION =
  'Finds tools of connected MCP servers that are not declared yet. Give keywords of what you need (or a tool’s exact name); it lists the best matches with their descriptions, and their full declarations come with your next request, so you can then call them directly.';

const DEFAULT_RESULTS = 5;
const MAX_RESULTS = 20;

export class ToolSearchTool extends BaseTool<ToolSearchParams> {
  static readonly Name = TOOL_SEARCH_NAME;

  constructor(
    private readonly deferred: DeferredTools,
    private readonly source: ToolSource,
  ) {
    super(ToolSearchTool.Name, 'ToolSearch', DESCRIPTION, Kind.Search, {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'Keywords of the task (e.g. "create github issue"), or a tool’s exact name.',
        },
        max_results: {
          type: 'number',
          minimum: 1,
          maximum: MAX_RESULTS,
          description: `How many tools to return (default ${DEFAULT_RESULTS}).`,
        },
      },
      required: ['query'],
    });
  }

  protected override validateSemantics(params: ToolSearchParams): string | null {
    return params.query.trim() === '' ? 'query must name what the tool should do' : null;
  }

  override getDescription(params: ToolSearchParams): string {
    return `Search tools for "${params.query}"`;
  }

  async execute(params: ToolSearchParams): Promise<ToolResult> {
    const matches = this.deferred.search(
      this.source,
      params.query,
      params.max_results ?? DEFAULT_RESULTS,
    );
    if (matches.length === 0) {
      const text = `No MCP tool matches "${params.query}". Try other or fewer keywords.`;
      return { llmContent: text, returnDisplay: text };
    }
    const lines = matches.map(
      (match) =>
        `- ${match.name} (server ${match.server}): ${match.description.replace(/\s+/g, ' ').slice(0, 300)}`,
    );
    const text = `${matches.length} tool${matches.length === 1 ? '' : 's'} found; their full declarations come with your next request, call them directly then:\n${lines.join('\n')}`;
    return {
      llmContent: text,
      returnDisplay: `Found ${matches.map((match) => match.name).join(', ')}`,
    };
  }
}
