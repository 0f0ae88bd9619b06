/**
 * `--mcp-config <file|json>`: more MCP servers for this run only, as Claude Code and Qwen
 * Code take them: a file, or the JSON itself, holding `{ "mcpServers": { ... } }` (or the
 * servers' map alone). Repeatable; later ones win for the same name. They join the
 * command-line layer of the settings, checked like any settings file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { McpServerSettings } from '@toolhost/core/config';
import { parseSettingsText } from '@toolhost/core/config';
import { UsageError } from './errors.js';

export function collectMcpConfig(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function parseText(text: string, where: string): unknown {
  try {
    return parseSettingsText(text, where);
  } catch (error) {
    throw new UsageError(`--mcp-config: ${(error as Error).message}.`);
  }
}

/** The servers the --mcp-config values name, or undefined when none was given. */
export function mcpServersFromFlags(
  values: string[] | undefined,
  cwd = process.cwd(),
): Record<string, McpServerSettings> | undefined {
  if (!values?.length) return undefined;
  const servers: Record<string, McpServerSettings> = {};
  for (const value of values) {
    const inline = value.trimStart().startsWith('{');
    let text = value;
    const where = inline ? 'the JSON given' : value;
    if (!inline) {
      try {
        text = readFileSync(path.resolve(cwd, value), 'utf8');
      } catch (error) {
        throw new UsageError(
          `--mcp-config: cannot read ${value} (${(error as NodeJS.ErrnoException).code ?? String(error)}); give a file or the JSON itself.`,
        );
      }
    }
    const parsed = parseText(text, where);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new UsageError(
        `--mcp-config: ${where} must hold an object, { "mcpServers": { ... } }.`,
      );
    const map = (parsed as { mcpServers?: unknown }).mcpServers ?? parsed;
    if (map === null || typeof map !== 'object' || Array.isArray(map))
      throw new UsageError(
        `--mcp-config: mcpServers in ${where} must be an object of servers by name.`,
      );
    Object.assign(servers, map);
  }
  return servers;
}
