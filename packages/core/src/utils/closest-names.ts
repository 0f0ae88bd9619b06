import { levenshtein } from './lazy-libraries.js';

/**
 * The candidates nearest to `wanted` by edit distance (case-insensitive), closest first,
 * keeping only those close enough to be a plausible typo or variant.
 */
export function closestNames(wanted: string, candidates: Iterable<string>, max = 3): string[] {
  const { distance } = levenshtein();
  const target = wanted.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    let score = distance(target, lower);
    // A name that contains the other (read → read_file) is a strong hint whatever the length.
    if (lower.includes(target) || target.includes(lower)) score = Math.min(score, 1);
    const limit = Math.max(2, Math.floor(Math.max(target.length, lower.length) / 2));
    if (score <= limit) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((entry) => entry.name);
}
