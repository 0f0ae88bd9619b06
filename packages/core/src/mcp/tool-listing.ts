/**
 * How toolhost's tools are listed to an MCP client: name, title, description, input schema
 * and the annotations their kinds imply. The SDK's server (mcp-server.ts) and the stdio
 * opening that answers before the SDK loads (stdio-opening.ts) both list through here, so
 * a client sees the same list whichever answered.
 */
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { Kind } from '../tools/tools.js';
import { toolTitle } from './tool-titles.js';

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

/** Every active tool of the registry, as a `tools/list` result lists it. */
export function listedTools(registry: ToolRegistry): Tool[] {
  return registry.getAllTools().map((tool) => {
    const title = toolTitle(tool.name, tool.displayName);
    return {
      name: tool.name,
      title,
      description: tool.description,
      inputSchema: { type: 'object' as const, ...tool.parameterSchema },
      annotations: annotationsForKind(tool.kind, title),
    };
  });
}
