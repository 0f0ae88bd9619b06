/** `toolhost tools`: the active tools and their declarations. */
import type { FunctionDeclaration } from '@toolhost/core';
import type { Style } from '../render.js';
import type { Session } from '../session.js';

export function runToolsCommand(
  session: Session,
  options: { json?: boolean },
  style: Style,
): string {
  const declarations = session.registry.getFunctionDeclarations();
  if (options.json) return JSON.stringify(declarations, null, 2);
  const blocks = session.registry.getAllTools().map((tool) => {
    const head = `${style.bold(tool.name)} ${style.dim(`(${tool.displayName}, ${tool.kind})`)}`;
    const description = indent(tool.description, '  ');
    const parameters = describeParameters(tool.schema);
    return [head, description, parameters].filter(Boolean).join('\n');
  });
  const count = `${declarations.length} tool${declarations.length === 1 ? '' : 's'} active in ${session.config.targetDir}`;
  const unavailable = session.registry
    .getUnavailableTools()
    .map((entry) => `${style.bold(entry.name)} ${style.dim('(not available)')}\n  ${entry.reason}`);
  return [...blocks, ...unavailable, style.dim(count)].join('\n\n');
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
    const description = property.description ? `  ${property.description.split('\n')[0]}` : '';
    return `    ${name}: ${type}${mark}${description}`;
  });
  return `  Parameters:\n${lines.join('\n')}`;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line ? prefix + line : line))
    .join('\n');
}
