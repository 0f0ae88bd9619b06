import { defineConfig } from 'vitest/config';
import { currentGroup } from './safety-files.mjs';

/**
 * The tests Stryker runs against the mutants of one group (MUTATION_GROUP): only
 * in-process tests of its modules, so a mutant can be killed and each run stays short.
 */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: currentGroup().tests,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
