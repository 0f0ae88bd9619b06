/**
 * A real session for testing commands and input outside the terminal: a Config on a
 * temporary project and home, the built-in registry, an agent on a scripted model
 * server when one is given, a scheduler that runs tool calls (asking `decide` when a
 * call needs approval), and a CommandContext that records what it printed and sent.
 */
import path from 'node:path';
import {
  type Agent,
  type CompletedToolCall,
  Config,
  type ConfirmationDecision,
  CoreToolScheduler,
  createAgent,
  createToolRegistry,
  SessionRecorder,
  sessionFile,
  type ToolRegistry,
  type WaitingToolCall,
} from '@toolhost/core';
import type { ToolRunner } from '@toolhost/core/conversation';
import { makeTempDirs, type TempDirs } from '../../../core/test/helpers/temp-workspace.js';
import type {
  CommandContext,
  MessageKind,
  SlashCommand,
} from '../../src/ui/commands/command-types.js';

export interface TestSession {
  dirs: TempDirs;
  config: Config;
  registry: ToolRegistry;
  agent: Agent;
  context: CommandContext;
  runTool: ToolRunner;
  printed: { text: string; kind: MessageKind }[];
  submitted: string[];
  /** What was printed, joined, for matching. */
  output(): string;
  events: string[];
  close(): Promise<void>;
}

export interface TestSessionOptions {
  /** The scripted model server's base URL (…/v1); without one, model requests fail. */
  baseUrl?: string;
  decide?: (call: WaitingToolCall) => Promise<ConfirmationDecision>;
  commands?: () => readonly SlashCommand[];
  /** Records the conversation in the sessions store, as the app does. */
  record?: boolean;
  approvalMode?: 'default' | 'auto-edit' | 'yolo' | 'plan';
  /** Set up files before the Config is made (settings, memory files). */
  prepare?: (dirs: TempDirs) => void;
}

export function makeTestSession(options: TestSessionOptions = {}): TestSession {
  const dirs = makeTempDirs();
  options.prepare?.(dirs);
  const { config } = Config.load({
    root: dirs.root,
    homeDir: dirs.home,
    env: {},
    systemSettingsPath: path.join(dirs.home, 'no-system-settings.json'),
    ...(options.approvalMode ? { approvalMode: options.approvalMode } : {}),
  });
  const recorder = options.record
    ? new SessionRecorder(sessionFile(config.userDir, config.targetDir, config.sessionId), {
        sessionId: config.sessionId,
        cwd: config.targetDir,
        model: 'test-model',
      })
    : undefined;
  const registry = createToolRegistry(config);
  const agent = createAgent({
    config,
    registry,
    endpoint: {
      baseUrl: options.baseUrl ?? 'http://127.0.0.1:9/v1',
      apiKey: 'test',
      model: 'test-model',
      contextWindow: 32_768,
      timeoutMs: 20_000,
      maxRetries: 0,
    },
    maxSubagentDepth: 0,
    ...(recorder ? { recorder } : {}),
  });
  const scheduler = new CoreToolScheduler({
    config,
    toolRegistry: registry,
    ...(options.decide ? { onConfirmationRequest: options.decide } : {}),
  });
  let callNumber = 0;
  const runTool: ToolRunner = async (name, args, signal) => {
    callNumber += 1;
    const [call] = await scheduler.schedule({ callId: `input-${callNumber}`, name, args }, signal);
    return call as CompletedToolCall;
  };
  const printed: TestSession['printed'] = [];
  const submitted: string[] = [];
  const events: string[] = [];
  let vim = false;
  const context: CommandContext = {
    config,
    registry,
    agent,
    stats: () => ({
      startedAt: Date.now() - 65_000,
      toolCalls: { success: 3, error: 1, cancelled: 0 },
    }),
    print: (text, kind = 'info') => printed.push({ text, kind }),
    runTool,
    submitPrompt: (prompt) => submitted.push(prompt),
    clearConversation: () => events.push('clear'),
    resumeSession: async (id) => {
      events.push(`resume ${id}`);
    },
    // The conversation core restores (its own tests, and restore-slash-command.test.ts with
    // a conversation); this session has none.
    restoreCheckpoint: () =>
      Promise.reject(new Error('this test session has no conversation to restore')),
    quit: () => events.push('quit'),
    setPromptText: (text) => events.push(`prompt text: ${text}`),
    writeToTerminal: (sequence) => events.push(`terminal: ${sequence}`),
    pick: async (title, items) => {
      events.push(`pick: ${title}`);
      return items[0]?.value;
    },
    setTheme: (name) => events.push(`theme: ${name}`),
    vimMode: () => vim,
    setVimMode: (on) => {
      vim = on;
    },
    signal: new AbortController().signal,
    commands: options.commands ?? (() => []),
  };
  return {
    dirs,
    config,
    registry,
    agent,
    context,
    runTool,
    printed,
    submitted,
    events,
    output: () => printed.map((entry) => entry.text).join('\n'),
    close: async () => {
      await registry.closeMcpServers();
      await config.dispose();
      dirs.cleanup();
    },
  };
}
