/**
 * The interactive app's logic, outside React: turns (one at a time, later prompts queued,
 * Esc cancelling), the approvals asked, approval modes, quitting, and the agent driven by
 * it. What is shown lives in SessionStore (session-store.ts), filled from the agent's
 * events by TurnDisplay (turn-display.ts). The Ink components render the store's
 * snapshots and call this object's methods; commands and the prompt editor reach it
 * through `AppServices` (app-services.ts).
 */
import type { AgentEvent } from '@toolhost/core/internal/agent/agent-events.js';
import type { AgentSession } from '@toolhost/core/internal/agent/agent-session.js';
import type { LoadedSession } from '@toolhost/core/internal/agent/sessions/session-loader.js';
import type { Config } from '@toolhost/core/internal/config/config.js';
import type { ApprovalMode } from '@toolhost/core/internal/config/settings-types.js';
import {
  type PromptContent,
  withNoteBefore,
} from '@toolhost/core/internal/conversation/prompt-content.js';
import { partsToText } from '@toolhost/core/internal/core/content.js';
import { CoreToolScheduler } from '@toolhost/core/internal/core/core-tool-scheduler.js';
import type {
  CompletedToolCall,
  ConfirmationDecision,
  ScheduleInput,
  WaitingToolCall,
} from '@toolhost/core/internal/core/tool-call-types.js';
import type { ModelEndpoint } from '@toolhost/core/internal/models/endpoint.js';
import type { ChatMessage } from '@toolhost/core/internal/models/model-types.js';
import type { ToolRegistry } from '@toolhost/core/internal/tools/tool-registry.js';
import { ToolConfirmationOutcome } from '@toolhost/core/internal/tools/tools.js';
import { type SaveTargets, saveTargets } from '../approval-choices.js';
import type { AppServices, SessionStats } from './app-services.js';
import { servicesOf } from './controller-services.js';
import type { HistoryItemContent } from './history-items.js';
import { resumedSession } from './resumed-history.js';
import {
  type PendingApproval,
  type PickerItem,
  SessionStore,
  type Snapshot,
} from './session-store.js';
import { isThemeName, type ThemeName } from './theme.js';
import { TurnDisplay } from './turn-display.js';

export type { LiveState, PendingApproval, Snapshot } from './session-store.js';

export interface ControllerOptions {
  config: Config;
  registry: ToolRegistry;
  endpoint: ModelEndpoint;
  /** Called once the person quits (Ctrl+C twice, Ctrl+D, /quit). */
  onQuit: () => void;
  /** Tells the recorder a turn ended (the session file marks it). */
  onTurnEnd?: (status: string) => void;
  /** Tells the recorder the conversation was replaced (/clear, compression). */
  onHistoryReplaced?: (history: ChatMessage[]) => void;
  /** Another saved session goes on here (/resume): record in its file from now on. */
  onSessionResumed?: (session: LoadedSession) => void;
  /** Writes a control sequence straight to the terminal (the clipboard's OSC 52). */
  writeToTerminal?: (sequence: string) => void;
  /**
   * Clears the terminal before the history is printed again. It must happen before the
   * new render, which Ink writes at once: a clear after it would wipe what was just drawn.
   */
  clearTerminal?: () => void;
}

const CANCELLED_NOTE =
  '[The person cancelled the previous turn before it finished (Esc); anything it was doing was stopped. Continue with the request below.]';

export class SessionController {
  private readonly store: SessionStore;
  private readonly display: TurnDisplay;
  private agentSession: AgentSession | undefined;
  private turn: { controller: AbortController; startedAt: number } | undefined;
  private readonly queue: Array<{
    prompt: PromptContent;
    shown: string;
    echoed: boolean;
    done: () => void;
  }> = [];
  private servicesObject: AppServices | undefined;
  private savingTo: SaveTargets | undefined;
  private readonly approvals: PendingApproval[] = [];
  private cancelledLastTurn = false;
  private readonly startedAt = Date.now();
  private activeMs = 0;
  private readonly modesInCycle: ApprovalMode[];
  private extraScheduler: CoreToolScheduler | undefined;
  private draft: string | undefined;

