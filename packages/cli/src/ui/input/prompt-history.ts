/**
 * The prompts a person sent in one project, kept across runs in
 * `~/.toolhost/prompt-history/<project>.jsonl` (one JSON string a line, appended as each
 * prompt is sent, so two terminals in one project both keep theirs), and searched
 * newest first by Ctrl+R.
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Older entries are dropped once the file holds twice this many. */
export const MAX_HISTORY_ENTRIES = 1000;

export function promptHistoryFile(userDir: string, projectRoot: string): string {
  return path.join(userDir, 'prompt-history', `${projectRoot.replace(/[^a-zA-Z0-9]/g, '-')}.jsonl`);
}

export class PromptHistory {
  private items: string[];

  /** @param file where the history is kept; without one, it lasts for this run only. */
  constructor(
    private readonly file?: string,
    entries: string[] = [],
  ) {
    this.items = entries;
  }

  /** Reads the project's history; a missing or damaged file gives what can be read. */
  static load(file: string): PromptHistory {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return new PromptHistory(file);
    }
    const entries: string[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value === 'string' && value.trim()) entries.push(value);
      } catch {
        // A line cut by a crash: the others are still good.
      }
    }
    const history = new PromptHistory(file, dropRepeats(entries).slice(-MAX_HISTORY_ENTRIES));
    if (entries.length > 2 * MAX_HISTORY_ENTRIES) history.rewrite();
    return history;
  }

  /** Oldest first. */
  get entries(): readonly string[] {
    return this.items;
  }

  /** Remembers a sent prompt (a repeat of the latest is kept once). */
  add(prompt: string): void {
    if (!prompt.trim() || this.items.at(-1) === prompt) return;
    this.items.push(prompt);
    if (this.items.length > MAX_HISTORY_ENTRIES) this.items.shift();
    if (!this.file) return;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      appendFileSync(this.file, `${JSON.stringify(prompt)}\n`);
    } catch {
      // History is a convenience: a read-only home must not stop the session.
    }
  }

  /**
   * The newest entry before `before` (an index into entries; all of them by default)
   * containing `query`, ignoring case; -1 when there is none.
   */
  search(query: string, before = this.items.length): number {
    const wanted = query.toLowerCase();
    for (let index = Math.min(before, this.items.length) - 1; index >= 0; index -= 1) {
      if ((this.items[index] ?? '').toLowerCase().includes(wanted)) return index;
    }
    return -1;
  }

  private rewrite(): void {
    if (!this.file) return;
    try {
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, this.items.map((item) => `${JSON.stringify(item)}\n`).join(''));
      // Renamed over the file so a crash leaves the old history or the new one.
      renameSync(temporary, this.file);
    } catch {
      // Keeping the long file is harmless.
    }
  }
}

/** Consecutive repeats collapse to one. */
function dropRepeats(entries: string[]): string[] {
  return entries.filter((entry, index) => index === 0 || entries[index - 1] !== entry);
}
