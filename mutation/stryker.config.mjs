/**
 * Mutation testing of the safety code (`npm run mutation`; not part of `npm test`).
 * Per-file thresholds are enforced afterwards by check-scores.mjs: Stryker's own are global.
 * Surviving mutants that cannot change behaviour are listed in equivalent.md.
 */
import { SAFETY_FILES } from './safety-files.mjs';

// A umask that keeps group write: under the usual 022 a file created with the system's 0666
// and one created with toolhost's own 0644 look the same, so a test could not tell them apart.
process.umask(0o002);

export default {
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.config.ts' },
  coverageAnalysis: 'perTest',
  checkers: [],
  mutate: SAFETY_FILES.map((file) => file.path),
  ignorePatterns: ['bench', 'packages/cli', 'packages/*/dist', 'reports', '.ci'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  incrementalFile: 'reports/mutation/incremental.json',
  tempDirName: '.stryker-tmp',
  concurrency: 2,
  timeoutMS: 10_000,
  thresholds: { high: 95, low: 90, break: null },
};
