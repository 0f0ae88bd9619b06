/**
 * Where a streaming answer may be cut: the finished blocks go into the history (printed
 * once), and only the unfinished tail is redrawn as more text arrives. A cut is made only
 * at a blank line outside a code fence, before a line that starts a new block (not a
 * list item, an indented continuation, a table row or a quote), so a list, a table or a
 * code block is never rendered in two halves.
 */
const CONTINUES_BLOCK = /^(\s|[-*+>|]|\d+[.)]?$|\d+[.)])/;
const FENCE = /^\s{0,3}(```|~~~)/;
/** Characters of a line still arriving needed to tell whether it starts a list item. */
const ENOUGH_TO_JUDGE = 4;

export function splitFinishedBlocks(text: string): { finished: string; rest: string } {
  const lines = text.split('\n');
  let inFence = false;
  let cut = -1;
  let offset = 0;
  for (let index = 0; index < lines.length - 1; index++) {
    const line = lines[index] ?? '';
    if (FENCE.test(line)) inFence = !inFence;
    offset += line.length + 1;
    if (inFence || line.trim() !== '') continue;
    const next = lines[index + 1] ?? '';
    const stillArriving = index + 1 === lines.length - 1;
    if (next === '' || (stillArriving && next.length < ENOUGH_TO_JUDGE)) continue;
    if (!CONTINUES_BLOCK.test(next)) cut = offset;
  }
  const finished = cut > 0 ? text.slice(0, cut).trimEnd() : '';
  if (!finished) return { finished: '', rest: text };
  return { finished, rest: text.slice(cut) };
}
