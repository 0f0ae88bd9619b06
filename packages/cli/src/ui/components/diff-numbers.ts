/**
 * Line numbers for a unified diff's rows, read from its hunk headers: a removed line shows
 * its number in the old file, an added or unchanged one its number in the new file, so a
 * person can find the change in the file. Headers and other rows get none.
 */
export interface NumberedDiffLine {
  /** The line's number, or '' for a hunk header and other rows. */
  number: string;
  line: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function numberDiffLines(lines: readonly string[]): NumberedDiffLine[] {
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  return lines.map((line) => {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      return { number: '', line };
    }
    if (!inHunk || line.startsWith('\\')) return { number: '', line };
    if (line.startsWith('-')) return { number: String(oldLine++), line };
    if (line.startsWith('+')) return { number: String(newLine++), line };
    oldLine++;
    return { number: String(newLine++), line };
  });
}
