/** `toolhost tools`: the active tools and their declarations. */

import type { FunctionDeclaration } from '@toolhost/core/tools';
import { visibleText } from '@toolhost/core/utils';
import type { Style } from '../render.js';
import type { WorkspaceTools } from '../workspace-tools.js';

/**
 * The listing for stdout. Failures of tool sources also go to `warn` (standard error) in
 * every output mode, so a script reading `--json` still learns that tools are missing.
 */
export function runToolsCommand(
  session: WorkspaceTools,
  options: { json?: boolean },
  style: Style,
  warn: (line: string) => void,
): string {
  for (const problem of sourceProblems(session)) warn(`warning: ${v(problem)}`);
  const declarations = session.registry.getFunctionDeclarations();
  if (options.json) return JSON.stringify(declarations, null, 2);
  const agentOnly = AGENT_ONLY_TOOLS.filter(
    (tool) => !session.registry.getRegisteredTool(tool.name),
  );
  const blocks = session.registry.getAllTools().map((tool) => {
    const head = `${style.bold(v(tool.name))} ${style.dim(`(${v(tool.displayName)}, ${tool.kind})`)}`;
    const description = indent(visibleText(tool.description, { multiline: true }), '  ');
    const parameters = describeParameters(tool.schema);
    return [head, description, parameters].filter(Boolean).join('\n');
  });
  const count = `${declarations.length} tool${declarations.length === 1 ? '' : 's'} active in ${session.config.targetDir}${agentOnly.length > 0 ? `; an agent session adds ${agentOnly.length}` : ''}`;
  const unavailable = session.registry
    .getUnavailableTools()
    .map(
      (entry) =>
        `${style.bold(v(entry.name))} ${style.dim('(not available)')}\n  ${v(entry.reason)}`,
    );
  const off = session.registry
    .getInactiveTools()
    .map((entry) => `${style.bold(entry.name)} ${style.dim('(off)')}\n  ${entry.reason}`);
  const agentBlocks = agentOnly.map(
    (entry) => `${style.bold(entry.name)} ${style.dim('(agent sessions only)')}\n  ${entry.reason}`,
  );
  return [
    ...blocks,
    ...agentBlocks,
    ...unavailable,
    ...off,
    ...describeSources(session, style),
    style.dim(count),
  ].join('\n\n');
}

/**
 * Tools the agent registers itself, because they need a model: a model that `toolhost -p`
 * or the terminal talks to gets them, `toolhost call` cannot run them.
 */
const AGENT_ONLY_TOOLS = [
  {
    name: 'task',
    reason:
      'Hands a piece of work to a subagent (a model of its own, with the subagents found for this project); the agent adds it, `toolhost call` cannot run it.',
  },
  {
    name: 'tool_search',
    reason:
      'Finds MCP tools whose declarations are held back when there are too many to declare (past 128 tools or a tenth of the context window; tools.deferLoading); the agent offers it only then.',
  },
];
/** A server's or a discovered tool's text on one line, made visible (see visibleText). */
const v = (text: string) => visibleText(text);

/** One line per MCP server that failed or left tools out, and for a failed discovery command. */
function sourceProblems(session: WorkspaceTools): string[] {
  const problems: string[] = [];
  for (const server of session.registry.getMcpServers()) {
    if (server.status !== 'connected') {
      problems.push(
        `MCP server ${server.alias}: ${server.status}${server.error ? `, ${server.error}` : ''}`,
      );
    }
    for (const tool of server.rejectedTools) {
      problems.push(`MCP server ${server.alias}: tool ${tool.name} left out: ${tool.reason}`);
    }
  }
  const discoveryError = session.registry.getDiscoveryError();
  if (discoveryError) problems.push(`tool discovery failed: ${discoveryError}`);
  return problems;
}

/** Resources listed per server; a server may offer thousands. */
const SHOWN_RESOURCES = 10;

/** MCP servers and the discovery command: status, tool counts, errors, prompts, resources. */
function describeSources(session: WorkspaceTools, style: Style): string[] {
  const lines: string[] = [];
  const servers = session.registry.getMcpServers();
  if (servers.length > 0) {
    const rows = servers.map((server) => {
      const tools = session.registry.getToolsByServer(server.alias).length;
      const mark =
        server.status === 'connected' ? style.green(server.status) : style.red(server.status);
      const problems = [
        server.error,
        ...server.rejectedTools.map((t) => `tool ${t.name} left out: ${t.reason}`),
      ]
        .filter((problem): problem is string => Boolean(problem))
        .map(v);
      const prompts =
        server.prompts.length > 0
          ? `, ${server.prompts.length} prompt${server.prompts.length === 1 ? '' : 's'}`
          : '';
      const resourceCount = server.resources.length + server.resourceTemplates.length;
      const resources =
        resourceCount > 0 ? `, ${resourceCount} resource${resourceCount === 1 ? '' : 's'}` : '';
      const offered = [
        ...server.prompts.map(
          (prompt) =>
            `prompt ${style.bold(v(prompt.name))}${prompt.arguments.length ? `(${v(prompt.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(', '))})` : ''}${prompt.description ? ` ${style.dim(v(prompt.description))}` : ''}`,
        ),
        ...server.resources
          .slice(0, SHOWN_RESOURCES)
          .map(
            (resource) =>
              `resource ${style.bold(v(resource.uri))}${resource.name !== resource.uri ? ` ${style.dim(v(resource.name))}` : ''}`,
          ),
        ...(server.resources.length > SHOWN_RESOURCES
          ? [style.dim(`... and ${server.resources.length - SHOWN_RESOURCES} more resources`)]
          : []),
        ...server.resourceTemplates.map(
          (template) => `resource template ${style.bold(v(template.uriTemplate))}`,
        ),
      ];
      return `  ${server.alias}: ${mark}, ${tools} tool${tools === 1 ? '' : 's'}${prompts}${resources}${problems.map((p) => `\n    ${p}`).join('')}${offered.map((line) => `\n    ${line}`).join('')}`;
    });
    lines.push(`${style.bold('MCP servers')}\n${rows.join('\n')}`);
  }
  const discoveryError = session.registry.getDiscoveryError();
  if (discoveryError)
    lines.push(`${style.bold('Tool discovery')}\n  ${style.red(v(discoveryError))}`);
  return lines;
}

function describeParameters(declaration: FunctionDeclaration): string {
  const schema = declaration.parametersJsonSchema as
    | {
        properties?: Record<
          string,
          { type?: unknown; description?: string; items?: { type?: unknown } }
        >;
        required?: string[];
      }
    | undefined;
  const properties = Object.entries(schema?.properties ?? {});
  if (properties.length === 0) return '  Parameters: none';
  const required = new Set(schema?.required ?? []);
  const lines = properties.map(([name, property]) => {
    const type =
      property.type === 'array'
        ? `${String(property.items?.type ?? 'any')}[]`
        : String(property.type ?? 'any');
    const mark = required.has(name) ? ' (required)' : '';
    const description = property.description
      ? `  ${v(property.description.split('\n')[0] ?? '')}`
      : '';
    return `    ${v(name)}: ${type}${mark}${description}`;
  });
  return `  Parameters:\n${lines.join('\n')}`;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line ? prefix + line : line))
    .join('\n');
}
