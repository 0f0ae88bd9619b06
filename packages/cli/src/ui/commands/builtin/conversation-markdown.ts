/**
 * The conversation as Markdown, for /export, and its last answer, for /copy: the person's
 * prompts as typed (what `@` references attached left out), the answers as written, each
 * tool call with its arguments and the start of its result.
 */

import type { ChatMessage } from '@toolhost/core/conversation';
import { promptAsTyped, withoutAppNote } from '@toolhost/core/conversation';

/** Characters of a tool result kept in the export. */
const RESULT_CHARS = 2000;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
    .join('');
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}`;
}

export function conversationMarkdown(
  history: readonly ChatMessage[],
  header: { sessionId: string; model: string; folder: string; at: Date },
): string {
  const blocks = [
    `# toolhost session ${header.sessionId}`,
    `Model ${header.model} · ${header.folder} · exported ${header.at.toISOString()}`,
  ];
  let previous: ChatMessage | undefined;
  for (const message of history) {
    const before = previous;
    previous = message;
    if (message.role === 'user') {
      // Media after tool results travel as a user message: part of those results.
      if (before?.role === 'tool' && typeof message.content !== 'string') continue;
      const text = promptAsTyped(withoutAppNote(textOf(message.content))).trim();
      if (text) blocks.push(`## You\n\n${text}`);
    } else if (message.role === 'assistant') {
      const text = textOf(message.content ?? '').trim();
      const calls = (message.tool_calls ?? []).flatMap((call) =>
        call.type === 'function'
          ? [
              `**Tool call** \`${call.function.name}\`\n\n${fenced(prettyJson(call.function.arguments), 'json')}`,
            ]
          : [],
      );
      if (text || calls.length > 0)
        blocks.push(['## Assistant', ...(text ? [text] : []), ...calls].join('\n\n'));
    } else if (message.role === 'tool') {
      const text = textOf(message.content);
      const cut =
        text.length > RESULT_CHARS
          ? `${text.slice(0, RESULT_CHARS)}\n… (${text.length - RESULT_CHARS} more characters)`
          : text;
      blocks.push(`**Result**\n\n${fenced(cut)}`);
    }
  }
  return `${blocks.join('\n\n')}\n`;
}

function prettyJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** The text of the model's last answer (its last message with text), if any. */
export function lastAnswer(history: readonly ChatMessage[]): string | undefined {
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index];
    if (message?.role !== 'assistant') continue;
    const text = textOf(message.content ?? '').trim();
    if (text) return text;
  }
  return undefined;
}
