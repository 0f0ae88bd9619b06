/**
 * @toolhost/core/scheduler: The execution flow: CoreToolScheduler (lookup, validation, approval, execution), the approval rules, and the settings hooks around calls.
 */

export * from '../hooks/hook-command.js';
export * from '../hooks/hook-runner.js';
export * from '../permissions/approval-rules.js';
export * from '../scheduler/core-tool-scheduler.js';
export * from '../scheduler/external-editor.js';
