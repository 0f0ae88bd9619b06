/**
 * What a headless run prints. `text`: the answer on stdout, a line per tool call and the
 * reason for any stop on stderr. `json`: every message event as one array at the end.
 * `stream-json`: one event per line as it happens.
 */
import type {
  AgentEvent,
  AgentRunResult,
  PermissionDenial,
} from '@toolhost/core/internal/agent/agent-events.js';
import type { TokenUsage } from '@toolhost/core/internal/models/token-usage.js';
import type { Session } from '../session.js';
import type { OutputFormat } from './agent-flags.js';
import { assistantEvent, initEvent, resultEvent, toolResultsEvent } from './json-events.js';

export interface Printer {
  start(model: string): void;
  event(event: AgentEvent): void;
  finish(result: AgentRunResult, sessionUsage: TokenUsage): void;
}

interface PrinterIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export function createPrinter(format: OutputFormat, io: PrinterIo, session: Session): Printer {
  return format === 'text' ? textPrinter(io, session) : jsonPrinter(format, io, session);
}

function textPrinter(io: PrinterIo, session: Session): Printer {
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
          io.stderr.write(
            `${mark} ${result.name}${description ? ` ${description}` : ''}${failure}\n`,
          );
        }
      } else if (event.type === 'retry') {
        io.stderr.write(
          `toolhost: ${event.reason} Trying again in ${(event.delayMs / 1000).toFixed(1)} s.\n`,
        );
      } else if (event.type === 'notice' || event.type === 'compressed') {
        const message =
          event.type === 'notice'
            ? event.message
            : `The conversation was compressed (about ${event.tokensBefore} → ${event.tokensAfter} tokens).`;
        io.stderr.write(`toolhost: ${message}\n`);
      }
    },
    finish(result) {
      if (result.text)
        io.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
      if (result.status !== 'success' && result.message)
        io.stderr.write(`toolhost: ${result.message}\n`);
    },
  };
}

function jsonPrinter(format: 'json' | 'stream-json', io: PrinterIo, session: Session): Printer {
  const collected: unknown[] = [];
  const subagentDenials: PermissionDenial[] = [];
  const sessionId = session.config.sessionId;
  let model = '';
  const emit = (event: unknown) => {
    if (format === 'stream-json') io.stdout.write(`${JSON.stringify(event)}\n`);
    else collected.push(event);
  };
  return {
    start(modelName) {
      model = modelName;
      emit(
        initEvent({
          sessionId,
          cwd: session.config.targetDir,
          tools: session.registry.getAllToolNames(),
          mcpServers: session.registry
            .getMcpServers()
            .map((server) => ({ name: server.alias, status: server.status })),
          model,
          permissionMode: session.config.getApprovalMode(),
        }),
      );
    },
    event(event) {
      if (event.type === 'assistant') {
        emit(assistantEvent(sessionId, model, event.text, event.toolCalls, event.usage));
      } else if (event.type === 'tool_results') {
        emit(toolResultsEvent(sessionId, event.results));
      } else if (event.type === 'subagent') {
        const parent = event.parentCallId ?? null;
        const inner = event.event;
        if (inner.type === 'assistant') {
          emit(assistantEvent(sessionId, model, inner.text, inner.toolCalls, inner.usage, parent));
        } else if (inner.type === 'tool_results') {
          emit(toolResultsEvent(sessionId, inner.results, parent));
        } else if (inner.type === 'finished') {
          subagentDenials.push(...inner.result.permissionDenials);
        }
      } else if (event.type === 'notice' && event.level === 'warning') {
        // Not a message event, but never to be missed (a checkpoint that failed).
        io.stderr.write(`toolhost: ${event.message}\n`);
      }
    },
    finish(result, sessionUsage) {
      emit(resultEvent(sessionId, result, sessionUsage, subagentDenials));
      if (format === 'json') io.stdout.write(`${JSON.stringify(collected)}\n`);
    },
  };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