  constructor(private readonly options: ControllerOptions) {
    const mode = options.config.getApprovalMode();
    // yolo only through its flag: it stays in the cycle only when the app started in it.
    this.modesInCycle = [
      'default',
      'auto-edit',
      'plan',
      ...(mode === 'yolo' ? ['yolo' as const] : []),
    ];
    const theme = options.config.settings.ui?.theme;
    this.store = new SessionStore(mode, isThemeName(theme) ? theme : 'dark');
    this.display = new TurnDisplay(this.store, () => this.endpoint());
    options.config.onApprovalModeChange((next) => this.update({ approvalMode: next }));
    // A server's word outside any question (a page visit declined, or reported done).
    options.registry.onServerNotice((text) => this.add({ kind: 'message', level: 'info', text }));
  }

  /** The agent is made after the controller, since it reports to it. */
  attach(agent: AgentSession): void {
    this.agentSession = agent;
  }

  /** The endpoint the session talks to now: the start's, until `/model` switches it. */
  endpoint(): ModelEndpoint {
    return this.agentSession?.model.endpoint ?? this.options.endpoint;
  }

  get agent(): AgentSession {
    if (!this.agentSession) throw new Error('the agent is not attached yet');
    return this.agentSession;
  }

  // ---- for React -------------------------------------------------------------------

  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  getSnapshot = (): Snapshot => this.store.getSnapshot();

  private get live() {
    return this.store.live;
  }

  private update(changes: Parameters<SessionStore['update']>[0]): void {
    this.store.update(changes);
  }

  add(item: HistoryItemContent): void {
    this.store.add(item);
  }

  onEvent = (event: AgentEvent): void => this.display.onEvent(event);

  // ---- approvals ---------------------------------------------------------------------

  requestApproval = (call: WaitingToolCall): Promise<ConfirmationDecision> =>
    new Promise((resolve) => {
      this.approvals.push({ id: this.store.nextId(), call, resolve });
      this.update({ approval: this.approvals[0] });
    });

  answerApproval(decision: ConfirmationDecision): void {
    const answered = this.approvals.shift();
    this.update({ approval: this.approvals[0] });
    answered?.resolve(decision);
  }

