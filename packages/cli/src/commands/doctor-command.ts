/** `toolhost doctor`: whether this machine can run commands the way toolhost promises. */
import { Config } from '@toolhost/core/internal/config/config.js';
import { SETTING_DEFAULTS } from '@toolhost/core/internal/config/settings-types.js';
import { sandboxStatus } from '@toolhost/core/internal/shell/sandbox/sandbox.js';
import { shellProgram } from '@toolhost/core/internal/shell/shell-execution.js';

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
  lines.push(`shell: ${shellProgram().file}`);
  const cut = settings.untrustedProject;
  if (cut)
    lines.push(
      `project settings: ${config.targetDir} is not a trusted folder, so ${cut.file} may only make toolhost stricter; left out: ${cut.keys.join(', ')} ("toolhost trust" applies them)`,
    );
  stdout.write(`${lines.join('\n')}\n`);
  return healthy ? 0 : 1;
}
