import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant: only in-process unit tests of the safety
 * modules (a test that starts the built command cannot see a mutant in the source).
 */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: [
      'packages/core/src/web/address-guard.test.ts',
      'packages/core/src/workspace/workspace-context.test.ts',
      'packages/core/src/shell/command-analysis.test.ts',
      'packages/core/src/shell/read-only-commands.test.ts',
      'packages/core/src/shell/git-read-only.test.ts',
      'packages/core/src/shell/sandbox/*.test.ts',
      'packages/core/src/utils/atomic-write.test.ts',
      'packages/core/src/utils/confined-fs.test.ts',
      'packages/core/src/providers/schema-transform.test.ts',
      'packages/core/src/providers/strict-schema.test.ts',
      // In-process tests with real bwrap and real loopback servers.
      'packages/core/test/sandbox.test.ts',
      'packages/core/test/web-fetch-network.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
