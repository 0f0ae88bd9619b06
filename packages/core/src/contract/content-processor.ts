/**
 * Processes fetched content with the prompt in a separate model call, so only the answer
 * enters the conversation: an agent with a model makes one (agent/side-requests.ts), Config
 * holds it, web_fetch uses it. Declared here because all three layers need its shape.
 */
export type ContentProcessor = (
  content: string,
  prompt: string,
  url: string,
  signal: AbortSignal,
) => Promise<string>;
