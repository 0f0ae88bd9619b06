/**
 * toolhost's tools served over MCP: every active tool of a registry is listed with MCP
 * annotations derived from its kind, and each call runs through the scheduler. Calls that
 * need approval ask the person through the client (elicitation) when it can; otherwise
 * they are refused with a message naming the flag that allows them. What a client allowed
 * "always" is remembered for that client only. The workspace's memory files and the
 * person's command files are offered too, as resources and prompts (workspace-offerings.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  type ElicitRequestFormParams,
  ErrorCode,
  ListToolsRequestSchema,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { ApprovalMemory, withApprovalMemory } from '../config/approval-memory.js';
import type { Config } from '../config/config.js';
import type { Part } from '../contract/content.js';
import { forcedQuestionReason } from '../permissions/approval-rules.js';
import type { ConfirmationDecision, WaitingToolCall } from '../scheduler/tool-call-types.js';
import { withProcessOwner } from '../shell/background-processes.js';
import { withProgressForwarding } from '../tools/mcp/progress.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import {
  type ToolCallConfirmationDetails,
  ToolConfirmationOutcome,
  type ToolElicitationConfirmationDetails,
} from '../tools/tools.js';
import { SERVER_CAPABILITIES, serverInfo } from './server-identity.js';
import { listedTools } from './tool-listing.js';
import { type PromptSource, serveWorkspaceOfferings } from './workspace-offerings.js';

/** Live output sent in one progress notification, at most (the end of it). */
const PROGRESS_MESSAGE_CHARS = 8000;

export interface ToolhostMcpServerOptions {
  version?: string;
  /** toolhost's own warnings so far (settings problems), sent to the client as log messages. */
  warnings?: readonly string[];
  /**
   * Aborted when the service stops: running calls end as cancelled and their clients get
   * that answer (a client's own cancellation, or its session's end, gets none: nobody waits).
   */
  stopSignal?: AbortSignal;
  /** The person's command files, offered as prompts (none without it). */
  prompts?: PromptSource;
}

