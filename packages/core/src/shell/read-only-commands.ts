/**
 * The allow-list of commands that only read, with the options known to be safe for each:
 * a command runs without asking in `default` mode only when it is listed here and uses
 * nothing but these options. Anything else (an unknown option, a leading assignment, a
 * file outside the workspace) asks; the table is in read-only-command-table.ts, the checks
 * in read-only-check.ts, and the cases that prove the table in read-only-commands.test.ts.
 */
export { READ_ONLY_COMMANDS } from './read-only-command-table.js';
export type { ReadOnlySpec } from './read-only-spec.js';
