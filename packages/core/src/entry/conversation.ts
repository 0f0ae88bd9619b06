/**
 * @toolhost/core/conversation: The conversation core every front end drives: openConversation, send, cancel, answer, close and one event stream; the agent under it, saved sessions and resuming, `@` references, prompt content, subagent and skill files, memory, the model endpoints and their usage, and checkpoints (the snapshots taken before changes, listing and restoring them).
 */
export * from '../agent/agent-events.js';
export * from '../agent/agent-loop-options.js';
export * from '../agent/checkpoints/checkpoint-store.js';
export type { Checkpoint } from '../agent/checkpoints/checkpoint-types.js';
export * from '../agent/checkpoints/restore-checkpoint.js';
export * from '../agent/checkpoints/shadow-git.js';
export * from '../agent/checkpoints/snapshot.js';
export * from '../agent/create-agent.js';
export * from '../agent/sessions/session-file.js';
export * from '../agent/sessions/session-loader.js';
export * from '../agent/subagents/subagent-files.js';
export * from '../conversation/at-references.js';
export * from '../conversation/conversation.js';
export * from '../conversation/conversation-types.js';
export * from '../conversation/open-conversation.js';
export * from '../conversation/prompt-content.js';
export * from '../conversation/prompt-notes.js';
export * from '../conversation/resumed-history.js';
export * from '../conversation/structured-output.js';
export * from '../conversation/trust-offer.js';
export * from '../endpoints/endpoint-settings.js';
export * from '../endpoints/endpoints.js';
export * from '../endpoints/model-catalog.js';
export * from '../memory/load-memory.js';
export * from '../memory/memory-file.js';
export * from '../models/endpoint.js';
export * from '../models/model-types.js';
export * from '../models/provider.js';
export * from '../models/token-usage.js';
export * from '../skills/skill-files.js';
export * from '../skills/skill-tool.js';
export * from '../tools/memoryTool.js';
