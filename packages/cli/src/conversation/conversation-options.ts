/**
 * What every front end does first: the command's flags turned into the conversation core's
 * options (workspace, settings, limits, prompts, the session to resume), and the
 * conversation opened with them and closed after. This folder holds what the front ends
 * share (flags, resume choice, stop signals, the JSON printers); it never runs a turn.
 */

import { WorkspaceError } from '@toolhost/core/config';
import type { Conversation, ConversationOptions } from '@toolhost/core/conversation';
import { NoModelConfigured, openConversation } from '@toolhost/core/conversation';
import { UsageError } from '../errors.js';
import { mcpServersFromFlags } from '../mcp-config-flag.js';
import { parseApprovalMode, withMcpConfig } from '../workspace-tools.js';
import {
  type AgentFlags,
  approvalModeFrom,
  limitsFrom,
  settingsFrom,
  subagentDepthFrom,
} from './agent-flags.js';
import { extraDirectoriesFrom } from './qwen-flags.js';
import { newSessionId, sessionToResume } from './resume.js';

export interface FlagOptions {
  options: ConversationOptions;
  /** Says what of the earlier sessions was kept, when not all of it was. */
  cutOffNote: string | undefined;
  /** Prompts the person typed that never got an answer (given back, not lost). */
  unanswered: string[];
}

/**
 * The options the flags describe. Read before anything opens: a usage error in them must
 * not leave a session behind.
 */
export function conversationOptionsFrom(flags: AgentFlags): FlagOptions {
  const agent = agentOptionsFrom(flags);
  const toResume = sessionToResume(flags);
  const namedId = newSessionId(flags);
  return {
    options: {
      ...agent,
      workspace: {
        ...(flags.root !== undefined ? { root: flags.root } : {}),
        includeDirectories: extraDirectoriesFrom(flags) ?? [],
      },
      ...(toResume ? { resume: toResume.session } : namedId ? { sessionId: namedId } : {}),
    },
    cutOffNote: toResume?.note,
    unanswered: toResume?.unanswered ?? [],
  };
}

/**
 * What the flags say about the agent itself (settings, approval mode, limits, prompts),
 * for a front end that takes the workspace and the session from its own protocol.
 */
export function agentOptionsFrom(flags: AgentFlags): ConversationOptions {
  const limits = limitsFrom(flags);
  const maxSubagentDepth = subagentDepthFrom(flags);
  const approvalMode = parseApprovalMode(approvalModeFrom(flags));
  const settings = withMcpConfig(settingsFrom(flags), mcpServersFromFlags(flags.mcpConfig));
  return {
    ...(settings ? { settings } : {}),
    ...(approvalMode ? { approvalMode } : {}),
    limits,
    ...(maxSubagentDepth !== undefined ? { maxSubagentDepth } : {}),
    ...(flags.systemPrompt !== undefined ? { systemPrompt: flags.systemPrompt } : {}),
    ...(flags.appendSystemPrompt !== undefined
      ? { appendSystemPrompt: flags.appendSystemPrompt }
      : {}),
  };
}

/**
 * Opens the conversation, runs `work` with it and closes it after (SessionEnd hooks, MCP
 * servers, background commands). With no model configured, `noModel` runs instead.
 */
export async function withConversation<T>(
  options: ConversationOptions,
  work: (conversation: Conversation) => Promise<T>,
  noModel: () => T | Promise<T>,
  /** Why the session ends, for SessionEnd hooks: a person quitting, or anything else. */
  endReason: 'prompt_input_exit' | 'other' = 'other',
): Promise<T> {
  const conversation = await openFor(options);
  if (!conversation) return noModel();
  try {
    return await work(conversation);
  } finally {
    await conversation.close(endReason);
  }
}

/** The opened conversation; undefined without a model; usage errors as UsageError. */
export async function openFor(options: ConversationOptions): Promise<Conversation | undefined> {
  try {
    return await openConversation(options);
  } catch (error) {
    if (error instanceof NoModelConfigured) return undefined;
    if (error instanceof WorkspaceError) throw new UsageError(error.message);
    throw error;
  }
}
