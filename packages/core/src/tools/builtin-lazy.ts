/**
 * The built-in tools loaded one module at a time, for a command that runs one tool
 * (`toolhost call`): the tool it calls is loaded at once, the others are only named (so
 * discovered tools are named around them) until something must list them
 * (ToolCatalog.loadDeferredBuiltins). createToolRegistry (builtin.ts) loads every module up
 * front for the library; builtin-lazy.test.ts checks that both give the same tools, in the
 * same order, with the same declarations.
 */
import type { Config } from '../config/config.js';
import type { BuiltinOptions } from './builtin.js';
import { TOOL_NAME_ALIASES } from './tool-catalog.js';
import { ToolRegistry } from './tool-registry.js';
import type { AnyTool } from './tools.js';
import { configureSearch, type SearchSetup } from './web-search-setup.js';

type Make = (config: Config, options: BuiltinOptions, search: SearchSetup) => Promise<AnyTool>;

/** Every built-in, in createToolRegistry's order; web_search only when a provider is set up. */
const BUILTINS: readonly [string, Make][] = [
  ['list_directory', async (config) => new (await import('./ls.js')).LsTool(config)],
  ['read_file', async (config) => new (await import('./read-file.js')).ReadFileTool(config)],
  ['write_file', async (config) => new (await import('./write-file.js')).WriteFileTool(config)],
  ['edit', async (config) => new (await import('./edit.js')).EditTool(config)],
  ['grep_search', async (config) => new (await import('./grep.js')).GrepTool(config)],
  ['glob', async (config) => new (await import('./glob.js')).GlobTool(config)],
  [
    'read_many_files',
    async (config) => new (await import('./read-many-files.js')).ReadManyFilesTool(config),
  ],
  ['run_shell_command', async (config) => new (await import('./shell.js')).ShellTool(config)],
  [
    'web_fetch',
    async (config, options) =>
      new (await import('./web-fetch.js')).WebFetchTool(config, options.webFetch),
  ],
  [
    'web_search',
    async (_config, _options, search) => {
      if (!search.configured) throw new Error('web_search is offered only with a provider');
      return new (await import('./web-search.js')).WebSearchTool(search.provider);
    },
  ],
  ['save_memory', async (config) => new (await import('./memoryTool.js')).MemoryTool(config)],
  ['todo_write', async (config) => new (await import('./todoWrite.js')).TodoWriteTool(config)],
  [
    'exit_plan_mode',
    async (config) => new (await import('./exitPlanMode.js')).ExitPlanModeTool(config),
  ],
];

/** The names of every built-in tool createToolRegistry may register, in its order. */
export const BUILTIN_TOOL_NAMES: readonly string[] = BUILTINS.map(([name]) => name);

/**
 * A registry with the built-in that `toolName` calls (by its name or an alias) loaded, and
 * the other built-ins deferred: the same registry as createToolRegistry's once
 * loadDeferredBuiltins has run.
 */
export async function createToolRegistryFor(
  config: Config,
  toolName: string,
  options: BuiltinOptions = {},
): Promise<ToolRegistry> {
  const registry = new ToolRegistry(config);
  const search = configureSearch(
    config.settings,
    options.env ?? process.env,
    undefined,
    config.untrustedEndpoints,
  );
  if (!search.configured) registry.markUnavailable('web_search', search.reason);
  const offered = BUILTINS.filter(([name]) => name !== 'web_search' || search.configured);
  const made = new Map<string, Promise<AnyTool>>();
  const make = ([name, create]: [string, Make]) => {
    let tool = made.get(name);
    if (!tool) {
      tool = create(config, options, search);
      made.set(name, tool);
    }
    return tool;
  };
  const wanted = new Set([toolName, TOOL_NAME_ALIASES[toolName]]);
  for (const builtin of offered)
    if (wanted.has(builtin[0])) registry.registerTool(await make(builtin));
  registry.deferBuiltins(
    offered.map(([name]) => name),
    () => Promise.all(offered.map(make)),
  );
  return registry;
}
