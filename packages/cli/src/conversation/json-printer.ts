/**
 * `-o json` (every message event as one array at the end) and `-o stream-json` (one event
 * per line as it happens, with `--include-partial-messages` the text as it streams too).
 */
import type { AgentEvent, PermissionDenial } from '@toolhost/core/conversation';
import { loadSubagents } from '@toolhost/core/conversation';
import { visibleText } from '@toolhost/core/utils';
import { slashCommandNames } from './command-names.js';
import { assistantEvent, initEvent, resultEvent, toolResultsEvent } from './json-events.js';
import { PartialMessages } from './partial-messages.js';
import type { Printer, PrinterIo, PrinterOptions, WorkspaceView } from './printer-types.js';

export function jsonPrinter(
  format: 'json' | 'stream-json',
  io: PrinterIo,
  session: WorkspaceView,
  options: PrinterOptions,
): Printer {
  const collected: unknown[] = [];
  const subagentDenials: PermissionDenial[] = [];
  const sessionId = session.config.sessionId;
  let model = '';
  const emit = (event: unknown) => {
    if (format === 'stream-json') io.stdout.write(`${JSON.stringify(event)}\n`);
    else collected.push(event);
  };
  const partial = new PartialMessages({
    sessionId,
    model: () => model,
    ...(options.partialMessages && format === 'stream-json' ? { emit } : {}),
  });
  // The main agent's events and each subagent's (by task) go through the same steps.
  const onMessageEvent = (event: AgentEvent, key: string, parent: string | null) => {
    if (event.type === 'turn_started') {
      partial.turnStarted(key, parent);
    } else if (event.type === 'retry') {
      partial.retried(key, parent);
    } else if (event.type === 'text' || event.type === 'thinking') {
      partial.delta(key, parent, event.type, event.text);
    } else if (event.type === 'assistant') {
      const id = partial.answered(key, parent, event.finishReason, event.usage, event.toolCalls);
      emit(
        assistantEvent(
          sessionId,
          model,
          {
            id,
            text: event.text,
            calls: event.toolCalls,
            usage: event.usage,
            finishReason: event.finishReason,
          },
          parent,
        ),
      );
    } else if (event.type === 'tool_results') {
      emit(toolResultsEvent(sessionId, event.results, parent));
    }
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
          // The interactive app's commands (built-in, the user's, MCP prompts), as Qwen Code lists them.
          slashCommands: slashCommandNames(session.config, session.registry),
          agents: loadSubagents(session.config).definitions.map((definition) => definition.name),
          version: options.version,
        }),
      );
    },
    event(event) {
      if (event.type === 'subagent') {
        const inner = event.event;
        if (inner.type === 'finished') subagentDenials.push(...inner.result.permissionDenials);
        else onMessageEvent(inner, `task:${event.taskId}`, event.parentCallId ?? null);
      } else if (event.type === 'notice' && event.level === 'warning') {
        // Not a message event, but never to be missed (a checkpoint that failed).
        io.stderr.write(`toolhost: ${visibleText(event.message, { multiline: true })}\n`);
      } else {
        onMessageEvent(event, '', null);
      }
    },
    finish(result, sessionUsage, structured) {
      emit(
        resultEvent(
          sessionId,
          result,
          sessionUsage,
          partial.apiDurationMs(),
          subagentDenials,
          structured,
        ),
      );
      if (format === 'json') io.stdout.write(`${JSON.stringify(collected)}\n`);
    },
  };
}