export function createToolhostMcpServer(
  config: Config,
  registry: ToolRegistry,
  optionsOrVersion: ToolhostMcpServerOptions | string = {},
): Server {
  const options =
    typeof optionsOrVersion === 'string' ? { version: optionsOrVersion } : optionsOrVersion;
  // This client's "always" answers (and the mode they set) are its own: over HTTP every
  // client session has its own server instance, and none of them allows another's calls.
  const approvals = new ApprovalMemory();
  const server = new Server(serverInfo(options.version), { capabilities: SERVER_CAPABILITIES });
  const warn = (data: string) => {
    if (server.transport)
      server
        .sendLoggingMessage({ level: 'warning', logger: 'toolhost', data })
        .catch(() => undefined);
  };
  // Tools of MCP servers arrive after the client has listed the built-ins: tell it.
  const stopListening = registry.onToolsChanged(() => {
    if (server.transport) server.sendToolListChanged().catch(() => undefined);
  });
  const stopWatching = registry.onMcpServerFailed((alias, error) =>
    warn(`MCP server "${alias}" is not available: ${error}`),
  );
  server.oninitialized = () => {
    for (const warning of options.warnings ?? []) warn(warning);
    for (const failed of registry.getMcpServers().filter((s) => s.status === 'failed'))
      warn(`MCP server "${failed.alias}" is not available: ${failed.error ?? 'it did not start'}`);
  };
  // Background commands this client started end with its session (expiry, DELETE, a
  // closed stdin), not with the process that serves every session.
  const processOwner = {};
  const stopOfferings = serveWorkspaceOfferings(server, config, options.prompts);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    stopListening();
    stopOfferings();
    stopWatching();
    void config.backgroundProcesses.endOwnedBy(processOwner).catch(() => undefined);
    previousOnClose?.();
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools(registry) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const signal = options.stopSignal
      ? AbortSignal.any([extra.signal, options.stopSignal])
      : extra.signal;
    // A tool of a server that is still starting is waited for, as in the scheduler.
    const tool = registry.getTool(name) ?? (await registry.waitForTool(name, signal));
    if (!tool) {
      const unavailable = registry.explainMissingTool(name);
      if (unavailable?.server)
        return { isError: true, content: [{ type: 'text', text: unavailable.message }] };
      // The specification answers an unknown tool with a protocol error, not a result. Not
      // an McpError: its message starts "MCP error -32602:", which the SDK sends as the
      // message, and a client's McpError adds the same prefix again.
      throw protocolError(ErrorCode.InvalidParams, registry.unknownToolMessage(name));
    }
    const progressToken = request.params._meta?.progressToken;
    let refusal: string | undefined;
    const ask = async (call: WaitingToolCall): Promise<ConfirmationDecision> => {
      const details = call.confirmationDetails;
      // A downstream server's question is passed on to this client's person, or declined.
      // Page visits are never asked for here (toolhost mcp does not offer them).
      if (details.type === 'elicitation_url') return { outcome: ToolConfirmationOutcome.Cancel };
      if (details.type === 'elicitation')
        return server.getClientCapabilities()?.elicitation
          ? forwardQuestion(server, details)
          : { outcome: ToolConfirmationOutcome.Cancel };
      if (server.getClientCapabilities()?.elicitation)
        return askThroughClient(server, call.confirmationDetails);
      const forced = forcedQuestionReason(call.confirmationDetails);
      refusal = `toolhost could not ask the person to approve ${call.tool.name} (${call.confirmationDetails.title}): this MCP client cannot show questions. ${
        forced
          ? `${forced}.`
          : 'The person can restart "toolhost mcp" with --approval-mode auto-edit (file edits) or --approval-mode yolo (everything) to allow such calls, or list the tool in tools.allowed in settings.'
      }`;
      return { outcome: ToolConfirmationOutcome.Cancel };
    };
    // The scheduler (approval rules, hooks, output truncation) loads with the first call:
    // answering initialize and tools/list needs none of it.
    const { CoreToolScheduler } = await import('../scheduler/core-tool-scheduler.js');
    const scheduler = new CoreToolScheduler({
      config,
      toolRegistry: registry,
      onConfirmationRequest: ask,
      outputUpdateHandler: progressSender(progressToken, extra),
    });
    const run = () =>
      scheduler.schedule(
        {
          callId: `mcp-${String(extra.requestId)}`,
          name: request.params.name,
          args: request.params.arguments ?? {},
        },
        signal,
      );
    const [done] = await withApprovalMemory(approvals, () =>
      withProcessOwner(processOwner, () =>
        // A tool of another MCP server reports progress of its own: passed on as it came.
        progressToken === undefined
          ? run()
          : withProgressForwarding(
              ({ progress, total, message }) =>
                void extra
                  .sendNotification({
                    method: 'notifications/progress',
                    params: { progressToken, progress, total, message },
                  })
                  .catch(() => undefined),
              run,
            ),
      ),
    );
    if (!done)
      return { isError: true, content: [{ type: 'text', text: 'The call produced no result.' }] };
    if (refusal) return { isError: true, content: [{ type: 'text', text: refusal }] };
    return toCallToolResult(done.response.responseParts, done.status !== 'success');
  });
  return server;
}

/** A JSON-RPC error the SDK sends with exactly this code and message. */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Live output (a command's text so far) as progress notifications, when the client asked
 * for progress: each carries what is new since the last one.
 */
function progressSender(
  progressToken: string | number | undefined,
  extra: { sendNotification: (notification: ServerNotification) => Promise<void> },
): ((callId: string, output: string) => void) | undefined {
  if (progressToken === undefined) return undefined;
  let step = 0;
  let sent = '';
  return (_callId, output) => {
    const fresh = output.startsWith(sent) ? output.slice(sent.length) : output;
    sent = output;
    if (!fresh) return;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: ++step, message: fresh.slice(-PROGRESS_MESSAGE_CHARS) },
      })
      .catch(() => undefined);
  };
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

async function forwardQuestion(
  server: Server,
  details: ToolElicitationConfirmationDetails,
): Promise<ConfirmationDecision> {
  const result = await server.elicitInput({
    message: `${details.title} ${details.message}`,
    requestedSchema: details.requestedSchema as ElicitRequestFormParams['requestedSchema'],
  });
  if (result.action !== 'accept') return { outcome: ToolConfirmationOutcome.Cancel };
  return {
    outcome: ToolConfirmationOutcome.ProceedOnce,
    payload: { answers: result.content ?? {} },
  };
}

function describeForPerson(details: ToolCallConfirmationDetails): string {
  switch (details.type) {
    case 'elicitation':
      return `${details.title} ${details.message}`;
    case 'elicitation_url':
      return `${details.title} ${details.message}\n\n${details.url}`;
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
