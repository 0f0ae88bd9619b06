/**
 * The safety modules under mutation testing, in groups that Stryker runs one after the
 * other, each with only the tests that exercise its modules: a mutant in code that runs
 * when a module loads (a rule table) is tested against every test of its run, so small
 * runs keep those mutants cheap. Every file must reach its threshold (percent).
 */
const core = (file) => `packages/core/src/${file}`;
const test = (file) => `packages/core/test/${file}`;

export const GROUPS = [
  {
    name: 'web',
    mutate: ['web/address-guard.ts'],
    tests: [core('web/address-guard.test.ts'), test('web-fetch-network.test.ts')],
  },
  {
    name: 'workspace',
    mutate: ['workspace/workspace-context.ts'],
    tests: [core('workspace/workspace-context.test.ts')],
  },
  {
    name: 'files',
    mutate: ['utils/atomic-write.ts', 'utils/confined-fs.ts'],
    tests: [
      core('utils/atomic-write.test.ts'),
      core('utils/confined-fs.test.ts'),
      core('utils/confined-fs-folders.test.ts'),
    ],
  },
  {
    name: 'command-analysis',
    mutate: ['shell/command-analysis.ts'],
    tests: [core('shell/command-analysis.test.ts'), core('shell/read-only-commands.test.ts')],
  },
  {
    name: 'sandbox',
    mutate: [
      'shell/sandbox/policy.ts',
      'shell/sandbox/bwrap.ts',
      'shell/sandbox/seccomp.ts',
      'shell/sandbox/profiles/profiles.ts',
      'shell/sandbox/profiles/unasked.ts',
      'shell/sandbox/profiles/approved.ts',
      'shell/sandbox/profiles/credentials.ts',
    ],
    // In process: the mounts each profile yields, the bwrap arguments, the socket filter
    // (run in an interpreter) and the probe. The effects, with commands run inside bwrap as
    // root and as nobody, are proven by test/sandbox*.test.ts, out of this run.
    tests: [
      core('shell/sandbox/policy.test.ts'),
      core('shell/sandbox/bwrap.test.ts'),
      core('shell/sandbox/bwrap-probe.test.ts'),
      core('shell/sandbox/seccomp.test.ts'),
      core('shell/sandbox/profiles/profiles.test.ts'),
      core('shell/sandbox/profiles/unasked.test.ts'),
      core('shell/sandbox/profiles/approved.test.ts'),
      core('shell/sandbox/profiles/credentials.test.ts'),
    ],
  },
  {
    name: 'providers',
    mutate: [
      'providers/schema-transform.ts',
      'providers/schema-constraints.ts',
      'providers/strict-schema.ts',
    ],
    tests: [core('providers/schema-transform.test.ts'), core('providers/strict-schema.test.ts')],
  },
  {
    name: 'read-only',
    mutate: [
      'shell/read-only-command-table.ts',
      'shell/git-read-only.ts',
      'shell/git-read-only-table.ts',
      'shell/git-read-only-config.ts',
      'shell/git-discovery.ts',
      'shell/git-submodule-folders.ts',
    ],
    tests: [
      core('shell/read-only-commands.test.ts'),
      core('shell/git-submodule-folders.test.ts'),
      core('shell/read-only-command-table.test.ts'),
      core('shell/git-read-only.test.ts'),
      core('shell/git-read-only-config.test.ts'),
      core('shell/git-read-only-table.test.ts'),
      core('shell/git-read-only-paths.test.ts'),
      core('shell/git-config-programs.test.ts'),
      core('shell/git-index-gitlinks.test.ts'),
    ],
  },
  {
    name: 'permissions',
    // The rule compiler and matcher: path specifiers against canonical paths, hosts and
    // addresses, MCP names against the configured servers.
    mutate: ['permissions/path-patterns.ts', 'permissions/mcp-names.ts', 'permissions/decision.ts'],
    tests: [
      core('permissions/path-patterns.test.ts'),
      core('permissions/mcp-names.test.ts'),
      core('permissions/decision.test.ts'),
      core('permissions/shell-rules.test.ts'),
    ],
  },
].map((group) => ({ ...group, mutate: group.mutate.map(core) }));

export const THRESHOLD = 90;

/** Every mutated file with its threshold and group. */
export const SAFETY_FILES = GROUPS.flatMap((group) =>
  group.mutate.map((path) => ({ path, threshold: THRESHOLD, group: group.name })),
);

/** The group named by MUTATION_GROUP (run.mjs sets it for each Stryker run). */
export function currentGroup() {
  const name = process.env.MUTATION_GROUP;
  const group = GROUPS.find((candidate) => candidate.name === name);
  if (!group)
    throw new Error(
      `MUTATION_GROUP is ${name === undefined ? 'not set' : `"${name}"`}; run \`npm run mutation\` or set it to one of: ${GROUPS.map((g) => g.name).join(', ')}.`,
    );
  return group;
}
