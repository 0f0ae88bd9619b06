/**
 * The AppServices face of the conversation controller: what the prompt editor and slash
 * commands use. It names what it needs of the controller (ServicesSource) instead of the
 * class, so the controller can build it without the two files importing each other.
 */
import type { ApprovalMode } from '@toolhost/core/config';
import type { Agent, Conversation } from '@toolhost/core/conversation';
import type { ReactElement } from 'react';
import type { AppServices, AppStats } from './app-services.js';
import type { HistoryItemContent, MessageLevel } from './history-items.js';
import type { ThemeName } from './theme.js';

/** What the services use of the conversation controller (conversation-controller.ts). */
export interface ServicesSource {
  readonly agent: Agent;
  add(item: HistoryItemContent): void;
  clearScreen(): void;
  resetConversation(): void;
  resumeSession(id: string): Promise<string | undefined>;
  setTheme(name: ThemeName): void;
  takeDraft(): string | undefined;
  quit(): Promise<void>;
  getStats(): AppStats;
  readonly pick: AppServices['pick'];
  readonly submitPrompt: AppServices['submitPrompt'];
  readonly isBusy: AppServices['isBusy'];
  readonly cancelTurn: AppServices['cancelTurn'];
  readonly runToolCalls: AppServices['runToolCalls'];
}

export function servicesOf(
  controller: ServicesSource,
  conversation: Conversation,
  writeToTerminal: ((sequence: string) => void) | undefined,
): AppServices {
  const { config, registry } = conversation;
  return {
    get agent() {
      return controller.agent;
    },
    config,
    registry,
    get endpoint() {
      return conversation.endpoint;
    },
    get sessionId() {
      return config.sessionId;
    },
    print: (message: string, level: MessageLevel = 'info') =>
      controller.add({ kind: 'message', level, text: message }),
    printElement: (element: ReactElement) => controller.add({ kind: 'element', element }),
    clearScreen: () => controller.clearScreen(),
    resetConversation: () => controller.resetConversation(),
    resumeSession: (id: string) => controller.resumeSession(id),
    restoreCheckpoint: (which: string) => conversation.restoreCheckpoint(which),
    pick: controller.pick,
    setTheme: (name: ThemeName) => controller.setTheme(name),
    writeToTerminal: (sequence: string) => writeToTerminal?.(sequence),
    takeDraft: () => controller.takeDraft(),
    showUserLine: (text: string) => controller.add({ kind: 'user', text }),
    quit: () => void controller.quit(),
    submitPrompt: controller.submitPrompt,
    isBusy: controller.isBusy,
    cancelTurn: controller.cancelTurn,
    runToolCalls: controller.runToolCalls,
    getApprovalMode: () => config.getApprovalMode(),
    setApprovalMode: (mode: ApprovalMode) => config.setApprovalMode(mode),
    getStats: () => controller.getStats(),
  };
}
