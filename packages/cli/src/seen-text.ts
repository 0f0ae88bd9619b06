/**
 * What a person has already read should not be printed to them again: helpers that find
 * the part of a later text the terminal already showed.
 */

/** Lines compared at most; beyond this a repeat is printed rather than searched for. */
const MAX_LINES = 4000;

/**
 * Replaces the longest run of lines of `text` that the person already saw in `seen` with
 * one marker line, when the run is worth hiding (two lines or more, or one long line).
 */
export function elideSeenLines(
  text: string,
  seen: string,
  marker: (lineCount: number) => string,
): string {
  const lines = text.split('\n');
  const seenLines = seen.split('\n');
  if (lines.length > MAX_LINES || seenLines.length > MAX_LINES) return text;
  const run = longestCommonRun(lines, seenLines);
  if (!run) return text;
  const runText = lines.slice(run.start, run.start + run.length).join('\n');
  if (runText.trim() === '' || (run.length < 2 && runText.length < 80)) return text;
  return [
    ...lines.slice(0, run.start),
    marker(run.length),
    ...lines.slice(run.start + run.length),
  ].join('\n');
}

/** The longest run of consecutive equal lines, as a start and length in `a`. */
function longestCommonRun(a: string[], b: string[]): { start: number; length: number } | null {
  let best = { start: 0, length: 0 };
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      current[j] = a[i - 1] === b[j - 1] ? (previous[j - 1] ?? 0) + 1 : 0;
      const length = current[j] ?? 0;
      if (length > best.length) best = { start: i - length, length };
    }
    [previous, current] = [current, previous];
    current.fill(0);
  }
  return best.length > 0 ? best : null;
}

/** The part of `full` not yet printed, when `printed` is where it starts; else all of it. */
export function unseenRest(full: string, printed: string): string {
  if (printed && full.startsWith(printed)) return full.slice(printed.length);
  return full;
}
