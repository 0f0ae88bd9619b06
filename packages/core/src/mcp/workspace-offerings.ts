/**
 * What `toolhost mcp` offers besides tools: the workspace's memory files as read-only
 * resources (the very files the memory loader gives the model, read through it, so a
 * file that leads out of the workspace is neither listed nor read) and the person's
 * command files as prompts, through a source the front end hands in. A resource is read
 * by its listed URI only: no other path can be named. Clients are told when a memory file
 * appears, changes or goes (one watcher per folder, shared by every session).
 */
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config/config.js';
import { loadMemory, memoryFolders } from '../memory/load-memory.js';

export interface OfferedPrompt {
  name: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** The person's command files as prompts; read again on every request, so edits show at once. */
/** Prompts to offer; either answer may be a promise (a source that loads its code on first use). */
export interface PromptSource {
  list(): OfferedPrompt[] | Promise<OfferedPrompt[]>;
  /** The prompt's text for these arguments; undefined when no command has this name. */
  render(
    name: string,
    args: Record<string, string>,
  ): RenderedPrompt | undefined | Promise<RenderedPrompt | undefined>;
}

export interface RenderedPrompt {
  description?: string;
  text: string;
}

/** The capabilities the handlers below answer for. */
export { OFFERING_CAPABILITIES } from './server-identity.js';

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/** Installs the resource and prompt handlers; returns what stops this session's notifications. */
export function serveWorkspaceOfferings(
  server: Server,
  config: Config,
  prompts: PromptSource | undefined,
): () => void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: memoryResources(config).map(({ uri, file }) => ({
      uri,
      name: path.relative(config.workspace.projectRoot, file) || path.basename(file),
      description: 'A memory file toolhost gives the model with its instructions.',
      mimeType: /\.md$/i.test(file) ? 'text/markdown' : 'text/plain',
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const found = memoryResources(config).find((resource) => resource.uri === uri);
    if (!found)
      throw protocolError(
        RESOURCE_NOT_FOUND,
        `${uri} is not one of the resources toolhost offers; call resources/list for the memory files of this workspace.`,
      );
    return {
      contents: [
        {
          uri,
          mimeType: /\.md$/i.test(found.file) ? 'text/markdown' : 'text/plain',
          text: found.content,
        },
      ],
    };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await prompts?.list()) ?? [],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    const rendered = await prompts?.render(name, args);
    if (!rendered)
      throw protocolError(
        ErrorCode.InvalidParams,
        `No prompt is named "${name}"; call prompts/list for the command files toolhost offers.`,
      );
    return {
      ...(rendered.description ? { description: rendered.description } : {}),
      messages: [
        { role: 'user' as const, content: { type: 'text' as const, text: rendered.text } },
      ],
    };
  });
  return watchMemory(config, () => {
    if (server.transport) server.sendResourceListChanged().catch(() => undefined);
  });
}

/** The project's memory files as the model gets them, as resources (the person's own file is not the workspace's). */
function memoryResources(config: Config): { uri: string; file: string; content: string }[] {
  return loadMemory(config, { cwd: config.targetDir }).shown.flatMap(({ file, own, text }) =>
    own ? [] : [{ uri: pathToFileURL(file).href, file, content: text }],
  );
}

function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

interface MemoryWatch {
  watchers: FSWatcher[];
  listeners: Set<() => void>;
  timer?: NodeJS.Timeout;
}

const watches = new WeakMap<Config, MemoryWatch>();

/**
 * Calls `changed` (at most every 200 ms) when a file with a memory file's name changes in
 * a folder the loader reads; the folders are watched while any session listens.
 */
function watchMemory(config: Config, changed: () => void): () => void {
  let shared = watches.get(config);
  if (!shared) {
    const created: MemoryWatch = { watchers: [], listeners: new Set() };
    const names = new Set(config.getContextFileNames());
    const notify = () => {
      clearTimeout(created.timer);
      created.timer = setTimeout(() => {
        for (const listener of created.listeners) listener();
      }, 200);
      created.timer.unref();
    };
    for (const folder of memoryFolders(config, config.targetDir)) {
      try {
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          if (name === null || names.has(name.toString())) notify();
        });
        watcher.on('error', () => undefined);
        created.watchers.push(watcher);
      } catch {
        // A folder that cannot be watched: its files are still listed when asked for.
      }
    }
    watches.set(config, created);
    shared = created;
  }
  const current = shared;
  current.listeners.add(changed);
  return () => {
    current.listeners.delete(changed);
    if (current.listeners.size > 0) return;
    for (const watcher of current.watchers) watcher.close();
    clearTimeout(current.timer);
    watches.delete(config);
  };
}