  private declineAllApprovals(): void {
    const pending = this.approvals.splice(0);
    this.update({ approval: undefined });
    for (const approval of pending) approval.resolve({ outcome: ToolConfirmationOutcome.Cancel });
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

  /** `shown` is what the person typed, when the prompt sent carries more (attached files). */
  submitPrompt = (prompt: PromptContent, shown = textOf(prompt), echoed = false): Promise<void> => {
    if (this.turn) {
      return new Promise((done) => {
        this.queue.push({ prompt, shown, echoed, done });
        this.update({ queuedPrompts: this.queue.length });
      });
    }
    return this.runTurn(prompt, shown, echoed);
  };

  private async runTurn(prompt: PromptContent, shown: string, echoed = false): Promise<void> {
    if (!echoed) this.add({ kind: 'user', text: shown });
    const controller = new AbortController();
    const startedAt = Date.now();
    this.turn = { controller, startedAt };
    this.update({ busy: true, turnStartedAt: startedAt, hint: undefined });
    const sent = this.cancelledLastTurn ? withNoteBefore(CANCELLED_NOTE, prompt) : prompt;
    this.cancelledLastTurn = false;
    try {
      const result = await this.agent.loop.run(sent, controller.signal);
      this.options.onTurnEnd?.(result.status);
      if (result.status === 'cancelled') {
        this.cancelledLastTurn = true;
        this.add({
          kind: 'message',
          level: 'warning',
          text: 'Cancelled. Tell me what to do instead.',
        });
      } else if (result.status !== 'success') {
        this.add({ kind: 'message', level: 'error', text: result.message ?? 'The turn failed.' });
      }
    } catch (error) {
      this.add({
        kind: 'message',
        level: 'error',
        text: error instanceof Error ? error.message : String(error),
      });
    } finally {
      this.flushLive();
      this.activeMs += Date.now() - startedAt;
      this.turn = undefined;
      this.update({ busy: false, turnStartedAt: undefined });
    }
    const next = this.queue.shift();
    this.update({ queuedPrompts: this.queue.length });
    if (next) void this.runTurn(next.prompt, next.shown, next.echoed).then(next.done);
  }

  /** What a stopped turn left on screen goes into the history. */
  private flushLive(): void {
    this.display.flush();
    this.declineAllApprovals();
  }

  cancelTurn = (): void => {
    if (!this.turn) return;
    this.turn.controller.abort(new Error('cancelled by the person'));
    this.declineAllApprovals();
  };

  isBusy = (): boolean => this.turn !== undefined;

  /** Runs calls the person asked for (a `!` line) with the same approvals and display. */
  runToolCalls = async (calls: ScheduleInput[]): Promise<CompletedToolCall[]> => {
    this.extraScheduler ??= new CoreToolScheduler({
      config: this.options.config,
      toolRegistry: this.options.registry,
      onToolCallsUpdate: (updated) => this.display.showCalls(updated),
      outputUpdateHandler: (callId, output) => this.display.showOutput(callId, output),
      onConfirmationRequest: this.requestApproval,
    });
    const controller = new AbortController();
    const startedAt = Date.now();
    this.turn ??= { controller, startedAt };
    const ownsTurn = this.turn.controller === controller;
    if (ownsTurn) this.update({ busy: true, turnStartedAt: startedAt });
    try {
      return await this.extraScheduler.schedule(calls, this.turn.controller.signal);
    } finally {
      this.display.finishCalls();
      if (ownsTurn) {
        this.turn = undefined;
        this.activeMs += Date.now() - startedAt;
        this.update({ busy: false, turnStartedAt: undefined });
      }
    }
  };

  // ---- modes, keys, screen -----------------------------------------------------------

  cycleApprovalMode = (): void => {
    const current = this.options.config.getApprovalMode();
    const at = this.modesInCycle.indexOf(current);
    const next = this.modesInCycle[(at + 1) % this.modesInCycle.length] ?? 'default';
    this.options.config.setApprovalMode(next);
  };

  /** Where "always" answers may save their rules (approval-choices.ts). */
  saveTargets(): SaveTargets {
    this.savingTo ??= saveTargets(this.options.config);
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
    if (this.turn) {
      this.cancelTurn();
      const deadline = Date.now() + 5000;
      while (this.turn && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    }
    this.options.onQuit();
  };

  getStats(): SessionStats {
    return {
      usage: this.agent.usage.usage,
      requests: this.agent.usage.requests,
      toolCalls: { ...this.display.toolCounts },
      startedAt: this.startedAt,
      activeMs: this.activeMs + (this.turn ? Date.now() - this.turn.startedAt : 0),
      contextLeftPercent: this.live.contextLeftPercent,
    };
  }

  /** Continues a saved session's conversation here (recorded in this session's file). */
  async resumeSession(id: string): Promise<string | undefined> {
    const { config, registry } = this.options;
    const resumed = resumedSession(config, registry, id);
    if (typeof resumed === 'string') {
      this.add({ kind: 'message', level: 'error', text: resumed });
      return undefined;
    }
    this.agent.loop.history = resumed.loaded.history;
    this.cancelledLastTurn = false;
    this.options.onSessionResumed?.(resumed.loaded);
    this.clearScreen();
    for (const item of resumed.items) this.add(item);
    return resumed.unanswered;
  }

  /** The object the prompt editor and slash commands use (one per app). */
  services(): AppServices {
    this.servicesObject ??= servicesOf(this, this.options);
    return this.servicesObject;
  }

  /** Starts the conversation over (/clear): SessionEnd and SessionStart hooks run. */
  resetConversation(): void {
    this.agent.loop.history = [];
    this.cancelledLastTurn = false;
    const agent = this.agent;
    void agent.end('clear').then(() => agent.start('clear'));
    this.options.onHistoryReplaced?.([]);
    this.clearScreen();
  }

  /** The text set with setDraft, once. */
  takeDraft(): string | undefined {
    const draft = this.draft;
    this.draft = undefined;
    return draft;
  }
}

function textOf(prompt: PromptContent): string {
  return typeof prompt === 'string' ? prompt : partsToText(prompt);
}
