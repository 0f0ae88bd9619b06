/**
 * Copying text to the person's clipboard from a terminal app, two ways at once: the OSC 52
 * sequence, which the terminal (or tmux, or an SSH client's terminal) turns into a
 * clipboard write, and the system's clipboard program where one is found (wl-copy, xclip,
 * xsel, pbcopy, clip.exe). Either may be missing; the caller says which worked.
 */
import { spawn } from 'node:child_process';

/** Terminals cap OSC 52 payloads; past this the sequence is not sent. */
const OSC52_MAX_BYTES = 100_000;
const PROGRAM_TIMEOUT_MS = 3000;

export function osc52(text: string): string | undefined {
  const encoded = Buffer.from(text, 'utf8').toString('base64');
  if (encoded.length > OSC52_MAX_BYTES) return undefined;
  return `\u001b]52;c;${encoded}\u0007`;
}

/** A sequence wrapped for tmux to hand to the terminal it runs in (ESC doubled inside). */
export function tmuxPassthrough(sequence: string): string {
  return `\u001bPtmux;${sequence.replace(/\u001b/g, '\u001b\u001b')}\u001b\\`;
}

/** The clipboard programs worth trying here, in order. */
export function clipboardPrograms(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string[][] {
  if (platform === 'darwin') return [['pbcopy']];
  if (platform === 'win32') return [['clip']];
  const programs: string[][] = [];
  if (env.WAYLAND_DISPLAY) programs.push(['wl-copy']);
  if (env.DISPLAY)
    programs.push(['xclip', '-selection', 'clipboard'], ['xsel', '--clipboard', '--input']);
  if (env.WSL_DISTRO_NAME) programs.push(['clip.exe']);
  return programs;
}

function runWithInput(command: string[], input: string): Promise<boolean> {
  return new Promise((resolve) => {
    const [program, ...args] = command;
    if (!program) return resolve(false);
    // xclip keeps running to serve the selection: it is left running, detached.
    const child = spawn(program, args, { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    const timer = setTimeout(() => resolve(true), PROGRAM_TIMEOUT_MS);
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.unref();
  });
}

/** Copies `text`; resolves with the ways that took it (empty when none did). */
export async function copyToClipboard(
  text: string,
  writeToTerminal: (sequence: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const ways: string[] = [];
  const sequence = osc52(text);
  if (sequence) {
    writeToTerminal(sequence);
    // tmux keeps a program's OSC 52 only with set-clipboard on; passed through (with
    // allow-passthrough on) it reaches the terminal tmux runs in.
    if (env.TMUX) writeToTerminal(tmuxPassthrough(sequence));
    ways.push('the terminal (OSC 52)');
  }
  for (const program of clipboardPrograms(env)) {
    if (await runWithInput(program, text)) {
      ways.push(program[0] ?? '');
      break;
    }
  }
  return ways;
}
