/** What the loop reports about its conversation, for a session file (or anything else). */
import type { ChatMessage } from '../models/model-types.js';
import type { TokenUsage } from '../models/token-usage.js';

export interface ConversationRecorder {
  recordMessage(message: ChatMessage): void;
  recordUsage(usage: TokenUsage, model: string): void;
  /** The history was replaced as a whole (compression). */
  recordHistoryReplaced(history: ChatMessage[]): void;
  /** A checkpoint of the files was taken at this point of the conversation. */
  recordCheckpoint?(checkpointId: string): void;
}
