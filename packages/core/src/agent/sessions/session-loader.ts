/**
 * Reads sessions back: the project's list (newest first), and one session's conversation
 * up to its last complete exchange, so a session cut off in the middle of a model answer
 * or a batch of tool calls (kill -9) resumes in a state the model accepts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ChatMessage } from '../../models/model-types.js';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../../models/token-usage.js';
import type { SessionRecord } from './session-file.js';
import { sessionsDir } from './session-file.js';

export interface SessionSummary {
  id: string;
  file: string;
  updatedAt: Date;
  startedAt: string | undefined;
  model: string | undefined;
  /** The first prompt, on one line. */
  firstPrompt: string;
  messages: number;
}

export interface LoadedSession {
  id: string;
  file: string;
  /** The conversation up to its last complete exchange. */
  history: ChatMessage[];
  /** Messages left out because their exchange never completed. */
  droppedMessages: number;
  /** Those messages themselves (a prompt that got no answer is among them). */
  dropped: ChatMessage[];
  usage: TokenUsage;
}

export function listSessions(userDir: string, projectRoot: string): SessionSummary[] {
  const dir = sessionsDir(userDir, projectRoot);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const summaries: SessionSummary[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const records = readRecords(file);
      const header = records.find((r) => r.type === 'session');
      const messages = replay(records);
      const first = messages.find((m) => m.role === 'user' && typeof m.content === 'string');
      summaries.push({
        id: name.slice(0, -'.jsonl'.length),
        file,
        updatedAt: statSync(file).mtime,
        startedAt: header?.type === 'session' ? header.at : undefined,
        model: header?.type === 'session' ? header.model : undefined,
        firstPrompt: oneLine(typeof first?.content === 'string' ? first.content : ''),
        messages: messages.length,
      });
    } catch {
      // an unreadable file is not listed
    }
  }
  return summaries.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
}

/** Finds a session by id or unique id prefix; `latest` picks the newest. */
export function findSession(
  userDir: string,
  projectRoot: string,
  which: { latest: true } | { id: string },
): SessionSummary | string {
  const sessions = listSessions(userDir, projectRoot);
  if ('latest' in which) {
    return sessions[0] ?? `There is no earlier session in ${projectRoot} to continue.`;
  }
  const exact = sessions.find((s) => s.id === which.id);
  if (exact) return exact;
  const matches = sessions.filter((s) => s.id.startsWith(which.id));
  if (matches.length === 1 && matches[0]) return matches[0];
  return matches.length > 1
    ? `Session id "${which.id}" matches ${matches.length} sessions; give more of it (toolhost sessions lists them).`
    : `No session "${which.id}" in ${projectRoot}; toolhost sessions lists this project's sessions.`;
}

export function loadSession(file: string): LoadedSession {
  const records = readRecords(file);
  const messages = replay(records);
  const history = messages.slice(0, completeLength(messages));
  let usage: TokenUsage = { ...ZERO_USAGE };
  for (const record of records) if (record.type === 'usage') usage = addUsage(usage, record.usage);
  return {
    id: path.basename(file, '.jsonl'),
    file,
    history,
    droppedMessages: messages.length - history.length,
    dropped: messages.slice(history.length),
    usage,
  };
}

/**
 * The conversation as it was when a checkpoint was taken, up to its last complete exchange
 * (the batch the checkpoint preceded is left out); undefined when the session has no
 * such checkpoint.
 */
export function loadSessionAtCheckpoint(
  file: string,
  checkpointId: string,
): { messages: ChatMessage[]; history: ChatMessage[] } | undefined {
  const records = readRecords(file);
  const at = records.findIndex((r) => r.type === 'checkpoint' && r.checkpointId === checkpointId);
  if (at < 0) return undefined;
  const messages = replay(records.slice(0, at));
  return { messages, history: messages.slice(0, completeLength(messages)) };
}

function readRecords(file: string): SessionRecord[] {
  const records: SessionRecord[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as SessionRecord);
    } catch {
      // the line being written when the process was killed
    }
  }
  return records;
}

function replay(records: SessionRecord[]): ChatMessage[] {
  let messages: ChatMessage[] = [];
  for (const record of records) {
    if (record.type === 'message') messages.push(record.message);
    else if (record.type === 'history') messages = [...record.messages];
  }
  return messages;
}

/**
 * How many messages form complete exchanges: a prompt with its final answer, or a model
 * turn whose tool calls all have their responses (and the media message after them).
 */
export function completeLength(messages: ChatMessage[]): number {
  let complete = 0;
  let waitingFor = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'assistant') {
      const calls = message.tool_calls ?? [];
      waitingFor = new Set(calls.map((call) => call.id));
      if (calls.length === 0) complete = index + 1;
    } else if (message.role === 'tool') {
      waitingFor.delete(message.tool_call_id);
      if (waitingFor.size === 0) complete = index + 1;
    } else if (
      message.role === 'user' &&
      Array.isArray(message.content) &&
      messages[index - 1]?.role === 'tool' &&
      complete === index
    ) {
      complete = index + 1; // the media that belong to the tool responses before it
    }
  }
  return complete;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
