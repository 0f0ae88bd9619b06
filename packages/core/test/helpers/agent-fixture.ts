/**
 * The setup the tests of a whole agent (createAgent, openConversation) share: slots for the
 * test's workspace (or bare folders) and its scripted model server, which the test fills;
 * after each test the server is closed, the workspace's config disposed and the folders
 * removed. scriptedEndpoint points the agent at such a server.
 */
import { afterEach } from 'vitest';
import type { ModelEndpoint } from '../../src/models/endpoint.js';
import type { ModelServer } from './model-server.js';
import type { TempDirs, TempWorkspace } from './temp-workspace.js';

export interface AgentFixture {
  ws: TempWorkspace | undefined;
  dirs: TempDirs | undefined;
  server: ModelServer | undefined;
}

/** Registers the teardown; call once at the top of a test file. */
export function agentFixture(): AgentFixture {
  const fixture: AgentFixture = { ws: undefined, dirs: undefined, server: undefined };
  afterEach(async () => {
    await fixture.server?.close();
    await fixture.ws?.config.dispose();
    fixture.ws?.cleanup();
    fixture.dirs?.cleanup();
    fixture.server = fixture.ws = fixture.dirs = undefined;
  });
  return fixture;
}

/** The endpoint of a scripted model server: no retries, a 32k window, 10 s per request. */
export function scriptedEndpoint(
  server: ModelServer,
  model = 'scripted-model',
  apiKey = 'k',
): ModelEndpoint {
  return {
    baseUrl: server.baseUrl,
    apiKey,
    model,
    contextWindow: 32_000,
    timeoutMs: 10_000,
    maxRetries: 0,
  };
}
