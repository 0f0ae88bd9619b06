/**
 * The rule an "always allow" answer saves to a settings file: the narrowest rule that
 * still covers what the person was asked about, written in Claude Code's vocabulary
 * (which Qwen Code reads too), so the next run allows the same thing without asking.
 */
import path from 'node:path';
import type { ToolCallConfirmationDetails } from '../contract/tool-shapes.js';
import { escapeForPattern } from './path-patterns.js';
import { ruleNameFor } from './tool-vocabulary.js';

/** The rule for a call of `tool` with `params`, asked with `details`; undefined when none fits. */
export function ruleToSave(
  tool: string,
  params: Record<string, unknown>,
  details: ToolCallConfirmationDetails,
): string | undefined {
  switch (details.type) {
    case 'exec': {
      // Several commands would need several rules; one answer saves one.
      const [root, ...more] = details.rootCommands;
      return root && more.length === 0 && !/[()\s]/.test(root) ? `Bash(${root}:*)` : undefined;
    }
    case 'mcp':
      return `mcp__${details.serverName}__${details.toolName}`;
    case 'edit': {
      // The folder, written from the file system's root so the rule means the same anywhere;
      // its wildcard characters escaped, so a folder named `[a]` or `a*` is itself alone.
      const folder = path.dirname(path.resolve(details.filePath));
      return `${ruleNameFor(tool)}(/${escapeForPattern(folder)}/**)`;
    }
    case 'info': {
      if (tool === 'web_fetch' && typeof params.url === 'string') {
        try {
          return `WebFetch(domain:${new URL(params.url).hostname})`;
        } catch {
          return undefined;
        }
      }
      return details.askedByRules?.length ? undefined : ruleNameFor(tool);
    }
    default:
      return undefined;
  }
}
