/** The real agent loop with the real tools, in a temporary workspace, against a scripted Anthropic, Gemini or Responses server. */
import type { AgentEvent } from '../../src/agent/agent-events.js';
import { AgentLoop } from '../../src/agent/agent-loop.js';
import type { ModelEndpoint } from '../../src/models/endpoint.js';
import { ModelClient } from '../../src/models/model-client.js';
import type { ModelProvider } from '../../src/models/provider.js';
import { createToolRegistry } from '../../src/tools/builtin.js';
import type { ToolRegistry } from '../../src/tools/tool-registry.js';
import {
  type ApiFamily,
  type ProviderServer,
  type ProviderStep,
  startProviderServer,
} from './provider-servers.js';
import { makeWorkspace, type TempWorkspace } from './temp-workspace.js';

export interface ProviderHarness {
  ws: TempWorkspace;
  server: ProviderServer;
  model: ModelClient;
  registry: ToolRegistry;
  events: AgentEvent[];
  loop(): AgentLoop;
  close(): Promise<void>;
}

const PROVIDERS: Record<ApiFamily, ModelProvider> = {
  anthropic: 'anthropic',
  gemini: 'gemini',
  responses: 'openai-responses',
};

export async function startProviderHarness(
  family: ApiFamily,
  script: Parameters<typeof startProviderServer>[1],
  endpoint: Partial<ModelEndpoint> = {},
): Promise<ProviderHarness> {
  const ws = makeWorkspace();
  const server = await startProviderServer(family, script);
  const model = new ModelClient(
    {
      provider: PROVIDERS[family],
      baseUrl: server.baseUrl,
      apiKey: 'test-key',
      model: `${family}-scripted-model`,
      contextWindow: 32_000,
      contextWindowSource: 'settings',
      timeoutMs: 5_000,
      maxRetries: 2,
      ...endpoint,
    },
    { retry: { baseDelayMs: 10 } },
  );
  const registry = createToolRegistry(ws.config);
  const events: AgentEvent[] = [];
  return {
    ws,
    server,
    model,
    registry,
    events,
    loop: () =>
      new AgentLoop({
        config: ws.config,
        registry,
        model,
        systemPrompt: 'You are a test agent.',
        onEvent: (event) => events.push(event),
      }),
    close: async () => {
      await server.close();
      await ws.config.dispose();
      ws.cleanup();
    },
  };
}

export type { ProviderStep };
