/**
 * Plain text wrapped to the screen's width the way a person expects: at spaces, the space
 * at a break dropped (Ink's own wrapping keeps it, starting the next row with a blank), a
 * word longer than the row cut, each row at most `width` columns (wide characters count two).
 */

const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;

export function columnsOf(text: string): number {
  let columns = 0;
  for (const char of text) columns += WIDE.test(char) ? 2 : 1;
  return columns;
}

/** The rows `text` takes at `width` columns (its own line breaks kept). */
export function wrapText(text: string, width: number): string[] {
  return text
    .split('\n')
    .flatMap((line) => wrapRanges(line, width).map(([start, end]) => line.slice(start, end)));
}

/**
 * Where one line (no line breaks) is cut into rows of at most `width` columns, as
 * [start, end) offsets; the spaces at a break belong to no row.
 */
export function wrapRanges(line: string, width: number): [number, number][] {
  const limit = Math.max(1, width);
  if (columnsOf(line) <= limit) return [[0, line.length]];
  const rows: [number, number][] = [];
  let rowStart = -1;
  let rowEnd = 0;
  let rowColumns = 0;
  for (const match of line.matchAll(/(\s*)(\S+)/g)) {
    const spaces = match[1] ?? '';
    const word = match[2] ?? '';
    const wordStart = (match.index ?? 0) + spaces.length;
    // The line's own indentation stays on its first row; spaces at a break are dropped.
    const lead = rowStart < 0 && rows.length > 0 ? 0 : columnsOf(spaces);
    const wordColumns = columnsOf(word);
    if (rowColumns + lead + wordColumns <= limit) {
      if (rowStart < 0) rowStart = rows.length === 0 ? 0 : wordStart;
      rowEnd = wordStart + word.length;
      rowColumns += lead + wordColumns;
      continue;
    }
    if (rowStart >= 0) rows.push([rowStart, rowEnd]);
    // A word wider than a row is cut into rows of its own.
    let at = wordStart;
    const end = wordStart + word.length;
    for (;;) {
      let columns = 0;
      let cut = at;
      for (const char of line.slice(at, end)) {
        const size = columnsOf(char);
        if (columns + size > limit) break;
        columns += size;
        cut += char.length;
      }
      if (cut >= end) {
        rowStart = at;
        rowEnd = end;
        rowColumns = columns;
        break;
      }
      rows.push([at, cut]);
      at = cut;
    }
  }
  if (rowStart >= 0) rows.push([rowStart, rowEnd]);
  return rows.length > 0 ? rows : [[0, line.length]];
}
