/** `toolhost doctor`: whether this machine can run commands the way toolhost promises. */
import { Config, SETTING_DEFAULTS } from '@toolhost/core/config';
import type { LoadedExtensions } from '@toolhost/core/extensions';
import {
  type CoveredPath,
  PROFILE_SUMMARIES,
  type ProfileName,
  resolveCoveredPaths,
  type SandboxStatus,
  sandboxStatus,
  sessionPathRules,
  shellProgram,
} from '@toolhost/core/shell';
import { visibleText } from '@toolhost/core/utils';

export function runDoctorCommand(
  options: { root?: string },
  stdout: NodeJS.WritableStream,
): number {
  const { config, settings } = Config.load({ root: options.root });
  const shellSettings = config.settings.tools?.shell ?? {};
  const setting = shellSettings.sandbox ?? SETTING_DEFAULTS.tools.shell.sandbox;
  const lines: string[] = [];
  let healthy = true;

  const status = sandboxStatus('allow');
  if (status.available) {
    lines.push(`sandbox: works (${status.kind}, ${status.program})`);
    const offline = sandboxStatus('deny');
    lines.push(
      offline.available
        ? 'sandbox without network (tools.shell.network "deny"): works'
        : `sandbox without network (tools.shell.network "deny"): does not work: ${offline.reason}`,
    );
    if (!offline.available && shellSettings.network === 'deny') healthy = false;
  } else {
    healthy = false;
    lines.push(`sandbox: does not work here: ${status.reason}`);
  }
  const effect =
    setting === 'off'
      ? 'off: commands run without the sandbox'
      : setting === 'on'
        ? status.available
          ? 'on: every command runs in the sandbox'
          : 'on: commands are refused until the sandbox works'
        : status.available
          ? 'auto: commands run in the sandbox'
          : 'auto: commands run without the sandbox';
  lines.push(`tools.shell.sandbox: ${effect}`);

  const unasked = sandboxStatus('deny', undefined, undefined, 'unasked');
  const approved = shellSettings.network === 'deny' ? sandboxStatus('deny') : status;
  lines.push(...profileLines('unasked', unasked, setting));
  lines.push(...profileLines('approved', approved, setting));
  lines.push(readOnlyLine(setting === 'off' ? null : unasked, config.parseOnlyAutoApproval));
  const kernel = setting !== 'off' && status.available && status.kind === 'bwrap';
  lines.push(...rulePathLines(config, kernel));
  lines.push(`shell: ${shellProgram().file}`);
  const cut = settings.untrustedProject;
  if (cut)
    lines.push(
      `project settings: ${config.targetDir} is not a trusted folder, so ${cut.file} may only make toolhost stricter; left out: ${cut.keys.join(', ')} ("toolhost trust" applies them)`,
    );
  lines.push(...extensionLines(settings.extensions));
  stdout.write(`${lines.join('\n')}\n`);
  return healthy ? 0 : 1;
}

/** The enabled extensions here, and those that cannot be used. */
function extensionLines(extensions: LoadedExtensions): string[] {
  const on = extensions.active.map(
    (extension) =>
      `extension ${extension.name} ${extension.manifest.version} (${extension.manifest.format}): on, from ${extension.root}`,
  );
  const broken = extensions.all
    .filter((extension) => extension.enabled && extension.problem)
    .map((extension) => `extension ${extension.name}: cannot be used: ${extension.problem}`);
  const off = extensions.all.length - extensions.active.length - broken.length;
  const summary = `extensions: ${extensions.active.length} on${off > 0 ? `, ${off} off` : ''} (toolhost extensions list)`;
  return [summary, ...on, ...broken].map((line) => visibleText(line));
}

/** A profile: whom it is for, whether it runs here, what it hides. */
function profileLines(profile: ProfileName, status: SandboxStatus, setting: string): string[] {
  const runs =
    setting === 'off'
      ? 'not used (tools.shell.sandbox is "off")'
      : status.available
        ? `runs here (${status.kind})`
        : `does not run here: ${status.reason}`;
  const summary = PROFILE_SUMMARIES[profile];
  return [`profile ${profile}, for ${summary.who}: ${runs}`, `  hides: ${summary.hides}`];
}

/** How many covered paths doctor names per effect before "and N more". */
const LISTED = 20;

/**
 * What the person's Read and Edit deny rules cover in this workspace now, and what commands
 * get of it: hidden and read-only under bwrap, a question where the kernel cannot help.
 */
function rulePathLines(config: Config, kernel: boolean): string[] {
  const rules = sessionPathRules(config);
  if (rules.length === 0) return ['deny rules with paths (Read, Edit): none'];
  const covered = resolveCoveredPaths(rules);
  const show = (file: CoveredPath) => {
    const found = config.workspace.relative(file.foundAs);
    const real = file.path === file.foundAs ? '' : ` (really ${file.path})`;
    return `  ${found}${file.folder ? '/' : ''}${real}: ${file.rule}`;
  };
  const list = (title: string, files: CoveredPath[]) => {
    if (files.length === 0) return [`${title}: nothing that exists now`];
    const more = files.length > LISTED ? [`  and ${files.length - LISTED} more`] : [];
    return [`${title}:`, ...files.slice(0, LISTED).map(show), ...more];
  };
  const how = kernel
    ? 'every command runs with them mounted over (bwrap)'
    : 'no bwrap sandbox runs commands here, so a command that could read or change them asks, in every approval mode';
  const lines = [
    `deny rules with paths, for commands: ${how}`,
    ...list(
      'hidden from commands (Read deny)',
      covered.paths.filter((file) => file.effect === 'hide'),
    ),
    ...list(
      'read-only for commands (Edit deny)',
      covered.paths.filter((file) => file.effect === 'read-only'),
    ),
  ];
  for (const rule of covered.unenforced)
    lines.push(
      `not enforced by the kernel: ${rule.rule} in ${rule.source}: ${rule.reason}; commands ask while it is so`,
    );
  if (covered.paths.some((file) => file.effect === 'hide'))
    lines.push(
      "git's object store for commands: not hidden (.git/objects holds every committed version of a file, and cannot be hidden per path); a hidden file that was ever committed can still be printed from it (commands that print blobs ask)",
    );
  return lines;
}

/** What happens to a line proven read-only, given the unasked profile (null: sandbox off). */
function readOnlyLine(unasked: SandboxStatus | null, parseOnly: boolean): string {
  if (unasked?.available)
    return 'read-only commands in default mode: run without asking, in the unasked profile';
  if (parseOnly)
    return 'read-only commands in default mode: run without asking and without a sandbox, on parsing alone (tools.shell.parseOnlyAutoApproval: weaker, a command the parser misjudges runs unconfined)';
  return 'read-only commands in default mode: ask, as the unasked profile does not run (tools.shell.parseOnlyAutoApproval in your own settings would run them on parsing alone: weaker)';
}
