/**
 * Runs after Stryker: reads its JSON report and fails unless every safety file reaches its
 * own threshold and every surviving mutant is listed in equivalent.md (with the reason it
 * cannot change behaviour). Stryker's own thresholds are global, so they cannot say this.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SAFETY_FILES } from './safety-files.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const groupArgs = process.argv.slice(2).filter((arg) => arg.startsWith('--group='));
const wanted = groupArgs.map((arg) => arg.slice('--group='.length));
const files = SAFETY_FILES.filter((file) => wanted.length === 0 || wanted.includes(file.group));

const reports = new Map();
for (const group of new Set(files.map((file) => file.group))) {
  const reportPath = path.join(root, 'reports', 'mutation', group, 'mutation.json');
  if (!existsSync(reportPath)) {
    console.error(`No mutation report at ${reportPath}; run \`npm run mutation\` first.`);
    process.exit(2);
  }
  reports.set(group, JSON.parse(readFileSync(reportPath, 'utf8')));
}
const equivalents = readEquivalents(path.join(here, 'equivalent.md'));

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const failures = [];
const rows = [];
for (const { path: file, threshold, group } of files) {
  const short = file.replace(/^packages\/core\/src\//, '');
  const entry = reports.get(group).files[file];
  if (!entry) {
    failures.push(`${short}: not in the report (was it mutated?)`);
    continue;
  }
  let detected = 0;
  let undetected = 0;
  let listed = 0;
  const lines = entry.source.split('\n');
  for (const mutant of entry.mutants) {
    if (DETECTED.has(mutant.status)) detected++;
    else if (UNDETECTED.has(mutant.status)) {
      undetected++;
      const key = mutantKey(short, lines[mutant.location.start.line - 1] ?? '', mutant);
      // One bullet covers one mutant: two mutants with the same key (the same line text,
      // mutator and replacement) need two bullets, each with its own reason.
      const left = equivalents.get(key) ?? 0;
      if (left > 0) {
        equivalents.set(key, left - 1);
        listed++;
      } else if (equivalents.has(key))
        failures.push(
          `${key}: ${mutant.status}; more mutants share this key than equivalent.md lists, so list it once for each, each with its reason`,
        );
      else
        failures.push(
          `${key}: ${mutant.status}, not listed in mutation/equivalent.md; add a test that catches it, or list it with the reason it cannot change behaviour`,
        );
    }
  }
  const total = detected + undetected;
  const raw = total === 0 ? 100 : (100 * detected) / total;
  // Equivalent mutants cannot be caught by any test, so they leave the count.
  const score = total - listed === 0 ? 100 : (100 * detected) / (total - listed);
  rows.push({ file: short, detected, total, score, raw, listed });
  if (score < threshold)
    failures.push(`${short}: ${score.toFixed(1)}% is below its threshold of ${threshold}%`);
}

// A listing no survivor used: its line changed or a test now catches it. Only a warning: a
// mutant that timed out on a busy machine survives on a quiet one.
const checked = new Set(rows.map((row) => `${row.file}: `));
const unused = [...equivalents].filter(
  ([key, left]) => left > 0 && [...checked].some((prefix) => key.startsWith(prefix)),
);
if (unused.length > 0)
  console.warn(
    `equivalent.md lists mutants that did not survive this run (remove them if a test now catches them or their line changed):\n${unused.map(([key]) => `- ${key}`).join('\n')}\n`,
  );

console.log('| file | mutants caught | listed equivalent | score | Stryker raw score |');
console.log('|---|---|---|---|---|');
for (const row of rows)
  console.log(
    `| \`${row.file}\` | ${row.detected} of ${row.total} | ${row.listed} | ${row.score.toFixed(1)}% | ${row.raw.toFixed(1)}% |`,
  );
if (failures.length > 0) {
  console.error(`\nMutation testing failed:\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exit(1);
}
console.log(
  '\nEvery safety file reaches its threshold; every surviving mutant is listed as equivalent.',
);

/**
 * `file: `line` Mutator `replacement``, the key equivalent.md lists mutants by. The line
 * is named by its text (spaces collapsed), not its number, so a listing survives edits
 * elsewhere in the file and is asked about again only when its own line changes.
 */
function mutantKey(file, lineText, mutant) {
  const flat = (text) => text.replace(/\s+/g, ' ').trim();
  return `${file}: \`${flat(lineText)}\` ${mutant.mutatorName} \`${flat(mutant.replacement ?? '')}\``;
}

/**
 * Keys from equivalent.md, each with how many bullets list it: each listed mutant is a
 * bullet `- <key> — <reason>` (the first em dash between spaces ends the key).
 */
function readEquivalents(file) {
  const counts = new Map();
  if (!existsSync(file)) return counts;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^- (.+?) — .+$/.exec(line);
    if (match?.[1]) counts.set(match[1], (counts.get(match[1]) ?? 0) + 1);
  }
  return counts;
}
