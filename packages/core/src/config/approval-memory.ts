/**
 * What a person allowed "always" (tools, shell command names, web hosts, MCP servers and
 * tools) and the approval mode their answers set (exit_plan_mode), kept per approver. A
 * front end with one person uses the Config's own memory; a front end serving several
 * clients at once (`toolhost mcp --http`) runs each client's calls inside that client's
 * memory, so one client's "always" never lets another client's calls run unasked. The
 * memory in effect follows the call through its awaits (AsyncLocalStorage), so tools read
 * `config.sessionAllowed*` as before and get the memory of whoever is being asked.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ApprovalMode } from '../contract/settings-types.js';

export class ApprovalMemory {
  readonly tools: Set<string>;
  readonly shellCommands: Set<string>;
  readonly hosts: Set<string>;
  readonly mcp: Set<string>;
  /** The mode this approver's answers switched to, when it differs from the Config's. */
  approvalMode: ApprovalMode | undefined;

  /**
   * `shared`: the same person's memory whose "always" answers this one shares while it
   * has its own approval mode (a subagent whose file sets one).
   */
  constructor(shared?: ApprovalMemory) {
    this.tools = shared?.tools ?? new Set();
    this.shellCommands = shared?.shellCommands ?? new Set();
    this.hosts = shared?.hosts ?? new Set();
    this.mcp = shared?.mcp ?? new Set();
  }
}

const current = new AsyncLocalStorage<ApprovalMemory>();

/** Runs `work` (and everything it awaits) with `memory` as the approver's memory. */
export function withApprovalMemory<T>(memory: ApprovalMemory, work: () => T): T {
  return current.run(memory, work);
}

/** The memory of the approver whose call is running, if a front end set one. */
export function activeApprovalMemory(): ApprovalMemory | undefined {
  return current.getStore();
}
