/**
 * What a host may ask a stream-json session with a `control_request` line, each answered
 * by a `control_response` line: `initialize`, `interrupt`, `set_permission_mode`,
 * `mcp_server_status` (Claude's `mcp_status`). Anything else is answered with an error that names it, so a host
 * written for another agent learns what toolhost does not do instead of waiting.
 */
import { PERMISSION_MODES } from '../conversation/agent-flags.js';
import type { WorkspaceTools } from '../workspace-tools.js';
import type { ControlRequestBody } from './input-lines.js';

export interface ControlTarget {
  /** The session's settings and tools. */
  session: Pick<WorkspaceTools, 'config' | 'registry'>;
  /** Cancels the running turn, if any (its commands' process groups end). */
  interrupt(): void;
}

/** Fields of Qwen Code's and Claude's `initialize` that ask for what toolhost does not run. */
const UNSUPPORTED_AT_INITIALIZE: Record<string, string> = {
  hooks: 'hook callbacks (use settings hooks)',
  sdkMcpServers: 'MCP servers inside the SDK (run them as stdio or HTTP servers in mcpServers)',
  mcpServers: 'MCP servers given at initialize (put them in settings.json mcpServers)',
  agents: 'subagents given at initialize (put them in .toolhost/agents/*.md)',
};

/** The `response` of a success, or throws an Error whose message is the error answer. */
export function answerControlRequest(
  request: ControlRequestBody,
  target: ControlTarget,
): Record<string, unknown> {
  const { config, registry } = target.session;
  switch (request.subtype) {
    case 'initialize': {
      const unsupported = Object.entries(UNSUPPORTED_AT_INITIALIZE).filter(([key]) =>
        hasEntries(request[key]),
      );
      if (unsupported.length > 0) {
        throw new Error(
          `toolhost does not take ${unsupported.map(([, what]) => what).join('; ')}.`,
        );
      }
      return {
        subtype: 'initialize',
        session_id: config.sessionId,
        capabilities: {
          can_handle_can_use_tool: true,
          can_handle_hook_callback: false,
          can_set_permission_mode: true,
          can_set_model: false,
          can_handle_mcp_message: false,
        },
      };
    }
    case 'interrupt':
      target.interrupt();
      return { subtype: 'interrupt' };
    case 'set_permission_mode': {
      const mode =
        typeof request.mode === 'string' && Object.hasOwn(PERMISSION_MODES, request.mode)
          ? PERMISSION_MODES[request.mode]
          : undefined;
      if (!mode) {
        throw new Error(
          `set_permission_mode takes "mode": one of ${Object.keys(PERMISSION_MODES).join(', ')}; got ${JSON.stringify(request.mode ?? null)}.`,
        );
      }
      config.setApprovalMode(mode);
      return { status: 'updated', mode };
    }
    // Qwen Code's name, then Claude's.
    case 'mcp_server_status':
    case 'mcp_status':
      return {
        mcpServers: registry
          .getMcpServers()
          .map((server) => ({ name: server.alias, status: server.status })),
      };
    default:
      throw new Error(
        `toolhost does not handle control_request subtype "${request.subtype}"; it handles initialize, interrupt, set_permission_mode and mcp_server_status (mcp_status).`,
      );
  }
}

function hasEntries(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}
