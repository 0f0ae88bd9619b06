/** Turns the workspace policy's answer into a tool error the model can act on. */
import type { Config } from '../config/config.js';
import type { PathAccess } from '../workspace/workspace-context.js';
import { errorResult, ToolErrorType, type ToolResult } from './tools.js';

export type ResolvedPath =
  | { realPath: string; error?: undefined }
  | { realPath?: undefined; error: ToolResult };

export function resolveToolPath(
  config: Config,
  inputPath: string,
  access: PathAccess,
): ResolvedPath {
  const check = config.workspace.check(inputPath, access);
  if (check.ok) return { realPath: check.realPath };
  const type =
    check.reason === 'not_absolute'
      ? ToolErrorType.INVALID_TOOL_PARAMS
      : ToolErrorType.PATH_NOT_IN_WORKSPACE;
  return { error: errorResult(type, check.message) };
}

/** For `validateSemantics`: a message when `inputPath` is not absolute, else null (no file system access). */
export function requireAbsolute(name: string, inputPath: string, config: Config): string | null {
  const problem = config.workspace.notAbsoluteMessage(inputPath);
  return problem ? `${name}: ${problem}` : null;
}
