/**
 * Renders tool results and confirmation details for a person in a terminal. Everything from
 * a tool, a model or a server goes through visibleText before it is styled, so only the
 * styles added here reach the terminal as escape sequences.
 */

import type {
  FileDiff,
  ToolCallConfirmationDetails,
  ToolResultDisplay,
} from '@toolhost/core/tools';
import { visibleConfirmation, visibleText } from '@toolhost/core/utils';

const lines = (text: string) => visibleText(text, { multiline: true });

export interface Style {
  red(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;

export function createStyle(enabled: boolean): Style {
  if (!enabled) {
    const plain = (text: string) => text;
    return { red: plain, green: plain, cyan: plain, dim: plain, bold: plain };
  }
  return {
    red: wrap(31, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

/** Colours are for terminals, and off when NO_COLOR is set. */
export function wantsColor(stream: NodeJS.WriteStream): boolean {
  return Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

export function renderDisplay(display: ToolResultDisplay | undefined, style: Style): string {
  if (display === undefined) return '';
  if (typeof display === 'string') return lines(display);
  if ('fileDiff' in display) return renderFileDiff(display, style);
  return display.todos
    .map((todo) => {
      const mark =
        todo.status === 'completed' ? '[x]' : todo.status === 'in_progress' ? '[~]' : '[ ]';
      const content = visibleText(todo.content);
      const text = todo.status === 'completed' ? style.dim(content) : content;
      return `${mark} ${text}`;
    })
    .join('\n');
}

/** A file change; `headerOnly` when the person has just seen its diff in the confirmation. */
export function renderFileDiff(
  diff: FileDiff,
  style: Style,
  options: { headerOnly?: boolean } = {},
): string {
  const { linesAdded, linesRemoved } = diff.diffStat;
  const header = style.bold(
    `${visibleText(diff.fileName)}  ${style.green(`+${linesAdded}`)} ${style.red(`-${linesRemoved}`)}`,
  );
  if (options.headerOnly) return `${header}  ${style.dim('written as shown above')}`;
  return `${header}\n${colorDiff(diff.fileDiff, style)}`;
}

export function colorDiff(unified: string, style: Style): string {
  return lines(unified)
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return style.bold(line);
      if (line.startsWith('+')) return style.green(line);
      if (line.startsWith('-')) return style.red(line);
      if (line.startsWith('@@')) return style.cyan(line);
      return line;
    })
    .join('\n');
}

export function renderConfirmation(shown: ToolCallConfirmationDetails, style: Style): string {
  const details = visibleConfirmation(shown);
  const title = style.bold(details.title);
  switch (details.type) {
    case 'edit':
      return `${title}\n${colorDiff(details.fileDiff, style)}`;
    case 'exec':
      return `${title}\n  ${style.cyan(details.command)}`;
    case 'info':
      return `${title}\n${details.prompt}${details.urls?.length ? `\n${details.urls.map((url) => `  ${url}`).join('\n')}` : ''}`;
    case 'mcp': {
      const hints = [
        details.annotations?.readOnlyHint ? 'the server says it only reads' : '',
        details.annotations?.destructiveHint ? 'the server says it may destroy data' : '',
      ].filter(Boolean);
      return `${title}\n  server ${details.serverName}, tool ${details.toolName}${hints.length ? `\n  (${hints.join('; ')}; not verified)` : ''}`;
    }
    case 'plan':
      return `${title}\n${details.plan}`;
    case 'elicitation':
      return `${title}\n${details.message}`;
    case 'elicitation_url':
      return `${title}\n${details.message}\n  ${style.cyan(details.url)}\n  It leads to ${style.bold(details.host)}. Nothing is opened for you; check the host before you go.`;
  }
}
