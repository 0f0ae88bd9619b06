/** `toolhost doctor`: whether this machine can run commands the way toolhost promises. */
import { Config, SETTING_DEFAULTS } from '@toolhost/core/config';
import {
  PROFILE_SUMMARIES,
  type ProfileName,
  type SandboxStatus,
  sandboxStatus,
  shellProgram,
} from '@toolhost/core/shell';

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
  lines.push(`shell: ${shellProgram().file}`);
  const cut = settings.untrustedProject;
  if (cut)
    lines.push(
      `project settings: ${config.targetDir} is not a trusted folder, so ${cut.file} may only make toolhost stricter; left out: ${cut.keys.join(', ')} ("toolhost trust" applies them)`,
    );
  stdout.write(`${lines.join('\n')}\n`);
  return healthy ? 0 : 1;
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

/** What happens to a line proven read-only, given the unasked profile (null: sandbox off). */
function readOnlyLine(unasked: SandboxStatus | null, parseOnly: boolean): string {
  if (unasked?.available)
    return 'read-only commands in default mode: run without asking, in the unasked profile';
  if (parseOnly)
    return 'read-only commands in default mode: run without asking and without a sandbox, on parsing alone (tools.shell.parseOnlyAutoApproval: weaker, a command the parser misjudges runs unconfined)';
  return 'read-only commands in default mode: ask, as the unasked profile does not run (tools.shell.parseOnlyAutoApproval in your own settings would run them on parsing alone: weaker)';
}
