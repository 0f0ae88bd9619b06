/**
 * A scheduler over recording tools (a reader, a writer that asks as an edit, a runner that
 * asks as a command and streams, an image tool) in a fresh temporary folder per test, with
 * every state change and every question recorded. Call `schedulerFixture()` at the top of a
 * test file; its fields are renewed before each test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { Config } from '../../src/config/config.js';
import type { ApprovalMode, Settings } from '../../src/config/settings.js';
import {
  CoreToolScheduler,
  type CoreToolSchedulerOptions,
} from '../../src/scheduler/core-tool-scheduler.js';
import type {
  ConfirmationDecision,
  ToolCall,
  WaitingToolCall,
} from '../../src/scheduler/tool-call-types.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';
import { Kind, ToolConfirmationOutcome } from '../../src/tools/tools.js';
import { ImageTool, newRunLog, RecordingTool, type RunLog } from './test-tools.js';

export interface SchedulerSetupOptions extends Partial<CoreToolSchedulerOptions> {
  settings?: Settings;
  approvalMode?: ApprovalMode;
  /** The person's answer; without it nobody can be asked. */
  answer?: (call: WaitingToolCall) => Promise<ConfirmationDecision> | ConfirmationDecision;
}

export interface SchedulerFixture {
  base: string;
  log: RunLog;
  reader: RecordingTool;
  writer: RecordingTool;
  runner: RecordingTool;
  setup(options?: SchedulerSetupOptions): {
    config: Config;
    registry: ToolRegistry;
    scheduler: CoreToolScheduler;
    updates: ToolCall[][];
    asked: WaitingToolCall[];
  };
}

export function schedulerFixture(): SchedulerFixture {
  const fixture = { setup } as SchedulerFixture;
  beforeEach(() => {
    fixture.base = mkdtempSync(path.join(os.tmpdir(), 'toolhost-sched-'));
    fixture.log = newRunLog();
    fixture.reader = new RecordingTool('read_thing', Kind.Read, fixture.log);
    fixture.writer = new RecordingTool('write_thing', Kind.Edit, fixture.log, {
      confirmation: 'edit',
    });
    fixture.runner = new RecordingTool('run_thing', Kind.Execute, fixture.log, {
      confirmation: 'exec',
      streams: true,
    });
  });
  afterEach(() => rmSync(fixture.base, { recursive: true, force: true }));

  function setup(options: SchedulerSetupOptions = {}) {
    const config = new Config({
      roots: [fixture.base],
      settings: options.settings ?? {},
      approvalMode: options.approvalMode,
      homeDir: path.join(fixture.base, 'home'),
    });
    const registry = new ToolRegistry(config);
    for (const tool of [fixture.reader, fixture.writer, fixture.runner, new ImageTool()])
      registry.registerTool(tool);
    const updates: ToolCall[][] = [];
    const asked: WaitingToolCall[] = [];
    const answer = options.answer;
    const scheduler = new CoreToolScheduler({
      config,
      toolRegistry: registry,
      onToolCallsUpdate: (calls) => updates.push([...calls]),
      ...(answer
        ? {
            onConfirmationRequest: async (call) => {
              asked.push(call);
              return answer(call);
            },
          }
        : {}),
      ...options,
    });
    return { config, registry, scheduler, updates, asked };
  }
  return fixture;
}

export const proceed = (): ConfirmationDecision => ({
  outcome: ToolConfirmationOutcome.ProceedOnce,
});

/** A call whose id is its tool's name unless given. */
export const call = (name: string, args: Record<string, unknown> = {}, callId = name) => ({
  callId,
  name,
  args,
});

export const signal = () => new AbortController().signal;
