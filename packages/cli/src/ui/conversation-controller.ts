/**
 * The interactive app's logic, outside React: turns (one at a time, later prompts queued,
 * Esc cancelling), the approvals asked, approval modes, quitting, and the agent driven by
 * it. What is shown lives in ScreenStore (screen-store.ts), filled from the agent's
 * events by TurnDisplay (turn-display.ts). The Ink components render the store's
 * snapshots and call this object's methods; commands and the prompt editor reach it
 * through `AppServices` (app-services.ts).
 */

import type { ApprovalMode } from '@toolhost/core/config';
import type { Agent, Conversation, ModelEndpoint } from '@toolhost/core/conversation';
import {
  type ConversationEvent,
  isAgentEvent,
  type TurnOutcome,
} from '@toolhost/core/conversation';
import type { CompletedToolCall, ConfirmationDecision, ScheduleInput } from '@toolhost/core/tools';
import { type SaveTargets, saveTargets } from '../approval-choices.js';
import type { AppServices, AppStats } from './app-services.js';
import { servicesOf } from './controller-services.js';
import type { HistoryItemContent } from './history-items.js';
import { resumedSession } from './resumed-history.js';
import {
  type PendingApproval,
  type PickerItem,
  ScreenStore,
  type Snapshot,
} from './screen-store.js';
import { isThemeName, type ThemeName } from './theme.js';
import { TurnDisplay } from './turn-display.js';

export type { LiveState, PendingApproval, Snapshot } from './screen-store.js';

export interface ControllerOptions {
  /** The conversation the app shows and drives (the core runs its turns). */
  conversation: Conversation;
  /** Called once the person quits (Ctrl+C twice, Ctrl+D, /quit). */
  onQuit: () => void;
  /** Writes a control sequence straight to the terminal (the clipboard's OSC 52). */
  writeToTerminal?: (sequence: string) => void;
  /**
   * Clears the terminal before the history is printed again. It must happen before the
   * new render, which Ink writes at once: a clear after it would wipe what was just drawn.
   */
  clearTerminal?: () => void;
}

export class ConversationController {
  private readonly store: ScreenStore;
  private readonly display: TurnDisplay;
  private readonly conversation: Conversation;
  /** The turns sent that have not ended (the running one and those queued). */
  private readonly turnsOpen = new Set<number>();
  private turnStartedAt: number | undefined;
  private extraCalls = 0;
  private readonly extraAborts = new Set<AbortController>();
  private servicesObject: AppServices | undefined;
  private savingTo: SaveTargets | undefined;
  /** The questions waiting, in the order asked; the first is shown. */
  private readonly approvals: Array<PendingApproval & { questionId: string }> = [];
  private readonly startedAt = Date.now();
  private activeMs = 0;
  private readonly modesInCycle: ApprovalMode[];
  private draft: string | undefined;

  constructor(private readonly options: ControllerOptions) {
    this.conversation = options.conversation;
    const { config, registry } = this.conversation;
    const mode = config.getApprovalMode();
    // yolo only through its flag: it stays in the cycle only when the app started in it.
    this.modesInCycle = [
      'default',
      'auto-edit',
      'plan',
      ...(mode === 'yolo' ? ['yolo' as const] : []),
    ];
    const theme = config.settings.ui?.theme;
    this.store = new ScreenStore(mode, isThemeName(theme) ? theme : 'dark');
    this.display = new TurnDisplay(this.store, () => this.endpoint());
    config.onApprovalModeChange((next) => this.update({ approvalMode: next }));
    // A server's word outside any question (a page visit declined, or reported done).
    registry.onServerNotice((text) => this.add({ kind: 'message', level: 'info', text }));
    this.conversation.subscribe(this.onEvent);
  }

  /** The endpoint the session talks to now (`/model` switches it). */
  endpoint(): ModelEndpoint {
    return this.conversation.endpoint;
  }

  get agent(): Agent {
    return this.conversation.agent;
  }

  // ---- for React -------------------------------------------------------------------

  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  getSnapshot = (): Snapshot => this.store.getSnapshot();

  private get live() {
    return this.store.live;
  }

  private update(changes: Parameters<ScreenStore['update']>[0]): void {
    this.store.update(changes);
  }

  add(item: HistoryItemContent): void {
    this.store.add(item);
  }

