/**
 * The system's way to open a page in the person's browser (`open` on macOS, `explorer` on
 * Windows, `xdg-open` elsewhere), only where one exists: on Linux and BSD that needs a
 * graphical session and the opener on PATH. Nothing here opens a page unless asked to.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { webLinkProblem } from '@toolhost/core/files';

function openerName(): string {
  if (process.platform === 'darwin') return 'open';
  if (process.platform === 'win32') return 'explorer';
  return 'xdg-open';
}

/** The opener's name when a browser can be shown here, else undefined. */
export function systemOpener(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const name = openerName();
  if (process.platform === 'darwin' || process.platform === 'win32') return name;
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return name;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/**
 * Opens the page with the system's opener, detached; a failure leaves the printed link.
 * Only web pages: the opener would also open a file or start a custom-scheme handler.
 */
export function openInBrowser(url: string, opener: string | undefined = systemOpener()): void {
  if (!opener || webLinkProblem(url)) return;
  try {
    // The URL is one argument, never parsed by a shell.
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The person uses the printed link.
  }
}
