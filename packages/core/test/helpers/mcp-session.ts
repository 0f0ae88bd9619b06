/**
 * The setup MCP tests share: a temporary workspace per test, registries over the MCP
 * servers a test configures (every one closed after the test, so no server outlives it),
 * and calls through the real scheduler.
 */
import { afterEach, beforeEach } from 'vitest';
import { Config } from '../../src/config/config.js';
import type { McpServerSettings } from '../../src/config/settings.js';
import {
  CoreToolScheduler,
  type CoreToolSchedulerOptions,
} from '../../src/scheduler/core-tool-scheduler.js';
import type { CompletedToolCall } from '../../src/scheduler/tool-call-types.js';
import { createToolRegistry } from '../../src/tools/builtin.js';
import type { ToolRegistry } from '../../src/tools/tool-registry.js';
import { makeWorkspace, type TempWorkspace } from './temp-workspace.js';

export interface McpSession {
  /** This test's workspace (a new one for each test). */
  readonly ws: TempWorkspace;
  /** A config and registry over these servers; discovery is the test's to start. */
  open(mcpServers: Record<string, McpServerSettings>): { config: Config; registry: ToolRegistry };
}

/** Registers the beforeEach/afterEach of an MCP test file; call it at the file's top level. */
export function useMcpSession(): McpSession {
  let ws: TempWorkspace | undefined;
  const opened: ToolRegistry[] = [];
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((registry) => registry.closeMcpServers()));
    ws?.cleanup();
    ws = undefined;
  });
  return {
    get ws() {
      if (!ws) throw new Error('useMcpSession: the workspace exists only inside a test');
      return ws;
    },
    open(mcpServers) {
      const { root, home } = this.ws;
      const config = new Config({ roots: [root], homeDir: home, settings: { mcpServers } });
      const registry = createToolRegistry(config, { env: {} });
      opened.push(registry);
      return { config, registry };
    },
  };
}

/** Runs one call through the scheduler, as a model's function call would run. */
export async function runTool(
  config: Config,
  registry: ToolRegistry,
  name: string,
  args: Record<string, unknown> = {},
  options: Partial<Omit<CoreToolSchedulerOptions, 'config' | 'toolRegistry'>> & {
    signal?: AbortSignal;
  } = {},
): Promise<CompletedToolCall> {
  const { signal = AbortSignal.timeout(60_000), ...schedulerOptions } = options;
  const scheduler = new CoreToolScheduler({ config, toolRegistry: registry, ...schedulerOptions });
  const [done] = await scheduler.schedule({ callId: name, name, args }, signal);
  if (!done) throw new Error(`the scheduler returned nothing for ${name}`);
  return done;
}

/** The text a call gave back to the model. */
export function outputOf(done: CompletedToolCall): string {
  return String(done.response.responseParts[0]?.functionResponse?.response?.output ?? '');
}
