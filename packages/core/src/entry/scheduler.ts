/**
 * @toolhost/core/scheduler: The execution flow: CoreToolScheduler (lookup, validation, approval, execution), the approval rules, and the settings hooks around calls.
 */
export * from '../core/approval-rules.js';
export * from '../core/core-tool-scheduler.js';
export * from '../core/external-editor.js';
export * from '../hooks/hook-command.js';
export * from '../hooks/hook-runner.js';
