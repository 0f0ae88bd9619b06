/**
 * `toolhost tool` is a typo of `toolhost tools`, not a one-word prompt for the agent: the
 * check the agent's action makes before it takes a lone word as its task.
 */
import { UsageError } from './errors.js';

/** Throws a usage error when a lone word given as the prompt is near a command's name. */
export function rejectMistypedCommand(
  commandNames: readonly string[],
  positional: readonly string[],
  prompt: string | undefined,
): void {
  const [word] = positional;
  if (positional.length !== 1 || prompt !== undefined || !word || /\s/.test(word)) return;
  const near = commandNames.filter(
    (name) => name.startsWith(word) || word.startsWith(name) || typo(word, name),
  );
  if (near.length > 0) {
    throw new UsageError(
      `unknown command '${word}' (did you mean ${near.join(' or ')}?). To give the agent a one-word prompt, pass it with -p.`,
    );
  }
}

/** One letter added, missing, changed or two swapped. */
function typo(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const swapped = a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  return (
    swapped ||
    a.slice(i + 1) === b.slice(i + 1) ||
    a.slice(i) === b.slice(i + 1) ||
    a.slice(i + 1) === b.slice(i)
  );
}
