/**
 * Stryker for one group of safety modules (MUTATION_GROUP, see safety-files.mjs); run.mjs
 * runs every group, then check-scores.mjs holds each file to its own threshold (Stryker's
 * thresholds are global). Surviving mutants that cannot change behaviour: equivalent.md.
 */
import { currentGroup } from './safety-files.mjs';

// A umask that keeps group write: under the usual 022 a file created with the system's 0666
// and one created with toolhost's own 0644 look the same, so a test could not tell them apart.
process.umask(0o002);

const group = currentGroup();
const reports = `reports/mutation/${group.name}`;

export default {
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: group.mutate,
  ignorePatterns: ['bench', 'packages/cli', 'packages/*/dist', 'reports', '.ci', '.stryker-tmp*'],
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `${reports}/index.html` },
  jsonReporter: { fileName: `${reports}/mutation.json` },
  incrementalFile: `${reports}/incremental.json`,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  concurrency: 2,
  // Each mutant's tests run in a new worker thread, which compiles tree-sitter's WebAssembly
  // again; V8's optimising tier-up of that code piled up across workers, so a group's runs
  // grew from 0.5 s to several seconds of CPU each. Liftoff alone keeps every run at ~0.5 s.
  testRunnerNodeArgs: ['--liftoff-only'],
  timeoutMS: 10_000,
  thresholds: { high: 95, low: 90, break: null },
};