  /** The conversation's events, shown: the loop's through TurnDisplay, questions in place. */
  private readonly onEvent = (event: ConversationEvent): void => {
    switch (event.type) {
      case 'prompt_queued':
        this.update({ queuedPrompts: this.queuedPrompts() });
        return;
      case 'prompt_started':
        this.turnStarted(event.shown);
        return;
      case 'prompt_ended':
        this.turnEnded(event.outcome);
        return;
      case 'question':
        if (event.question.kind === 'trust') return;
        this.approvals.push({
          id: this.store.nextId(),
          questionId: event.id,
          call: event.question.call,
          resolve: (decision) => this.conversation.answer(event.id, decision),
        });
        this.update({ approval: this.approvals[0] });
        return;
      case 'question_closed': {
        const at = this.approvals.findIndex((approval) => approval.questionId === event.id);
        if (at >= 0) this.approvals.splice(at, 1);
        this.update({ approval: this.approvals[0] });
        return;
      }
      case 'calls_finished':
        this.display.finishCalls();
        return;
      case 'warning':
        this.add({ kind: 'message', level: 'warning', text: event.message });
        return;
      case 'error':
        this.add({ kind: 'message', level: 'error', text: event.message });
        return;
      default:
        if (isAgentEvent(event)) this.display.onEvent(event);
    }
  };

  // ---- approvals ---------------------------------------------------------------------

  answerApproval(decision: ConfirmationDecision): void {
    // Answered in the conversation: its question_closed takes it off the screen.
    this.approvals[0]?.resolve(decision);
  }

  /** Hands the terminal to an external program (the editor) and takes it back after. */
  async whileSuspended<T>(work: () => Promise<T>): Promise<T> {
    this.update({ suspended: true });
    try {
      return await work();
    } finally {
      this.options.clearTerminal?.();
      this.update({ suspended: false, historyEpoch: this.live.historyEpoch + 1 });
    }
  }

  // ---- turns -------------------------------------------------------------------------

  /**
   * Sends a prompt (the conversation queues it behind a running turn), `notes` before it.
   * The conversation attaches what its `@` references name when the turn starts: the
   * prompt shows first, then the reads, as they happen.
   */
  submitPrompt = (prompt: string, notes: string[] = []): Promise<void> => {
    const sent = this.conversation.send(prompt, notes.length > 0 ? { notes } : {});
    // The conversation numbers its turns in the order sent: this is the next one.
    const turnId = this.conversation.turnsSent;
    this.turnsOpen.add(turnId);
    return sent.then(
      () => undefined,
      // A turn that could not run has no end event (its error event is shown): the screen
      // is freed here. Turns run one at a time, so no other one is running now.
      () => {
        if (this.turnsOpen.delete(turnId)) this.settle();
      },
    );
  };

  private turnStarted(shown: string): void {
    this.add({ kind: 'user', text: shown });
    this.turnStartedAt = Date.now();
    this.update({
      busy: true,
      turnStartedAt: this.turnStartedAt,
      hint: undefined,
      queuedPrompts: this.queuedPrompts(),
    });
  }

  private turnEnded(outcome: TurnOutcome): void {
    this.turnsOpen.delete(outcome.turnId);
    const { result } = outcome;
    // What a stopped turn left on screen goes into the history.
    this.display.flush();
    if (result.status === 'cancelled') {
      this.add({
        kind: 'message',
        level: 'warning',
        text: 'Cancelled. Tell me what to do instead.',
      });
    } else if (result.status !== 'success') {
      this.add({ kind: 'message', level: 'error', text: result.message ?? 'The turn failed.' });
    }
    this.settle();
  }

  /** No turn runs now: the time it took counted, the prompt free again. */
  private settle(): void {
    this.display.flush();
    if (this.turnStartedAt !== undefined) this.activeMs += Date.now() - this.turnStartedAt;
    this.turnStartedAt = undefined;
    this.update({ busy: false, turnStartedAt: undefined, queuedPrompts: this.queuedPrompts() });
  }

  private queuedPrompts(): number {
    return Math.max(0, this.turnsOpen.size - (this.turnStartedAt === undefined ? 0 : 1));
  }

  cancelTurn = (): void => {
    if (!this.isBusy()) return;
    for (const abort of this.extraAborts) abort.abort(new Error('cancelled by the person'));
    this.conversation.cancel('cancelled by the person');
  };

