/** Registers the built-in tools of a session. */
import type { Config } from '../config/config.js';
import { EditTool } from './edit.js';
import { GlobTool } from './glob.js';
import { GrepTool } from './grep.js';
import { LsTool } from './ls.js';
import { ReadFileTool } from './read-file.js';
import { ReadManyFilesTool } from './read-many-files.js';
import { ShellTool } from './shell.js';
import { ToolRegistry } from './tool-registry.js';
import { WriteFileTool } from './write-file.js';

export function createToolRegistry(config: Config): ToolRegistry {
  const registry = new ToolRegistry(config);
  registry.registerTool(new LsTool(config));
  registry.registerTool(new ReadFileTool(config));
  registry.registerTool(new WriteFileTool(config));
  registry.registerTool(new EditTool(config));
  registry.registerTool(new GrepTool(config));
  registry.registerTool(new GlobTool(config));
  registry.registerTool(new ReadManyFilesTool(config));
  registry.registerTool(new ShellTool(config));
  return registry;
}
