/** The real agent loop with the real tools, in a temporary workspace, against a scripted model server. */

import type { AgentEvent } from '../../src/agent/agent-events.js';
import { AgentLoop, type AgentLoopOptions } from '../../src/agent/agent-loop.js';
import type { ConfigParameters } from '../../src/config/config.js';
import type { ModelEndpoint } from '../../src/models/endpoint.js';
import { ModelClient } from '../../src/models/model-client.js';
import { createToolRegistry } from '../../src/tools/builtin.js';
import type { ToolRegistry } from '../../src/tools/tool-registry.js';
import {
  type ModelServer,
  type ModelServerOptions,
  type Script,
  startModelServer,
} from './model-server.js';
import { makeWorkspace, type TempWorkspace } from './temp-workspace.js';

export interface AgentHarness {
  ws: TempWorkspace;
  server: ModelServer;
  model: ModelClient;
  registry: ToolRegistry;
  events: AgentEvent[];
  loop(options?: Partial<AgentLoopOptions>): AgentLoop;
  close(): Promise<void>;
}

export async function startAgentHarness(
  script: Script,
  options: {
    config?: Omit<ConfigParameters, 'roots' | 'homeDir'>;
    endpoint?: Partial<ModelEndpoint>;
    stream?: boolean;
    server?: ModelServerOptions;
  } = {},
): Promise<AgentHarness> {
  const ws = makeWorkspace(options.config);
  const server = await startModelServer(script, options.server);
  const model = new ModelClient(
    {
      baseUrl: server.baseUrl,
      apiKey: 'test',
      model: 'scripted-model',
      contextWindow: 32_000,
      timeoutMs: 5_000,
      maxRetries: 2,
      ...options.endpoint,
    },
    { stream: options.stream ?? true, retry: { baseDelayMs: 10 } },
  );
  const registry = createToolRegistry(ws.config);
  const events: AgentEvent[] = [];
  return {
    ws,
    server,
    model,
    registry,
    events,
    loop: (overrides = {}) =>
      new AgentLoop({
        config: ws.config,
        registry,
        model,
        systemPrompt: 'You are a test agent.',
        onEvent: (event) => events.push(event),
        ...overrides,
      }),
    close: async () => {
      await server.close();
      await ws.config.dispose();
      ws.cleanup();
    },
  };
}
