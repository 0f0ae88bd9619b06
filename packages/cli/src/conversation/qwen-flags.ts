/**
 * Qwen Code's everyday flags where toolhost's differ: what each means here, or the one
 * line that refuses it and names toolhost's way. `--allowed-tools`, `--include-directories`
 * and `--approval-mode` mean the same in both and need nothing here.
 */
import type { ModelProvider } from '@toolhost/core/conversation';
import { UsageError } from '../errors.js';

/** Qwen Code's `--auth-type` values that name a model API toolhost speaks. */
const AUTH_TYPES: Readonly<Record<string, ModelProvider>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'gemini',
};

/** The model API `--auth-type` names; refused with toolhost's way for the ones it lacks. */
export function providerFromAuthType(type: string | undefined): ModelProvider | undefined {
  if (type === undefined) return undefined;
  const provider = AUTH_TYPES[type];
  if (provider) return provider;
  if (type === 'qwen-oauth')
    throw new UsageError(
      '--auth-type qwen-oauth: toolhost has no Qwen sign-in; use a DashScope API key with --auth-type openai (OPENAI_BASE_URL=https://dashscope.aliyuncs.com/compatible-mode/v1, OPENAI_API_KEY).',
    );
  if (type === 'vertex-ai')
    throw new UsageError(
      '--auth-type vertex-ai: toolhost does not call Vertex AI; use --auth-type gemini with GEMINI_API_KEY.',
    );
  throw new UsageError(`--auth-type takes openai, anthropic or gemini; got "${type}".`);
}

/** The folders `--include-directories` and `--add-dir` add, together. */
export function extraDirectoriesFrom(flags: {
  includeDirectories?: string[];
  addDir?: string[];
}): string[] | undefined {
  const all = [...(flags.includeDirectories ?? []), ...(flags.addDir ?? [])];
  return all.length > 0 ? all : undefined;
}

/**
 * `-i "<prompt>"`: the interactive terminal, starting with that prompt. It needs a terminal
 * and no other prompt (Qwen Code refuses the same).
 */
export function checkPromptInteractive(
  flags: { promptInteractive?: string; prompt?: string },
  positional: string[],
  piped: string,
  isTerminal: boolean,
): void {
  if (flags.promptInteractive === undefined) return;
  if (flags.prompt !== undefined || positional.length > 0)
    throw new UsageError(
      '-i (--prompt-interactive) starts the terminal with its prompt: drop the other prompt, or use -p to run one headless.',
    );
  if (piped.trim())
    throw new UsageError(
      '-i (--prompt-interactive) needs the terminal for input; to run piped input, use -p.',
    );
  if (!isTerminal)
    throw new UsageError(
      '-i (--prompt-interactive) needs a terminal; use -p "<prompt>" to run a prompt without one.',
    );
}
