/** The AppServices face of a ConversationController: what the prompt editor and slash commands use. */
import type { ApprovalMode } from '@toolhost/core/config';
import type { Conversation } from '@toolhost/core/conversation';
import type { ReactElement } from 'react';
import type { AppServices, MessageLevel } from './app-services.js';
import type { ControllerOptions, ConversationController } from './conversation-controller.js';
import type { ThemeName } from './theme.js';

export function servicesOf(
  controller: ConversationController,
  conversation: Conversation,
  options: ControllerOptions,
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
    pick: controller.pick,
    setTheme: (name: ThemeName) => controller.setTheme(name),
    writeToTerminal: (sequence: string) => options.writeToTerminal?.(sequence),
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
