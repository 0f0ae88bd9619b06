/**
 * Notices a model going round in circles: the same tool call with the same arguments
 * several times in a row, the same answer text turn after turn, or one line repeated
 * over and over inside an answer.
 */
import type { AgentToolCall } from './agent-events.js';

export interface LoopDetectionOptions {
  /** Identical consecutive tool calls that count as a loop (default 5). */
  repeatedCalls?: number;
  /** Identical consecutive answer texts that count as a loop (default 3). */
  repeatedTexts?: number;
  /** Identical consecutive lines inside one answer that count as a loop (default 15). */
  repeatedLines?: number;
}

export class LoopDetector {
  private lastCallKey: string | undefined;
  private callRepeats = 0;
  private lastText: string | undefined;
  private textRepeats = 0;
  private readonly limits: Required<LoopDetectionOptions>;

  constructor(options: LoopDetectionOptions = {}) {
    this.limits = {
      repeatedCalls: options.repeatedCalls ?? 5,
      repeatedTexts: options.repeatedTexts ?? 3,
      repeatedLines: options.repeatedLines ?? 15,
    };
  }

  /** Feeds one turn's calls in order; returns why this is a loop, or undefined. */
  checkCalls(calls: AgentToolCall[]): string | undefined {
    for (const call of calls) {
      const key = `${call.name}\u0000${stableJson(call.malformedArguments ?? call.args)}`;
      this.callRepeats = key === this.lastCallKey ? this.callRepeats + 1 : 1;
      this.lastCallKey = key;
      if (this.callRepeats >= this.limits.repeatedCalls) {
        return `The model called ${call.name} with the same arguments ${this.callRepeats} times in a row.`;
      }
    }
    return undefined;
  }

  /** Feeds one turn's answer text; returns why this is a loop, or undefined. */
  checkText(text: string): string | undefined {
    const normalized = text.trim().replace(/\s+/g, ' ');
    if (!normalized) return undefined;
    this.textRepeats = normalized === this.lastText ? this.textRepeats + 1 : 1;
    this.lastText = normalized;
    if (this.textRepeats >= this.limits.repeatedTexts) {
      return `The model gave the same answer ${this.textRepeats} times in a row.`;
    }
    return undefined;
  }

  /** Looks inside an answer as it streams; returns why it is a loop, or undefined. */
  checkStreamingText(textSoFar: string): string | undefined {
    const lines = textSoFar.split('\n');
    lines.pop(); // the last line may still be growing
    let repeats = 0;
    let previous: string | undefined;
    for (const raw of lines) {
      const line = raw.trim();
      if (line.length < 8) continue; // blank lines, fences and short list markers repeat naturally
      repeats = line === previous ? repeats + 1 : 1;
      previous = line;
      if (repeats >= this.limits.repeatedLines) {
        return `The model repeated the line "${line.slice(0, 80)}" ${repeats} times in one answer.`;
      }
    }
    return undefined;
  }
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : 1,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
