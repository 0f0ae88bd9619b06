/**
 * What is known of a model's answer length before the first request: the most output
 * tokens a model allows (asking for more costs a refused request), and whether the server
 * wants the length as `max_completion_tokens` (api.openai.com, where `max_tokens` is
 * deprecated and refused by the reasoning models) rather than `max_tokens`.
 */

/** The most output tokens by model-name prefix (longest prefix wins), as the providers document. */
const OUTPUT_CAPS: ReadonlyArray<readonly [string, number]> = [
  ['gpt-4o', 16_384],
  ['gpt-4o-mini', 16_384],
  ['chatgpt-4o', 16_384],
  ['gpt-4-turbo', 4_096],
  ['gpt-4.1', 32_768],
  ['gpt-5', 128_000],
  ['o1', 100_000],
  ['o1-mini', 65_536],
  ['o3', 100_000],
  ['o3-mini', 100_000],
  ['o4-mini', 100_000],
  ['claude-3-haiku', 4_096],
  ['claude-3-opus', 4_096],
  ['claude-3-5', 8_192],
  ['claude-3-7-sonnet', 64_000],
  ['claude-sonnet-4', 64_000],
  ['claude-opus-4', 32_000],
  ['claude-haiku-4', 64_000],
  ['gemini-1.5', 8_192],
  ['gemini-2.0', 8_192],
  ['gemini-2.5', 65_536],
  ['deepseek-chat', 8_192],
  ['deepseek-reasoner', 65_536],
];

/** The figure of the longest prefix of the model's name (without a `vendor/`) in a table. */
export function byModelPrefix(
  table: ReadonlyArray<readonly [string, number]>,
  model: string,
): number | undefined {
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: readonly [string, number] | undefined;
  for (const entry of table) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}

/** The most output tokens the named model allows, when known. */
export function knownOutputCap(model: string): number | undefined {
  return byModelPrefix(OUTPUT_CAPS, model);
}

/**
 * True where the length goes as `max_completion_tokens`: OpenAI's own API, which takes it
 * for every model (elsewhere, a refusal that names it switches to it: request-options.ts).
 */
export function wantsCompletionTokens(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.toLowerCase() === 'api.openai.com';
  } catch {
    return false;
  }
}
