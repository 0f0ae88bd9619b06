/** Small text helpers for the screen. */

/** 0.4s, 12s, 3m 05s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** The last `count` lines of a text, and how many were left out before them. */
export function lastLines(text: string, count: number): { lines: string[]; hidden: number } {
  const all = text.replace(/\n+$/, '').split('\n');
  return { lines: all.slice(-count), hidden: Math.max(0, all.length - count) };
}

/** `~/work/app` for a folder under the home folder. */
export function shortPath(folder: string, home: string | undefined): string {
  if (home && (folder === home || folder.startsWith(`${home}/`)))
    return `~${folder.slice(home.length)}`;
  return folder;
}
