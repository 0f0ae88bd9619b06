/** The safety modules under mutation testing and the score each must reach (percent). */
export const SAFETY_FILES = [
  'web/address-guard.ts',
  'workspace/workspace-context.ts',
  'shell/command-analysis.ts',
  'shell/read-only-commands.ts',
  'shell/git-read-only.ts',
  'shell/sandbox/policy.ts',
  'shell/sandbox/bwrap.ts',
  'utils/atomic-write.ts',
  'utils/confined-fs.ts',
  'providers/schema-transform.ts',
  'providers/strict-schema.ts',
].map((file) => ({ path: `packages/core/src/${file}`, threshold: 90 }));
