/**
 * Rendered Markdown rows that are still wider than the screen (marked-terminal leaves list
 * items and code lines as they are) wrapped here, at spaces, before Ink would cut them:
 * Ink's own wrapping starts the next row at the left edge or with a blank. A list item's
 * further rows hang under its text (past the bullet or number), any other row's under its
 * indentation. Colour codes count no columns and stay with the text they style.
 */
import { wrapRanges } from './wrap-text.js';

const SGR = /\u001b\[[0-9;]*m/g;
const MARKER = /^(\s*)([*•\-+]|\d+[.)])\s+/;

export function hangWrap(rendered: string, width: number): string {
  return rendered
    .split('\n')
    .map((line) => hangWrapLine(line, width))
    .join('\n');
}

function hangWrapLine(raw: string, width: number): string {
  // Where each visible character sits in the raw row (codes in between are zero-width).
  const positions: number[] = [];
  let visible = '';
  let at = 0;
  for (const code of raw.matchAll(SGR)) {
    for (let i = at; i < (code.index ?? 0); i++) {
      positions.push(i);
      visible += raw[i];
    }
    at = (code.index ?? 0) + code[0].length;
  }
  for (let i = at; i < raw.length; i++) {
    positions.push(i);
    visible += raw[i];
  }
  const single = wrapRanges(visible, width);
  if (single.length <= 1) return raw;
  const hang = MARKER.exec(visible)?.[0].length ?? /^ */.exec(visible)?.[0].length ?? 0;
  // Too deep an indent for the width: the rows are wrapped without hanging.
  const indent = hang <= width / 2 ? hang : 0;
  const body = visible.slice(indent);
  const rawAt = (index: number) => positions[index] ?? raw.length;
  const rows = wrapRanges(body, width - indent).map(([start, end], row) => {
    const from = row === 0 ? 0 : rawAt(indent + start);
    const to = rawAt(indent + end);
    return (row === 0 ? '' : ' '.repeat(indent)) + raw.slice(from, to);
  });
  return rows.join('\n');
}
