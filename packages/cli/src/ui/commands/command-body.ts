/**
 * A user command's body made into a prompt: `$ARGUMENTS` / `{{args}}` and `$1`..`$9`
 * replaced, `@{path}` made an `@` reference (attached like a typed one), and `!{command}`
 * run through run_shell_command (its approvals) with its output put in its place, the
 * arguments inside it quoted for the shell.
 */

import type { ToolRunner } from '@toolhost/core/conversation';
import { escapePath } from '@toolhost/core/conversation';
import { partsToText } from '@toolhost/core/tools';

const PLACEHOLDER = /\$ARGUMENTS\b|\{\{args\}\}|\$([1-9])(?!\d)/g;

/** Whether a body uses its arguments anywhere. */
export function usesArguments(body: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(body);
}

/**
 * The prompt for these arguments, `!{}` blocks left as written. Without a placeholder,
 * the arguments follow the body after a blank line, so they are never lost.
 */
export function expandCommandBody(body: string, args: string): string {
  return withArguments(body, args, expandText(body, args));
}

export type RenderedBody = { prompt: string } | { error: string };

/** expandCommandBody, with each `!{command}` run (approval asked) and replaced by its output. */
export async function renderCommandBody(
  body: string,
  args: string,
  runTool: ToolRunner,
  signal: AbortSignal,
): Promise<RenderedBody> {
  const pieces: string[] = [];
  for (const segment of splitShellBlocks(body)) {
    if (segment.kind === 'text') {
      pieces.push(expandText(segment.text, args));
      continue;
    }
    const command = substitute(segment.text, args, shellQuote).trim();
    if (!command) continue;
    const call = await runTool(
      'run_shell_command',
      { command, is_background: false, description: 'Run for a custom command' },
      signal,
    );
    if (call.status === 'cancelled') {
      return {
        error: `\`${command}\` was not run, so the command stopped before sending anything.`,
      };
    }
    pieces.push(partsToText(call.response.llmContent).trim());
  }
  return { prompt: withArguments(body, args, pieces.join('')) };
}

/**
 * The prompt for a client that runs nothing on toolhost's side (an MCP prompt): each
 * `!{command}` becomes a request that the model run it, so the command still goes through
 * run_shell_command and its approvals when the model calls it.
 */
export function promptWithoutRunning(body: string, args: string): string {
  const pieces = splitShellBlocks(body).map((segment) => {
    if (segment.kind === 'text') return expandText(segment.text, args);
    const command = substitute(segment.text, args, shellQuote).trim();
    return command ? `[run \`${command}\` with run_shell_command and use its output here]` : '';
  });
  return withArguments(body, args, pieces.join(''));
}

function withArguments(body: string, args: string, expanded: string): string {
  return usesArguments(body) || !args ? expanded : `${expanded}\n\n${args}`;
}

function expandText(text: string, args: string): string {
  return substitute(text, args, (value) => value).replace(
    /@\{([^}]+)\}/g,
    (_all, target: string) => `@${escapePath(target.trim())}`,
  );
}

function substitute(text: string, args: string, quote: (value: string) => string): string {
  const words = splitWords(args);
  return text.replace(PLACEHOLDER, (_all, digit: string | undefined) =>
    quote(digit === undefined ? args : (words[Number(digit) - 1] ?? '')),
  );
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

type Segment = { kind: 'text' | 'shell'; text: string };

/** Text and `!{...}` blocks (braces inside a block must balance). */
export function splitShellBlocks(body: string): Segment[] {
  const segments: Segment[] = [];
  let index = 0;
  while (index < body.length) {
    const start = body.indexOf('!{', index);
    if (start === -1) break;
    let depth = 0;
    let end = -1;
    for (let at = start + 1; at < body.length; at += 1) {
      if (body[at] === '{') depth += 1;
      else if (body[at] === '}' && --depth === 0) {
        end = at;
        break;
      }
    }
    if (end === -1) break;
    if (start > index) segments.push({ kind: 'text', text: body.slice(index, start) });
    segments.push({ kind: 'shell', text: body.slice(start + 2, end) });
    index = end + 1;
  }
  if (index < body.length) segments.push({ kind: 'text', text: body.slice(index) });
  return segments;
}

/** Words as a shell would split them: quotes group, a backslash escapes. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|((?:[^\s"'\\]|\\.)+)/g;
  for (const match of text.matchAll(pattern)) {
    const word = match[1] ?? match[2] ?? match[3] ?? '';
    words.push(match[2] !== undefined ? word : word.replace(/\\(.)/g, '$1'));
  }
  return words;
}
