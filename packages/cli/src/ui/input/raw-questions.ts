/**
 * Questions asked on the raw terminal before the app opens (the trust question, the model
 * setup guide), with the same rules as the app's questions: keys typed before a question
 * was shown never answer it (the guide waits for a pause in typing and drops them), each
 * key of a burst is read in turn, a secret is masked as it is typed, and text is wrapped
 * at spaces to the terminal's width.
 */

import { wrapText } from '../wrap-text.js';
import { TYPEAHEAD_PAUSE_MS } from './question-keys.js';

export const CTRL_C = '\u0003';
export const ESCAPE = '\u001b';

/** Text wrapped at spaces to the terminal's width (each line's indent kept on its rows). */
export function wrapForTerminal(text: string, columns: number | undefined): string {
  const width = Math.max(20, (columns ?? 80) - 1);
  return text
    .split('\n')
    .map((line) => {
      const indent = /^ */.exec(line)?.[0] ?? '';
      return wrapText(line.slice(indent.length), width - indent.length)
        .map((row) => indent + row)
        .join('\n');
    })
    .join('\n');
}

/** Raw mode on and stdin flowing into `onData` until the returned function is called. */
function listenRaw(stdin: NodeJS.ReadStream, onData: (text: string) => void): () => void {
  const wasRaw = stdin.isRaw;
  stdin.setRawMode(true);
  const listener = (data: Buffer) => onData(data.toString('utf8'));
  stdin.on('data', listener);
  stdin.resume();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    stdin.off('data', listener);
    stdin.setRawMode(wasRaw);
    stdin.pause();
  };
}

/**
 * Drops what the person typed before the question: waits until no key has come for the
 * typing pause. Ctrl+C among the dropped keys is kept: the answer is `quit`.
 */
export function dropTypeahead(stdin: NodeJS.ReadStream): Promise<'quit' | undefined> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (answer: 'quit' | undefined) => {
      clearTimeout(timer);
      stop();
      resolve(answer);
    };
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(undefined), TYPEAHEAD_PAUSE_MS);
    };
    const stop = listenRaw(stdin, (text) => {
      if (text.includes(CTRL_C)) finish('quit');
      else wait();
    });
    wait();
  });
}

/** The next key typed, one at a time even when several came in one read. */
export function keyReader(stdin: NodeJS.ReadStream): {
  next(): Promise<string>;
  close(): void;
} {
  const queued: string[] = [];
  let waiting: ((key: string) => void) | undefined;
  const stop = listenRaw(stdin, (text) => {
    // An escape sequence (an arrow) is one key; other characters one each.
    for (const match of text.matchAll(/\u001b\[[0-9;]*[A-Za-z~]|\u001bO[A-Z]|\u001b.?|[\s\S]/gu))
      queued.push(match[0]);
    const resolve = waiting;
    const key = queued.shift();
    if (resolve && key !== undefined) {
      waiting = undefined;
      resolve(key);
    }
  });
  return {
    next: () =>
      new Promise((resolve) => {
        const key = queued.shift();
        if (key !== undefined) resolve(key);
        else waiting = resolve;
      }),
    close: stop,
  };
}

/**
 * A line typed as a secret: each character shown as `*`, Backspace takes one back, Enter
 * ends it; undefined when the person leaves (Ctrl+C, Ctrl+D on an empty line).
 */
export async function readSecret(
  stdin: NodeJS.ReadStream,
  stdout: NodeJS.WriteStream,
): Promise<string | undefined> {
  const keys = keyReader(stdin);
  let secret = '';
  try {
    for (;;) {
      const key = await keys.next();
      if (key === CTRL_C || (key === '\u0004' && secret === '')) return undefined;
      if (key === '\r' || key === '\n') {
        stdout.write('\n');
        return secret;
      }
      if (key === '\u007f' || key === '\b') {
        if (!secret) continue;
        secret = [...secret].slice(0, -1).join('');
        stdout.write('\b \b');
        continue;
      }
      // Arrows, paste markers and other control keys are not part of a key.
      if (key.startsWith(ESCAPE) || key < ' ') continue;
      secret += key;
      stdout.write('*');
    }
  } finally {
    keys.close();
  }
}
