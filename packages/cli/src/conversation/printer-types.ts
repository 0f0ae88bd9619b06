/** What every printer of a headless run offers, and what it reads (printers.ts makes one). */
import type { AgentEvent, AgentRunResult, TokenUsage } from '@toolhost/core/conversation';
import type { WorkspaceTools } from '../workspace-tools.js';
import type { StructuredOutcome } from './structured-output.js';

/** What the printers read of the conversation: its settings and its tools. */
export type WorkspaceView = Pick<WorkspaceTools, 'config' | 'registry'>;

export interface Printer {
  start(model: string): void;
  event(event: AgentEvent): void;
  /** `structured`: with `--json-schema`, the validated answer or why it never validated. */
  finish(result: AgentRunResult, sessionUsage: TokenUsage, structured?: StructuredOutcome): void;
}

export interface PrinterIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface PrinterOptions {
  /** toolhost's version, named in the init event. */
  version: string;
  /** `--include-partial-messages`: stream events with the text as it arrives. */
  partialMessages: boolean;
}