  isBusy = (): boolean => this.turnStartedAt !== undefined || this.extraCalls > 0;

  /** Runs calls the person asked for (a `!` line) with the same approvals and display. */
  runToolCalls = async (calls: ScheduleInput[]): Promise<CompletedToolCall[]> => {
    const startedAt = Date.now();
    const ownsScreen = !this.isBusy();
    this.extraCalls++;
    if (ownsScreen) this.update({ busy: true, turnStartedAt: startedAt });
    // Esc stops them too (inside a turn, the turn's cancel does).
    const own = new AbortController();
    this.extraAborts.add(own);
    try {
      return await this.conversation.runCalls(calls, own.signal);
    } finally {
      this.extraAborts.delete(own);
      this.extraCalls--;
      if (ownsScreen) {
        this.activeMs += Date.now() - startedAt;
        this.update({ busy: false, turnStartedAt: undefined });
      }
    }
  };

  // ---- modes, keys, screen -----------------------------------------------------------

  cycleApprovalMode = (): void => {
    const current = this.conversation.config.getApprovalMode();
    const at = this.modesInCycle.indexOf(current);
    const next = this.modesInCycle[(at + 1) % this.modesInCycle.length] ?? 'default';
    this.conversation.config.setApprovalMode(next);
  };

  /** Where "always" answers may save their rules (approval-choices.ts). */
  saveTargets(): SaveTargets {
    this.savingTo ??= saveTargets(this.conversation.config);
    return this.savingTo;
  }

  /** Shows a list to choose from in place of the prompt; resolves with the choice (Esc: none). */
  pick = (title: string, items: PickerItem[], selected = 0): Promise<string | undefined> =>
    this.store.openPicker(title, items, selected);

  /** Colours the screen with another theme, the history printed again in it. */
  setTheme(name: ThemeName): void {
    this.options.clearTerminal?.();
    this.update({ themeName: name, historyEpoch: this.live.historyEpoch + 1 });
  }

  /** Text the prompt starts with (a prompt that got no answer, given back). */
  setDraft(text: string): void {
    this.draft = text;
  }

  setHint(hint: string | undefined): void {
    this.update({ hint });
  }

  toggleThinking(): void {
    this.options.clearTerminal?.();
    this.update({
      showThinking: !this.live.showThinking,
      historyEpoch: this.live.historyEpoch + 1,
    });
  }

  /** Prints the history again from the top (after a resize or a display change). */
  reprintHistory(): void {
    this.options.clearTerminal?.();
    this.update({ historyEpoch: this.live.historyEpoch + 1 });
  }

  clearScreen(): void {
    this.options.clearTerminal?.();
    this.store.clearHistory();
  }

  quit = async (): Promise<void> => {
    if (this.isBusy()) {
      this.cancelTurn();
      const deadline = Date.now() + 5000;
      while (this.isBusy() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    }
    this.options.onQuit();
  };

  getStats(): AppStats {
    return {
      usage: this.agent.usage.usage,
      requests: this.agent.usage.requests,
      toolCalls: { ...this.display.toolCounts },
      startedAt: this.startedAt,
      activeMs:
        this.activeMs + (this.turnStartedAt !== undefined ? Date.now() - this.turnStartedAt : 0),
      contextLeftPercent: this.live.contextLeftPercent,
    };
  }

  /** Continues a saved session's conversation here (recorded in this session's file). */
  async resumeSession(id: string): Promise<string | undefined> {
    const { config, registry } = this.conversation;
    const resumed = resumedSession(config, registry, id);
    if (typeof resumed === 'string') {
      this.add({ kind: 'message', level: 'error', text: resumed });
      return undefined;
    }
    this.conversation.continueSession(resumed.loaded);
    this.clearScreen();
    for (const item of resumed.items) this.add(item);
    return resumed.unanswered;
  }

  /** The object the prompt editor and slash commands use (one per app). */
  services(): AppServices {
    this.servicesObject ??= servicesOf(this, this.conversation, this.options.writeToTerminal);
    return this.servicesObject;
  }

  /** Starts the conversation over (/clear): SessionEnd and SessionStart hooks run. */
  resetConversation(): void {
    void this.conversation.restart();
    this.clearScreen();
  }

  /** The text set with setDraft, once. */
  takeDraft(): string | undefined {
    const draft = this.draft;
    this.draft = undefined;
    return draft;
  }
}
