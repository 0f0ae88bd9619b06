/**
 * toolhost's tools served over MCP: every active tool of a registry is listed with MCP
 * annotations derived from its kind, and each call runs through the scheduler. Calls that
 * need approval ask the person through the client (elicitation) when it can; otherwise
 * they are refused with a message naming the flag that allows them.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config/config.js';
import type { Part } from '../core/content.js';
import { CoreToolScheduler } from '../core/core-tool-scheduler.js';
import type { ConfirmationDecision, WaitingToolCall } from '../core/tool-call-types.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { Kind, type ToolCallConfirmationDetails, ToolConfirmationOutcome } from '../tools/tools.js';

export function annotationsForKind(kind: Kind, title: string): ToolAnnotations {
  switch (kind) {
    case Kind.Read:
    case Kind.Search:
      return { title, readOnlyHint: true, openWorldHint: false };
    case Kind.Fetch:
      return { title, readOnlyHint: true, openWorldHint: true };
    case Kind.Edit:
    case Kind.Move:
      return {
        title,
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      };
    case Kind.Delete:
      return { title, readOnlyHint: false, destructiveHint: true, openWorldHint: false };
    case Kind.Execute:
      return { title, readOnlyHint: false, destructiveHint: true, openWorldHint: true };
    default:
      return { title, readOnlyHint: false };
  }
}

export function createToolhostMcpServer(
  config: Config,
  registry: ToolRegistry,
  version = '0.1.0',
): Server {
  const server = new Server(
    { name: 'toolhost', version },
    { capabilities: { tools: { listChanged: true } } },
  );
  // Tools of MCP servers arrive after the client has listed the built-ins: tell it.
  const stopListening = registry.onToolsChanged(() => {
    if (server.transport) server.sendToolListChanged().catch(() => undefined);
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    stopListening();
    previousOnClose?.();
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: registry.getAllTools().map((tool) => ({
      name: tool.name,
      title: tool.displayName,
      description: tool.description,
      inputSchema: { type: 'object' as const, ...tool.parameterSchema },
      annotations: annotationsForKind(tool.kind, tool.displayName),
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    let refusal: string | undefined;
    const ask = async (call: WaitingToolCall): Promise<ConfirmationDecision> => {
      if (server.getClientCapabilities()?.elicitation)
        return askThroughClient(server, call.confirmationDetails);
      refusal = `toolhost could not ask the person to approve ${call.tool.name} (${call.confirmationDetails.title}): this MCP client cannot show questions. The person can restart "toolhost mcp" with --approval-mode auto-edit (file edits) or --approval-mode yolo (everything) to allow such calls, or list the tool in tools.allowed in settings.`;
      return { outcome: ToolConfirmationOutcome.Cancel };
    };
    const scheduler = new CoreToolScheduler({
      config,
      toolRegistry: registry,
      onConfirmationRequest: ask,
    });
    const [done] = await scheduler.schedule(
      {
        callId: `mcp-${String(extra.requestId)}`,
        name: request.params.name,
        args: request.params.arguments ?? {},
      },
      extra.signal,
    );
    if (!done)
      return { isError: true, content: [{ type: 'text', text: 'The call produced no result.' }] };
    if (refusal) return { isError: true, content: [{ type: 'text', text: refusal }] };
    return toCallToolResult(done.response.responseParts, done.status !== 'success');
  });
  return server;
}

async function askThroughClient(
  server: Server,
  details: ToolCallConfirmationDetails,
): Promise<ConfirmationDecision> {
  const always =
    details.type === 'mcp'
      ? ToolConfirmationOutcome.ProceedAlwaysTool
      : ToolConfirmationOutcome.ProceedAlways;
  const result = await server.elicitInput({
    message: describeForPerson(details),
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Allow this?',
          enum: ['once', 'always', 'deny'],
          enumNames: ['Yes, this once', 'Yes, and do not ask again this session', 'No'],
        },
      },
      required: ['decision'],
    },
  });
  if (result.action !== 'accept') return { outcome: ToolConfirmationOutcome.Cancel };
  const decision = result.content?.decision;
  if (decision === 'once') return { outcome: ToolConfirmationOutcome.ProceedOnce };
  if (decision === 'always') return { outcome: always };
  return { outcome: ToolConfirmationOutcome.Cancel };
}

function describeForPerson(details: ToolCallConfirmationDetails): string {
  switch (details.type) {
    case 'edit':
      return `${details.title}\n\n${details.fileDiff}`;
    case 'exec':
      return `${details.title}\n\n${details.command}`;
    case 'info':
      return `${details.title}\n\n${(details.urls ?? []).join('\n')}`;
    case 'mcp':
      return details.title;
    case 'plan':
      return `${details.title}\n\n${details.plan}`;
  }
}

/** The scheduler's response parts as an MCP result: text, images, audio, other data as resources. */
export function toCallToolResult(parts: Part[], isError: boolean): CallToolResult {
  const content: CallToolResult['content'] = [];
  let attachment = 0;
  for (const part of parts) {
    const response = part.functionResponse?.response;
    if (response) {
      const text =
        typeof response.output === 'string'
          ? response.output
          : typeof response.error === 'string'
            ? response.error
            : JSON.stringify(response);
      content.push({ type: 'text', text });
      continue;
    }
    const data = part.inlineData;
    if (data?.data) {
      const mimeType = data.mimeType ?? 'application/octet-stream';
      if (mimeType.startsWith('image/')) content.push({ type: 'image', data: data.data, mimeType });
      else if (mimeType.startsWith('audio/'))
        content.push({ type: 'audio', data: data.data, mimeType });
      else
        content.push({
          type: 'resource',
          resource: { uri: `toolhost://attachment/${++attachment}`, mimeType, blob: data.data },
        });
    } else if (part.text) {
      content.push({ type: 'text', text: part.text });
    }
  }
  return { content, ...(isError ? { isError: true } : {}) };
}
