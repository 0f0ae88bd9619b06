/**
 * `npm run mutation [-- --group NAME …] [-- stryker options]`: runs Stryker once per group
 * of safety modules (safety-files.mjs), then check-scores.mjs. Options other than --group
 * go to Stryker, e.g. `--concurrency 1` or `--incremental`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GROUPS } from './safety-files.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const wanted = [];
const strykerArgs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--group') wanted.push(args[++i]);
  else strykerArgs.push(args[i]);
}
const unknown = wanted.filter((name) => !GROUPS.some((group) => group.name === name));
if (unknown.length > 0) {
  console.error(
    `Unknown group ${unknown.join(', ')}; the groups are: ${GROUPS.map((g) => g.name).join(', ')}.`,
  );
  process.exit(2);
}
const groups = wanted.length > 0 ? GROUPS.filter((g) => wanted.includes(g.name)) : GROUPS;

const started = Date.now();
const failed = [];
for (const group of groups) {
  const groupStarted = Date.now();
  console.log(`\n== mutation group ${group.name}: ${group.mutate.join(', ')}`);
  const run = spawnSync('npx', ['stryker', 'run', 'mutation/stryker.config.mjs', ...strykerArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MUTATION_GROUP: group.name },
  });
  if (run.status !== 0) {
    console.error(`Stryker failed for the group ${group.name} (exit ${run.status ?? run.signal}).`);
    failed.push(group.name);
  }
  console.log(`== ${group.name} took ${minutes(Date.now() - groupStarted)}`);
}
console.log(`\nMutation testing took ${minutes(Date.now() - started)} in all.`);
if (failed.length > 0) {
  console.error(`Stryker could not test the group(s) ${failed.join(', ')}; see above.`);
  process.exit(1);
}

const check = spawnSync(
  process.execPath,
  ['mutation/check-scores.mjs', ...groups.map((g) => `--group=${g.name}`)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(check.status ?? 1);

function minutes(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
