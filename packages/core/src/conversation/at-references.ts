/**
 * `@` references in a prompt: `@src/main.ts` or `@docs/` attach files and folders (read
 * by the read_many_files tool, so its ignore rules, limits and workspace policy apply),
 * `@server:uri` attaches a resource of a connected MCP server. A space in a path is
 * written `\ `. An `@` inside a word (an e-mail address) or naming nothing that exists
 * stays plain text.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { type Part, partsToText, toParts } from '../contract/content.js';
import type { CompletedToolCall } from '../scheduler/tool-call-types.js';
import type { McpServerConnection } from '../tools/mcp-client.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { type IgnoreReason, IgnoreRules } from '../utils/ignore-rules.js';
import type { PromptContent } from './prompt-content.js';

export interface AtReference {
  /** Offsets of the whole token, `@` included. */
  start: number;
  end: number;
  /** What follows the `@`, with `\ ` made a space. */
  target: string;
}

/** Runs one tool call through the app's scheduler (approvals, display) and returns it completed. */
export type ToolRunner = (
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<CompletedToolCall>;

const TOKEN = /(^|\s)@((?:\\.|[^\s\\])*)/g;

export function findAtReferences(text: string): AtReference[] {
  const references: AtReference[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const raw = match[2] ?? '';
    // Sentence punctuation after a reference is not part of it ("see @a.ts, then @b.ts.").
    const target = unescapePath(raw).replace(/(?<=[^.])[.,;:!?)\]}'"`]+$/, '');
    if (!target) continue;
    const start = (match.index ?? 0) + (match[1]?.length ?? 0);
    references.push({ start, end: start + 1 + raw.length, target });
  }
  return references;
}

/** The `@` token the cursor stands at the end of (for completion), or undefined. */
export function atTokenBeforeCursor(text: string, cursor: number): AtReference | undefined {
  const before = text.slice(0, cursor);
  const match = /(^|\s)@((?:\\.|[^\s\\])*)$/.exec(before);
  if (!match) return undefined;
  const start = match.index + (match[1]?.length ?? 0);
  return { start, end: cursor, target: unescapePath(match[2] ?? '') };
}

export function escapePath(target: string): string {
  return target.replace(/([\s\\])/g, '\\$1');
}

function unescapePath(raw: string): string {
  return raw.replace(/\\(.)/g, '$1');
}

export interface AttachResult {
  /** The prompt's text: the person's text, then what the references brought. */
  prompt: string;
  /**
   * What goes to the model: the text alone, or with the attached images and PDFs as parts
   * in the place their file has among the attached files.
   */
  content: PromptContent;
  /** Paths and resources attached, for the person to see. */
  attached: string[];
  /** References that could not be attached, each with its reason. */
  problems: string[];
}

export interface AttachOptions {
  config: Config;
  registry: ToolRegistry;
  runTool: ToolRunner;
  signal: AbortSignal;
}

/** Reads what the prompt's `@` references name and adds it below the person's text. */
export async function attachReferences(
  text: string,
  options: AttachOptions,
): Promise<AttachResult> {
  const references = findAtReferences(text);
  const servers = new Map(options.registry.getMcpServers().map((server) => [server.alias, server]));
  const paths: string[] = [];
  const problems: string[] = [];
  const ignoreRules = new IgnoreRules(options.config.workspace.roots);
  const resources: { server: McpServerConnection; uri: string; label: string }[] = [];
  for (const reference of references) {
    const resource = mcpResourceOf(reference.target, servers);
    if (resource) {
      resources.push({ ...resource, label: reference.target });
      continue;
    }
    if (isGlob(reference.target)) {
      paths.push(reference.target);
      continue;
    }
    const kind = pathKind(options.config, reference.target);
    if (!kind) continue;
    const ignored = ignoreRules.reason(
      path.resolve(options.config.targetDir, reference.target),
      kind === 'dir',
    );
    if (ignored) {
      problems.push(
        `@${reference.target} is left out by ${IGNORED_BY[ignored]}, so it was not attached.`,
      );
      continue;
    }
    paths.push(reference.target);
  }
  const sections: string[] = [];
  const attached: string[] = [];
  // Each section as parts: text, and the files' images and PDFs where they come.
  const sectionParts: Part[][] = [];
  if (paths.length > 0) {
    const unique = [...new Set(paths)];
    const call = await options.runTool('read_many_files', { paths: unique }, options.signal);
    const parts = toParts(call.response.llmContent);
    const content = partsToText(parts).trim();
    const media = parts.filter((part) => part.inlineData || part.fileData);
    if (call.status === 'success' && (content || media.length > 0)) {
      sections.push(`--- Content from referenced files ---\n${content}\n--- End of content ---`);
      sectionParts.push([
        { text: '--- Content from referenced files ---' },
        ...parts,
        { text: '--- End of content ---' },
      ]);
      attached.push(...unique);
    } else {
      problems.push(
        `${unique.map((target) => `@${target}`).join(', ')}: ${call.response.error?.message ?? (content || 'nothing could be read.')}`,
      );
    }
  }
  for (const { server, uri, label } of resources) {
    try {
      const result = await server.readResource(uri, options.signal);
      const texts: string[] = [];
      for (const item of result.contents) {
        if ('text' in item && typeof item.text === 'string') texts.push(item.text);
        else
          texts.push(
            `[${item.mimeType ?? 'binary'} content of ${item.uri} not shown: only text can be attached]`,
          );
      }
      const section = `--- Content from MCP resource ${label} ---\n${texts.join('\n')}\n--- End of content ---`;
      sections.push(section);
      sectionParts.push([{ text: section }]);
      attached.push(label);
    } catch (error) {
      problems.push(`@${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const prompt = sections.length > 0 ? `${text}\n\n${sections.join('\n\n')}` : text;
  const hasMedia = sectionParts.some((parts) => parts.some((part) => part.inlineData));
  const content: PromptContent = hasMedia
    ? [{ text: `${text}\n` }, ...sectionParts.flat()]
    : prompt;
  return { prompt, content, attached, problems };
}

/** `server:uri` where `server` is a configured MCP server's name. */
function mcpResourceOf(
  target: string,
  servers: Map<string, McpServerConnection>,
): { server: McpServerConnection; uri: string } | undefined {
  const colon = target.indexOf(':');
  if (colon <= 0) return undefined;
  const server = servers.get(target.slice(0, colon));
  const uri = target.slice(colon + 1);
  return server && uri ? { server, uri } : undefined;
}

function isGlob(target: string): boolean {
  return /[*?[{]/.test(target);
}

const IGNORED_BY: Record<NonNullable<IgnoreReason>, string> = {
  git: '.gitignore',
  repository: 'git (it is inside .git)',
  toolhost: '.toolhostignore or .qwenignore',
};

function pathKind(config: Config, target: string): 'file' | 'dir' | undefined {
  try {
    return statSync(path.resolve(config.targetDir, target)).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}
