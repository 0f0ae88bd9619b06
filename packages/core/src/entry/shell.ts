/**
 * @toolhost/core/shell: The shell: running a command, the OS sandbox and its profiles, the paths rules cover.
 */

export * from '../permissions/covered-paths.js';
export * from '../shell/sandbox/profiles/profiles.js';
export * from '../shell/sandbox/rule-paths/covered.js';
export * from '../shell/sandbox/sandbox.js';
export * from '../shell/shell-execution.js';
