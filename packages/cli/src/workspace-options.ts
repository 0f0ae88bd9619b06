/**
 * The command-line options every command that opens the workspace shares, parsed before
 * any command runs; kept apart from workspace-tools.ts so that parsing them loads nothing
 * of the core.
 */
import type { Settings } from '@toolhost/core/config';

export interface WorkspaceOptions {
  root?: string;
  includeDirectories?: string[];
  approvalMode?: string;
  /** Settings from command-line flags: the highest layer. */
  overrides?: Settings;
  /** An earlier session's id, when resuming it. */
  sessionId?: string;
  /** `--mcp-config` values: more MCP servers for this run (commands/mcp-manage/). */
  mcpConfig?: string[];
  /** A person answers this session's questions: MCP servers may ask them to visit a page. */
  urlElicitation?: boolean;
}

/** Splits `--include-directories a,b --include-directories c` into folders. */
export function collectDirectories(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((dir) => dir.trim())
      .filter(Boolean),
  ];
}
