/** Commands about the conversation itself: /clear, /compress, /stats, /resume, /quit. */
import { listSessions } from '@toolhost/core/conversation';
import { plural } from '@toolhost/core/utils';
import type { SlashCommand } from '../command-types.js';

export const clearCommand: SlashCommand = {
  name: 'clear',
  description: 'Start a fresh conversation (the screen and what the model remembers)',
  source: 'built-in',
  takesArguments: false,
  run(context) {
    context.clearConversation();
  },
};

export const compressCommand: SlashCommand = {
  name: 'compress',
  aliases: ['summarize'],
  description: 'Replace older turns by a summary, to free context',
  source: 'built-in',
  takesArguments: false,
  async run(context) {
    const before = context.agent.loop.history.length;
    context.print('Summarising the conversation…');
    const compressed = await context.agent.loop.compressNow(context.signal);
    if (!compressed) {
      context.print(
        before === 0
          ? 'There is no conversation to compress yet.'
          : 'Nothing was compressed: the conversation is too short to summarise.',
      );
    }
  },
};

export const statsCommand: SlashCommand = {
  name: 'stats',
  aliases: ['usage'],
  description: 'Show tokens, time and tool calls of this session',
  source: 'built-in',
  takesArguments: false,
  run(context) {
    const { usage, requests } = {
      usage: context.agent.usage.usage,
      requests: context.agent.usage.requests,
    };
    const stats = context.stats();
    const calls = stats.toolCalls;
    const totalCalls = calls.success + calls.error + calls.cancelled;
    const cacheParts = [
      usage.cachedInputTokens ? `${count(usage.cachedInputTokens)} from cache` : '',
      usage.cacheCreationInputTokens
        ? `${count(usage.cacheCreationInputTokens)} written to it`
        : '',
    ].filter(Boolean);
    const cached = cacheParts.length > 0 ? ` (${cacheParts.join(', ')})` : '';
    const estimated = usage.estimated ? ' (partly estimated: the endpoint did not report all)' : '';
    const lines = [
      `**Session** ${context.config.sessionId}`,
      `- Time: ${duration(Date.now() - stats.startedAt)}`,
      `- Model: ${context.agent.model.model} (${plural(requests, 'request')})`,
      `- Tokens: ${count(usage.inputTokens)} in${cached}, ${count(usage.outputTokens)} out, ${count(usage.inputTokens + usage.outputTokens)} in all${estimated}`,
      `- Tool calls: ${totalCalls} (${calls.success} succeeded, ${calls.error} failed, ${calls.cancelled} cancelled or declined)`,
    ];
    context.print(lines.join('\n'));
  },
};

/** 2026-11-26 14:05, in local time: sorts and reads the same everywhere. */
function sessionDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

export const resumeCommand: SlashCommand = {
  name: 'resume',
  description: 'Pick a saved session of this project to continue (arrows, Enter), or /resume <id>',
  argumentHint: '[session id]',
  source: 'built-in',
  takesArguments: true,
  async run(context, args) {
    const { config } = context;
    const sessions = listSessions(config.userDir, config.targetDir).filter(
      (session) => session.id !== config.sessionId,
    );
    const wanted = args.trim();
    if (!wanted) {
      if (sessions.length === 0) {
        context.print('There is no other saved session in this project.');
        return;
      }
      const chosen = await context.pick(
        'Continue which session? (newest first)',
        sessions.map((session) => ({
          value: session.id,
          label: `${sessionDate(session.updatedAt)}  ${session.firstPrompt || '(no prompt)'}`,
          detail: `${plural(session.messages, 'message')} · ${session.id.slice(0, 8)}`,
        })),
      );
      if (chosen !== undefined) await context.resumeSession(chosen);
      return;
    }
    const matches = sessions.filter((session) => session.id.startsWith(wanted));
    if (matches.length !== 1) {
      context.print(
        matches.length === 0
          ? `No saved session of this project starts with "${wanted}". Type /resume to list them.`
          : `"${wanted}" starts ${matches.length} session ids; type more of the id.`,
        'error',
      );
      return;
    }
    await context.resumeSession((matches[0] as (typeof matches)[number]).id);
  },
  completeArguments(context, args) {
    const { config } = context;
    return listSessions(config.userDir, config.targetDir)
      .filter((session) => session.id !== config.sessionId && session.id.startsWith(args.trim()))
      .slice(0, 10)
      .map((session) => ({ value: session.id, description: session.firstPrompt }));
  },
};

export const quitCommand: SlashCommand = {
  name: 'quit',
  aliases: ['exit'],
  description: 'Save the session and leave',
  source: 'built-in',
  takesArguments: false,
  run(context) {
    context.quit();
  },
};

function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function duration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0) return `${hours}h ${minutes}m ${rest}s`;
  if (minutes > 0) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}
