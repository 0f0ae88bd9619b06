/**
 * What run_shell_command needs only once it is called: the sandbox, the permission analysis
 * (with the check for an approval that covers every call), the read-only git settings and the
 * deny rules' covered paths, imported on the first call so that listing the tools does not
 * load them; and the Edit rules a line's output files are judged by. tools/shell.ts imports
 * this module itself on the first call, too, and reaches all of it through the runtime.
 */
import type { Config } from '../config/config.js';
import { PROMPT_FOLDER_ROOTS } from '../config/prompt-folders.js';
import { SETTING_DEFAULTS } from '../contract/settings-types.js';
import { sessionRules } from '../permissions/call-rules.js';
import { decideCall } from '../permissions/decision.js';
import type { CommandSandbox, SandboxSettings } from '../shell/sandbox/sandbox.js';

/** The Edit rules a line's output files are judged by (shell/write-targets.ts). */
export function editRules(config: Config) {
  const rules = sessionRules(config);
  const bases = { projectRoot: config.workspace.projectRoot, homeDir: config.homeDir };
  return {
    writeRule: (file: string) => {
      const call = { tool: 'write_file', displayName: 'WriteFile', paths: [file] };
      const verdict = decideCall(rules, call, bases);
      return (
        verdict && { kind: verdict.kind, rule: `${verdict.rule.entry} in ${verdict.rule.source}` }
      );
    },
    editDenyRules: rules.deny.some((rule) => rule.tools?.includes('write_file')),
    editAskRules: rules.ask
      .filter((rule) => rule.tools?.includes('write_file'))
      .map((rule) => `${rule.entry} in ${rule.source}`),
  };
}

/** The session's `tools.shell.sandbox` and `tools.shell.network`, defaults applied. */
export function sandboxSettings(config: Config): SandboxSettings {
  const shell = config.settings.tools?.shell;
  const defaults = SETTING_DEFAULTS.tools.shell;
  return {
    sandbox: shell?.sandbox ?? defaults.sandbox,
    network: shell?.network ?? defaults.network,
  };
}

/**
 * The folders at each workspace root the sandbox keeps read-only besides `.git`: those
 * later sessions load prompts and settings from (config/prompt-folders.ts).
 */
export const SANDBOX_PROMPT_FOLDERS = PROMPT_FOLDER_ROOTS;

export type ShellRuntime = Awaited<ReturnType<typeof loadShellRuntime>> & {
  sandbox: CommandSandbox;
};

export async function loadShellRuntime() {
  const [sandbox, profiles, permissions, git, covered, gap, approval] = await Promise.all([
    import('../shell/sandbox/sandbox.js'),
    import('../shell/sandbox/profiles/profiles.js'),
    import('../shell/shell-permissions.js'),
    import('../shell/git-read-only.js'),
    import('../permissions/covered-paths.js'),
    import('../shell/sandbox/rule-paths/rule-gap.js'),
    import('../permissions/approval-rules.js'),
  ]);
  return {
    CommandSandbox: sandbox.CommandSandbox,
    homeFolders: sandbox.homeFolders,
    sandboxFailureHint: sandbox.sandboxFailureHint,
    profileFor: profiles.profileFor,
    decideShell: permissions.decideShell,
    readOnlyGitEnvironment: git.readOnlyGitEnvironment,
    coveredPaths: (config: Config) => covered.resolveCoveredPaths(covered.sessionPathRules(config)),
    ruleGap: gap.ruleGap,
    isAllowedWithoutAsking: approval.isAllowedWithoutAsking,
    editRules,
    promptFolders: SANDBOX_PROMPT_FOLDERS,
  };
}
