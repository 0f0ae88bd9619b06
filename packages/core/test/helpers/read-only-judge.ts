/**
 * How the shell tool's permission check answers a command line in `default` mode with no
 * allow or deny rules: the real command analysis and the real read-only allow-list, run
 * in a temporary workspace (so only the allow-list can let a command run unasked).
 */
import { analyzeCommand } from '../../src/shell/command-analysis.js';
import { decideShell } from '../../src/shell/shell-permissions.js';
import type { TempWorkspace } from './temp-workspace.js';

export async function judgeReadOnly(ws: TempWorkspace, command: string, cwd = ws.root) {
  return decideShell(await analyzeCommand(command), {
    allowRules: [],
    denyRules: [],
    sessionAllowed: new Set(),
    readOnly: {
      cwd,
      canRead: (file) => ws.config.workspace.check(file, 'read').ok,
      homeDir: ws.home,
    },
  });
}
