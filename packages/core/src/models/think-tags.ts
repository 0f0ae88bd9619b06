/**
 * Some servers (Qwen3 or DeepSeek-R1 behind a server without a reasoning parser) put the
 * reasoning in the answer between `<think>` and `</think>`. This splits a streamed answer
 * into thinking and text, whatever the chunk boundaries.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

export class ThinkTagSplitter {
  private state: 'start' | 'thinking' | 'answer' = 'start';
  private pending = '';

  /** Feeds a chunk of content; returns what is now known to be thinking and answer. */
  push(chunk: string): { thinking: string; text: string } {
    this.pending += chunk;
    let thinking = '';
    let text = '';
    for (;;) {
      if (this.state === 'start') {
        const trimmed = this.pending.trimStart();
        if (trimmed.length < OPEN.length && OPEN.startsWith(trimmed)) break; // undecided yet
        if (trimmed.startsWith(OPEN)) {
          this.pending = trimmed.slice(OPEN.length);
          this.state = 'thinking';
          continue;
        }
        this.state = 'answer';
        continue;
      }
      if (this.state === 'answer') {
        text += this.pending;
        this.pending = '';
        break;
      }
      const end = this.pending.indexOf(CLOSE);
      if (end >= 0) {
        thinking += this.pending.slice(0, end);
        this.pending = this.pending.slice(end + CLOSE.length).replace(/^\s+/, '');
        this.state = 'answer';
        continue;
      }
      // Keep a possible partial closing tag for the next chunk.
      const keep = partialSuffix(this.pending, CLOSE);
      thinking += this.pending.slice(0, this.pending.length - keep);
      this.pending = this.pending.slice(this.pending.length - keep);
      break;
    }
    return { thinking, text };
  }

  /** What is left at the end of the stream. */
  flush(): { thinking: string; text: string } {
    const rest = this.pending;
    this.pending = '';
    return this.state === 'thinking' ? { thinking: rest, text: '' } : { thinking: '', text: rest };
  }
}

function partialSuffix(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
