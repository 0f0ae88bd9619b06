import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/src/**/*.test.tsx',
      'packages/*/test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The CLI tests run the command as installed from the packed tarballs (see the file).
    globalSetup: ['packages/cli/test/setup/installed-command.ts'],
    // Type tests (*.test-d.ts) run through `tsc -p tsconfig.typetest.json` in `npm test`:
    // vitest's own typecheck mode prints an experimental-feature warning on every run.
  },
});
