/**
 * What a headless run prints. `text`: the answer on stdout, a line per tool call and the
 * reason for any stop on stderr. `json`: every message event as one array at the end.
 * `stream-json`: one event per line as it happens.
 */
import { visibleText } from '@toolhost/core/utils';
import type { OutputFormat } from './agent-flags.js';
import { jsonPrinter } from './json-printer.js';
import type { Printer, PrinterIo, PrinterOptions, WorkspaceView } from './printer-types.js';

export type { Printer, PrinterIo, PrinterOptions } from './printer-types.js';

export function createPrinter(
  format: OutputFormat,
  io: PrinterIo,
  session: WorkspaceView,
  options: PrinterOptions,
): Printer {
  return format === 'text' ? textPrinter(io, session) : jsonPrinter(format, io, session, options);
}

function textPrinter(io: PrinterIo, session: WorkspaceView): Printer {
  return {
    start() {},
    event(event) {
      if (event.type === 'tool_results') {
        for (const result of event.results) {
          const mark =
            result.status === 'success' ? '✓' : result.status === 'cancelled' ? '-' : '✗';
          const tool = session.registry.getTool(result.name);
          let description = '';
          try {
            description = tool ? tool.getDescription(result.args) : '';
          } catch {
            description = '';
          }
          const failure =
            result.status === 'success'
              ? ''
              : `: ${firstLine(result.content.replace(/^Error: /, ''))}`;
          // A row for the person: nothing the model or a tool wrote may move the cursor.
          io.stderr.write(
            `${mark} ${visibleText(`${result.name}${description ? ` ${description}` : ''}${failure}`)}\n`,
          );
        }
      } else if (event.type === 'retry') {
        io.stderr.write(
          `toolhost: ${visibleText(event.reason)} Trying again in ${(event.delayMs / 1000).toFixed(1)} s.\n`,
        );
      } else if (event.type === 'notice' || event.type === 'compressed') {
        const message =
          event.type === 'notice'
            ? event.message
            : `The conversation was compressed (about ${event.tokensBefore} → ${event.tokensAfter} tokens).`;
        io.stderr.write(`toolhost: ${visibleText(message, { multiline: true })}\n`);
      }
    },
    finish(result, _usage, structured) {
      // The validated value, without a fence or spaces the model put around it; an answer
      // that never validated is not printed where a script reads its data.
      const answer = structured
        ? structured.ok
          ? JSON.stringify(structured.value)
          : ''
        : (result.text ?? '');
      // On a terminal the answer is read, so it is made visible; piped, it is data.
      const text = io.stdout.isTTY ? visibleText(answer, { multiline: true }) : answer;
      if (text) io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      if (result.status !== 'success' && result.message)
        io.stderr.write(`toolhost: ${visibleText(result.message, { multiline: true })}\n`);
    },
  };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
