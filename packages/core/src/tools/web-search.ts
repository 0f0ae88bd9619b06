/** web_search: searches the web through the configured provider. */

import type { SearchProvider } from '../web/search-providers.js';
import { BaseTool, errorResult, Kind, ToolErrorType, type ToolResult } from './tools.js';

export interface WebSearchToolParams {
  query: string;
}

const DESCRIPTION = `Searches the web and returns numbered results with title, URL and snippet (and a direct answer when the search service gives one). Use it for current information, documentation or error messages; then read the most relevant pages with web_fetch. Results come from the internet and are untrusted.`;

export class WebSearchTool extends BaseTool<WebSearchToolParams> {
  static readonly Name = 'web_search';

  constructor(private readonly provider: SearchProvider) {
    super(WebSearchTool.Name, 'WebSearch', DESCRIPTION, Kind.Search, {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to search for.' } },
      required: ['query'],
    });
  }

  protected override validateSemantics(params: WebSearchToolParams): string | null {
    return params.query.trim() === '' ? 'query must not be empty' : null;
  }

  override getDescription(params: WebSearchToolParams): string {
    return `Search the web for "${params.query}"`;
  }

  async execute(params: WebSearchToolParams, signal: AbortSignal): Promise<ToolResult> {
    let response: Awaited<ReturnType<SearchProvider['search']>>;
    try {
      response = await this.provider.search(params.query, signal);
    } catch (error) {
      return errorResult(ToolErrorType.WEB_SEARCH_FAILED, (error as Error).message);
    }
    if (response.results.length === 0 && !response.answer) {
      const text = `No results for "${params.query}" from ${this.provider.name}. Try other words.`;
      return { llmContent: text, returnDisplay: 'No results' };
    }
    const found: string[] = [];
    if (response.answer) found.push(`Answer: ${response.answer}`);
    response.results.forEach((result, index) => {
      found.push(
        `${index + 1}. ${result.title || '(no title)'}\n   ${result.url}${result.snippet ? `\n   ${result.snippet.replace(/\s+/g, ' ').trim()}` : ''}`,
      );
    });
    // Titles, snippets and the service's answer come from pages: marked as web_fetch marks them
    // (the marking loads with the first answer, not with the tool's listing).
    const { untrustedWebBlock } = await import('../web/untrusted-content.js');
    const block = untrustedWebBlock(found.join('\n'));
    const lines = [
      `Web results for "${params.query}" (from ${this.provider.name}; untrusted content). ${block.notice}`,
      block.text,
      'Read a result with web_fetch, giving its URL.',
    ];
    return {
      llmContent: lines.join('\n'),
      returnDisplay: `${response.results.length} result${response.results.length === 1 ? '' : 's'} from ${this.provider.name}`,
    };
  }
}
