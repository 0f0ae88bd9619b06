/** Hooks from settings around the real agent loop (agent-harness.ts), with the fixture hook scripts. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import type { Settings } from '../../src/contract/settings-types.js';
import { HookRunner } from '../../src/hooks/hook-runner.js';
import { type AgentHarness, startAgentHarness } from './agent-harness.js';
import type { Script } from './model-server.js';
import { FIXTURES } from './temp-workspace.js';

export const HOOKS = path.join(FIXTURES, 'hooks');
/** A command line running one fixture script with its arguments. */
export const script = (name: string, ...args: string[]) =>
  quote(['sh', path.join(HOOKS, name), ...args]);
/** Logs each event's input into hook.log in the project (found through the hooks' own variable). */
export const LOG = `sh ${quote([path.join(HOOKS, 'log-input.sh')])} "$CLAUDE_PROJECT_DIR/hook.log"`;

/** The harness the running test started (scripts read its workspace lazily). */
export const current: { harness: AgentHarness | undefined } = { harness: undefined };

export async function closeHarness(): Promise<void> {
  await current.harness?.close();
  current.harness = undefined;
}

export async function start(
  modelScript: Script,
  hooks: Settings['hooks'],
  config: { approvalMode?: 'plan' | 'default' | 'auto-edit' | 'yolo'; settings?: Settings } = {},
) {
  const harness = await startAgentHarness(modelScript, {
    config: { ...config, settings: { ...config.settings, hooks } },
  });
  current.harness = harness;
  const runner = HookRunner.fromConfig(harness.ws.config);
  const messages: string[] = [];
  if (runner) runner.onMessage = (message) => messages.push(message);
  return { h: harness, runner: runner!, messages };
}

export const never = () => new AbortController().signal;
export type Message = { role: string; content?: unknown; tool_call_id?: string };

/** The tool message of request `request`. */
export const toolMessage = (h: AgentHarness, request: number) =>
  String(
    (h.server.requests[request]!.body.messages as Message[]).find((m) => m.role === 'tool')
      ?.content,
  );

/** The events the LOG hook recorded, in order. */
export const logged = (h: AgentHarness) =>
  existsSync(h.ws.p('hook.log'))
    ? readFileSync(h.ws.p('hook.log'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];

export const writeCall = (file: string, content = 'written by the model\n') => ({
  toolCalls: [{ id: 'w1', name: 'write_file', args: { file_path: file, content } }],
});
