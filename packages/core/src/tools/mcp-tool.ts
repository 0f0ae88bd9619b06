/** A tool served by an MCP server, called through its connection. */
import {
  type CallToolResult,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config/config.js';
import type { Part } from '../contract/content.js';
import { visitNeededMessage } from './mcp/elicitation-url.js';
import { describeError, McpConnectionError } from './mcp/errors.js';
import { progressReporter } from './mcp/progress.js';
import { structuredContentText } from './mcp/structured.js';
import type { McpServerConnection } from './mcp-client.js';
import {
  BaseTool,
  errorResult,
  type JsonSchema,
  Kind,
  ToolConfirmationOutcome,
  ToolErrorType,
  type ToolExecutionContext,
  type ToolMcpConfirmationDetails,
  type ToolResult,
} from './tools.js';

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export class DiscoveredMCPTool extends BaseTool<Record<string, unknown>> {
  constructor(
    private readonly config: Config,
    readonly connection: McpServerConnection,
    /** The tool's name on its server. */
    readonly serverToolName: string,
    registryName: string,
    description: string,
    inputSchema: JsonSchema,
    readonly annotations: McpToolAnnotations = {},
  ) {
    super(
      registryName,
      annotations.title
        ? `${annotations.title} (${connection.alias})`
        : `${serverToolName} (${connection.alias})`,
      description || `Tool ${serverToolName} of MCP server ${connection.alias}.`,
      Kind.Other,
      inputSchema,
      { canUpdateOutput: true },
    );
  }

  get serverAlias(): string {
    return this.connection.alias;
  }

  override getDescription(params: Record<string, unknown>): string {
    return `${this.serverAlias}: ${this.serverToolName} ${JSON.stringify(params)}`;
  }

  override async shouldConfirmExecute(): Promise<ToolMcpConfirmationDetails | false> {
    const allowed = this.config.sessionAllowedMcp;
    if (
      this.connection.trusted ||
      allowed.has(serverKey(this.serverAlias)) ||
      allowed.has(toolKey(this.serverAlias, this.serverToolName))
    ) {
      return false;
    }
    return {
      type: 'mcp',
      title: `Run ${this.serverToolName} from MCP server ${this.serverAlias}?`,
      serverName: this.serverAlias,
      toolName: this.serverToolName,
      toolDisplayName: this.displayName,
      annotations: {
        ...(this.annotations.readOnlyHint !== undefined
          ? { readOnlyHint: this.annotations.readOnlyHint }
          : {}),
        ...(this.annotations.destructiveHint !== undefined
          ? { destructiveHint: this.annotations.destructiveHint }
          : {}),
      },
      rememberAlways: 'tool-handles',
      onConfirm: (outcome) => {
        if (outcome === ToolConfirmationOutcome.ProceedAlwaysServer)
          allowed.add(serverKey(this.serverAlias));
        if (
          outcome === ToolConfirmationOutcome.ProceedAlwaysTool ||
          outcome === ToolConfirmationOutcome.ProceedAlways
        ) {
          allowed.add(toolKey(this.serverAlias, this.serverToolName));
        }
      },
    };
  }

  async execute(
    params: Record<string, unknown>,
    signal: AbortSignal,
    updateOutput?: (output: string) => void,
    context?: ToolExecutionContext,
  ): Promise<ToolResult> {
    let result: CallToolResult;
    try {
      result = await this.connection.callTool(
        this.serverToolName,
        params,
        signal,
        progressReporter(`${this.serverAlias}/${this.serverToolName}`, updateOutput),
        context?.ask,
      );
    } catch (error) {
      if (signal.aborted)
        return errorResult(
          ToolErrorType.MCP_TOOL_ERROR,
          `The call to ${this.serverToolName} was cancelled.`,
        );
      // Connection failures already name the server and say what to do.
      if (error instanceof McpConnectionError)
        return errorResult(ToolErrorType.MCP_TOOL_ERROR, error.message);
      if (error instanceof UrlElicitationRequiredError) return this.visitsFirst(error, context);
      return errorResult(
        ToolErrorType.MCP_TOOL_ERROR,
        `MCP server ${this.serverAlias} failed on ${this.serverToolName}: ${describeError(error)}`,
      );
    }
    return this.toResult(result);
  }

  /**
   * The tool needs the person to visit pages first: each is put to the person as the
   * server's own request would be; the model learns only that the person was asked.
   */
  private async visitsFirst(
    error: UrlElicitationRequiredError,
    context: ToolExecutionContext | undefined,
  ): Promise<ToolResult> {
    const canAsk = Boolean(context?.ask) && this.config.urlElicitation;
    let accepted = canAsk;
    if (canAsk) {
      for (const visit of error.elicitations) {
        const answer = await this.connection.visits.ask(context?.ask, visit);
        if (answer.action !== 'accept') {
          accepted = false;
          break;
        }
      }
    }
    const message = visitNeededMessage(
      this.serverAlias,
      this.serverToolName,
      canAsk && error.elicitations.length > 0,
      accepted,
    );
    return errorResult(ToolErrorType.MCP_TOOL_ERROR, message);
  }

  private toResult(result: CallToolResult): ToolResult {
    const parts = mcpContentToParts(result);
    if (result.isError) {
      const message =
        parts
          .map((part) => part.text)
          .filter(Boolean)
          .join('\n')
          // Servers often start their message with "Error:"; the model sees that prefix once.
          .replace(/^(\s*Error:\s*)+/i, '') || 'the server reported an error without a message';
      return errorResult(
        ToolErrorType.MCP_TOOL_ERROR,
        `${this.serverToolName} (MCP server ${this.serverAlias}) reported an error: ${message}`,
      );
    }
    const summary = parts
      .map((part) => part.text ?? `[${part.inlineData?.mimeType ?? 'attachment'}]`)
      .join('\n');
    return {
      llmContent: parts.length > 0 ? parts : 'The tool returned no content.',
      returnDisplay: summary || '(no content)',
    };
  }
}

export const serverKey = (alias: string) => `server:${alias}`;
export const toolKey = (alias: string, tool: string) => `tool:${alias}:${tool}`;

/** The last path segment of a resource URI, as the attachment's file name. */
function fileNameOf(uri: string): string | undefined {
  const segment = uri.split(/[?#]/)[0]?.split('/').filter(Boolean).pop();
  if (!segment?.includes('.')) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Converts an MCP result to parts, losing nothing: text, media, resources, links, structured content. */
export function mcpContentToParts(result: CallToolResult): Part[] {
  const parts: Part[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push({ text: item.text });
        break;
      case 'image':
      case 'audio':
        parts.push({ inlineData: { mimeType: item.mimeType, data: item.data } });
        break;
      case 'resource': {
        const resource = item.resource as {
          uri: string;
          mimeType?: string;
          text?: string;
          blob?: string;
        };
        if (typeof resource.text === 'string') {
          parts.push({
            text: `Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}:\n${resource.text}`,
          });
        } else if (typeof resource.blob === 'string') {
          parts.push({
            text: `Resource ${resource.uri} (${resource.mimeType ?? 'binary'}) is attached.`,
          });
          parts.push({
            inlineData: {
              mimeType: resource.mimeType ?? 'application/octet-stream',
              data: resource.blob,
              displayName: fileNameOf(resource.uri),
            },
          });
        }
        break;
      }
      case 'resource_link': {
        const link = item as {
          uri: string;
          name?: string;
          title?: string;
          description?: string;
          mimeType?: string;
        };
        const label = link.title ?? link.name ?? link.uri;
        parts.push({
          text: `Resource link: ${label} <${link.uri}>${link.mimeType ? ` (${link.mimeType})` : ''}${link.description ? ` - ${link.description}` : ''}`,
        });
        break;
      }
      default:
        parts.push({
          text: `[content of type ${(item as { type: string }).type}: ${JSON.stringify(item).slice(0, 500)}]`,
        });
    }
  }
  const structured = structuredContentText(result);
  if (structured) parts.push({ text: structured });
  return parts;
}
