/**
 * What the interactive app shows, as plain data React subscribes to: the finished history
 * and the live part of the turn. Changes make a new snapshot (so React sees them) and tell
 * every subscriber; nothing here knows about the agent.
 */
import type { ApprovalMode } from '@toolhost/core/config';
import type { ConfirmationDecision, WaitingToolCall } from '@toolhost/core/tools';
import type { HistoryItem, HistoryItemContent, ToolRow } from './history-items.js';
import type { ThemeName } from './theme.js';

export interface PendingApproval {
  id: number;
  call: WaitingToolCall;
  resolve(decision: ConfirmationDecision): void;
}

/** One choice of a picker (`/resume`, `/theme`). */
export interface PickerItem {
  value: string;
  label: string;
  detail?: string;
}

/** A list the person chooses from with the arrows and Enter (Esc: none). */
export interface PendingPick {
  id: number;
  title: string;
  items: PickerItem[];
  selected: number;
  resolve(value: string | undefined): void;
}

export interface LiveState {
  busy: boolean;
  turnStartedAt: number | undefined;
  /** The answer's unfinished tail (finished blocks are already in the history). */
  streaming: string;
  thinking: string;
  thinkingStartedAt: number | undefined;
  tools: ToolRow[];
  approval: PendingApproval | undefined;
  approvalMode: ApprovalMode;
  contextLeftPercent: number | undefined;
  /** A short hint under the prompt ("Press Ctrl+C again to quit"). */
  hint: string | undefined;
  /** The external editor has the terminal: nothing may read keys. */
  suspended: boolean;
  /** Changes when the history must be printed again (cleared, resized, thinking expanded). */
  historyEpoch: number;
  showThinking: boolean;
  queuedPrompts: number;
  /** A list being chosen from: it takes the keys until answered. */
  picker: PendingPick | undefined;
  themeName: ThemeName;
}

export interface Snapshot {
  history: readonly HistoryItem[];
  live: LiveState;
}

export class ScreenStore {
  private history: HistoryItem[] = [];
  private liveState: LiveState;
  private snapshot: Snapshot;
  private readonly listeners = new Set<() => void>();
  private lastId = 0;

  /** Shows a list to choose from; resolves with the value chosen, undefined for none (Esc). */
  openPicker(title: string, items: PickerItem[], selected = 0): Promise<string | undefined> {
    if (items.length === 0) return Promise.resolve(undefined);
    this.liveState.picker?.resolve(undefined);
    return new Promise((resolve) => {
      this.update({
        picker: {
          id: this.nextId(),
          title,
          items,
          selected: Math.max(0, Math.min(selected, items.length - 1)),
          resolve: (value) => {
            this.update({ picker: undefined });
            resolve(value);
          },
        },
      });
    });
  }

  constructor(approvalMode: ApprovalMode, themeName: ThemeName = 'dark') {
    this.liveState = {
      busy: false,
      turnStartedAt: undefined,
      streaming: '',
      thinking: '',
      thinkingStartedAt: undefined,
      tools: [],
      approval: undefined,
      approvalMode,
      contextLeftPercent: undefined,
      hint: undefined,
      suspended: false,
      historyEpoch: 0,
      showThinking: false,
      queuedPrompts: 0,
      picker: undefined,
      themeName,
    };
    this.snapshot = { history: this.history, live: this.liveState };
  }

  get live(): LiveState {
    return this.liveState;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): Snapshot => this.snapshot;

  /** A new id for a history item or an approval. */
  nextId(): number {
    this.lastId += 1;
    return this.lastId;
  }

  update(changes: Partial<LiveState>): void {
    this.liveState = { ...this.liveState, ...changes };
    this.publish();
  }

  add(item: HistoryItemContent): void {
    this.history = [...this.history, { ...item, id: this.nextId() } as HistoryItem];
    this.publish();
  }

  /** Empties the history and has it printed again (from nothing). */
  clearHistory(): void {
    this.history = [];
    this.update({ historyEpoch: this.liveState.historyEpoch + 1 });
  }

  private publish(): void {
    this.snapshot = { history: this.history, live: this.liveState };
    for (const listener of this.listeners) listener();
  }
}
