/**
 * `toolhost mcp add`, `remove` and `list`: the MCP servers of the person's or the project's
 * settings, written with the one settings writer (config/settings-file-edit.ts), as
 * `qwen mcp add` and `claude mcp add` do. `toolhost mcp` alone still serves toolhost's own
 * tools over MCP (mcp-command.ts); this folder only manages the servers toolhost uses.
 */
import path from 'node:path';
import type { McpServerSettings } from '@toolhost/core/config';
import {
  editSettingsFile,
  isFolderTrusted,
  SettingsEditError,
  userSettingsDir,
} from '@toolhost/core/config';
import { UsageError } from '../../errors.js';

export type Scope = 'user' | 'project';

export interface McpAddOptions {
  root?: string;
  scope?: string;
  transport?: string;
  env?: string[];
  header?: string[];
  timeout?: string;
  trust?: boolean;
  description?: string;
  includeTools?: string;
  excludeTools?: string;
}

/** The settings file of a scope, and whether toolhost may follow a link there. */
export function scopeFile(scope: Scope, root: string): { file: string; followLink: boolean } {
  return scope === 'user'
    ? { file: path.join(userSettingsDir(), 'settings.json'), followLink: true }
    : { file: path.join(root, '.toolhost', 'settings.json'), followLink: false };
}

export function parseScope(value: string | undefined, fallback: Scope): Scope {
  if (value === undefined) return fallback;
  if (value === 'user' || value === 'project') return value;
  throw new UsageError(`--scope takes user or project; got "${value}".`);
}

function pairs(values: string[] | undefined, separator: RegExp, flag: string, example: string) {
  const result: Record<string, string> = {};
  for (const value of values ?? []) {
    const match = separator.exec(value);
    if (!match || match.index === 0)
      throw new UsageError(`${flag} takes ${example}; got "${value}".`);
    result[value.slice(0, match.index).trim()] = value.slice(match.index + match[0].length).trim();
  }
  return result;
}

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The mcpServers entry the arguments describe. */
export function serverEntry(
  target: string,
  args: string[],
  options: McpAddOptions,
): McpServerSettings {
  const transport =
    options.transport ?? (/^https?:\/\//i.test(target) && args.length === 0 ? 'http' : 'stdio');
  const entry: McpServerSettings = {};
  if (transport === 'stdio') {
    entry.command = target;
    if (args.length > 0) entry.args = args;
    const env = pairs(options.env, /=/, '-e/--env', 'KEY=VALUE');
    if (Object.keys(env).length > 0) entry.env = env;
    if (options.header?.length)
      throw new UsageError(
        '-H/--header is for servers reached over HTTP (--transport http or sse).',
      );
  } else if (transport === 'http' || transport === 'sse') {
    if (!/^https?:\/\//i.test(target))
      throw new UsageError(
        `--transport ${transport} takes the server's http(s) URL; got "${target}".`,
      );
    if (args.length > 0)
      throw new UsageError(
        `a server reached over HTTP takes no arguments after its URL (${args.join(' ')}).`,
      );
    if (options.env?.length)
      throw new UsageError(
        '-e/--env is for servers toolhost starts (stdio); send -H headers to an HTTP server.',
      );
    if (transport === 'http') entry.httpUrl = target;
    else entry.url = target;
    const headers = pairs(options.header, /:/, '-H/--header', '"Name: value"');
    if (Object.keys(headers).length > 0) entry.headers = headers;
  } else {
    throw new UsageError(`--transport takes stdio, http or sse; got "${transport}".`);
  }
  if (options.timeout !== undefined) {
    const timeout = Number(options.timeout);
    if (!Number.isInteger(timeout) || timeout <= 0)
      throw new UsageError(
        `--timeout takes milliseconds, a whole number above 0; got "${options.timeout}".`,
      );
    entry.timeout = timeout;
  }
  if (options.trust) entry.trust = true;
  if (options.description) entry.description = options.description;
  const include = list(options.includeTools);
  if (include?.length) entry.includeTools = include;
  const exclude = list(options.excludeTools);
  if (exclude?.length) entry.excludeTools = exclude;
  return entry;
}

export async function runMcpAdd(
  name: string,
  target: string | undefined,
  args: string[],
  options: McpAddOptions,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  if (!/^[A-Za-z0-9_-]+$/.test(name) || name.includes('__'))
    throw new UsageError(
      `an MCP server's name takes letters, digits, "_" and "-" (no "__", which separates server and tool in mcp__server__tool); got "${name}".`,
    );
  if (!target)
    throw new UsageError(
      'say how to reach the server: toolhost mcp add <name> <command> [args...], or toolhost mcp add --transport http <name> <url>.',
    );
  const scope = parseScope(options.scope, 'project');
  const root = path.resolve(options.root ?? process.cwd());
  const entry = serverEntry(target, args, options);
  const { file, followLink } = scopeFile(scope, root);
  let replaced = false;
  try {
    await editSettingsFile({ file, followLink }, (current) => {
      const servers = (current as { mcpServers?: Record<string, unknown> }).mcpServers;
      replaced = servers?.[name] !== undefined;
      return [{ path: ['mcpServers', name], value: entry }];
    });
  } catch (error) {
    if (error instanceof SettingsEditError) throw new UsageError(error.message);
    throw error;
  }
  stderr.write(
    `${replaced ? 'Replaced' : 'Added'} MCP server "${name}" in ${file} (${scope} settings).\n`,
  );
  if (scope === 'project' && !isFolderTrusted(root, userSettingsDir()))
    stderr.write(
      `Note: this folder is not trusted, so its settings start no programs and "${name}" is not used until you run toolhost trust (or add it with --scope user).\n`,
    );
  return 0;
}
