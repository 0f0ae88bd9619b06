/**
 * What kinds of media a model takes (`model.modalities` in settings), with defaults for
 * well-known model names. Media a model cannot take is replaced by a short placeholder
 * naming what was left out, rather than making the whole request fail.
 */

export type Modality = 'text' | 'image' | 'audio' | 'video' | 'pdf';

export const MODALITIES: readonly Modality[] = ['text', 'image', 'audio', 'video', 'pdf'];

/** Checked in order; the first pattern that matches the model name wins. */
const KNOWN_MODELS: readonly [RegExp, readonly Modality[]][] = [
  [/gemini/i, ['text', 'image', 'audio', 'video', 'pdf']],
  [/gpt-4o-(mini-)?audio|gpt-audio|gpt-realtime/i, ['text', 'audio']],
  [/gpt-3\.5|o1-mini|o3-mini|gpt-oss|codex-mini/i, ['text']],
  [/gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|\bo[134]\b|\bo[134]-/i, ['text', 'image', 'pdf']],
  [/claude/i, ['text', 'image', 'pdf']],
  [/qwen[\w.-]*omni/i, ['text', 'image', 'audio', 'video']],
  [/qwen[\w.-]*vl|qvq/i, ['text', 'image', 'video']],
  [/qwen[\w.-]*audio/i, ['text', 'audio']],
  [/llava|pixtral|vision|llama-?4|gemma-?3|minicpm-v|glm-4(\.\d)?v|internvl/i, ['text', 'image']],
  [/qwen|deepseek|llama|mistral|codestral|devstral|glm|kimi|phi|starcoder|granite|yi-/i, ['text']],
];

/**
 * The modalities of a model: the setting when given, else the known model's, else
 * undefined (unknown model: everything is sent and the endpoint decides).
 */
export function modelModalities(
  modelName: string | undefined,
  configured?: readonly string[],
): ReadonlySet<Modality> | undefined {
  if (configured) {
    return new Set(
      ['text', ...configured].filter((item): item is Modality =>
        MODALITIES.includes(item as Modality),
      ),
    );
  }
  if (!modelName) return undefined;
  const known = KNOWN_MODELS.find(([pattern]) => pattern.test(modelName));
  return known ? new Set(known[1]) : undefined;
}

/** The modality a MIME type needs. */
export function modalityOf(mimeType: string): Modality {
  const type = mimeType.toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  if (type === 'application/pdf') return 'pdf';
  return 'text';
}
