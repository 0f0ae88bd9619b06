/** Registers the built-in tools of a session. */
import type { Config } from '../config/config.js';
import { EditTool } from './edit.js';
import { ExitPlanModeTool } from './exitPlanMode.js';
import { GlobTool } from './glob.js';
import { GrepTool } from './grep.js';
import { LsTool } from './ls.js';
import { MemoryTool } from './memoryTool.js';
import { ReadFileTool } from './read-file.js';
import { ReadManyFilesTool } from './read-many-files.js';
import { ShellTool } from './shell.js';
import { TodoWriteTool } from './todoWrite.js';
import { ToolRegistry } from './tool-registry.js';
import { type WebFetchOptions, WebFetchTool } from './web-fetch.js';
import { WebSearchTool } from './web-search.js';
import { configureSearch } from './web-search-setup.js';
import { WriteFileTool } from './write-file.js';

export interface BuiltinOptions {
  /** Environment for API keys (default: process.env). */
  env?: NodeJS.ProcessEnv;
  webFetch?: WebFetchOptions;
}

export function createToolRegistry(config: Config, options: BuiltinOptions = {}): ToolRegistry {
  const registry = new ToolRegistry(config);
  registry.registerTool(new LsTool(config));
  registry.registerTool(new ReadFileTool(config));
  registry.registerTool(new WriteFileTool(config));
  registry.registerTool(new EditTool(config));
  registry.registerTool(new GrepTool(config));
  registry.registerTool(new GlobTool(config));
  registry.registerTool(new ReadManyFilesTool(config));
  registry.registerTool(new ShellTool(config));
  registry.registerTool(new WebFetchTool(config, options.webFetch));
  const search = configureSearch(
    config.settings,
    options.env ?? process.env,
    undefined,
    config.untrustedEndpoints,
  );
  if (search.configured) registry.registerTool(new WebSearchTool(search.provider));
  else registry.markUnavailable(WebSearchTool.Name, search.reason);
  registry.registerTool(new MemoryTool(config));
  registry.registerTool(new TodoWriteTool(config));
  registry.registerTool(new ExitPlanModeTool(config));
  return registry;
}
