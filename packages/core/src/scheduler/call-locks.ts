/**
 * Which file locks a changing call holds while it runs: the real path of each location the
 * tool names, so two calls that reach one file by different paths (a link, `..`) still
 * wait for each other. A location the workspace refuses is locked by its resolved path;
 * the tool itself reports the refusal.
 */
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { AnyTool } from '../tools/tools.js';

export function lockKeys(config: Config, tool: AnyTool, params: Record<string, unknown>): string[] {
  return tool.toolLocations(params).map((location) => {
    const check = config.workspace.check(location.path, 'write');
    return check.ok ? check.realPath : path.resolve(location.path);
  });
}
