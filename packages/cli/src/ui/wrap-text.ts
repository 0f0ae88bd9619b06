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
  const limit = Math.max(1, width);
  return text.split('\n').flatMap((line) => wrapLine(line, limit));
}

function wrapLine(line: string, width: number): string[] {
  if (columnsOf(line) <= width) return [line];
  const rows: string[] = [];
  let row = '';
  let rowColumns = 0;
  // Words with the spaces before them; the line's own indentation stays on its first row.
  for (const [, spaces = '', word = ''] of line.matchAll(/(\s*)(\S+|$)/g)) {
    if (!word && !spaces) continue;
    // Spaces that would start a continued row are the break itself.
    const lead = row === '' && rows.length > 0 ? '' : spaces;
    const gap = columnsOf(lead);
    const wordColumns = columnsOf(word);
    if (rowColumns + gap + wordColumns <= width) {
      row += lead + word;
      rowColumns += gap + wordColumns;
      continue;
    }
    if (row) rows.push(row);
    row = '';
    rowColumns = 0;
    // A word wider than a row is cut into rows of its own.
    let rest = word;
    while (columnsOf(rest) > width) {
      let cut = '';
      let cutColumns = 0;
      for (const char of rest) {
        const size = columnsOf(char);
        if (cutColumns + size > width) break;
        cut += char;
        cutColumns += size;
      }
      rows.push(cut);
      rest = rest.slice(cut.length);
    }
    row = rest;
    rowColumns = columnsOf(rest);
  }
  if (row || rows.length === 0) rows.push(row);
  return rows;
}
