/**
 * A server's questions (elicitation) reach the person through the scheduler's
 * confirmation channel; answers are checked against the server's schema, defaults fill
 * what was left out, and a session that cannot ask declines.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Config } from '../src/config/config.js';
import type { ConfirmationDecision, WaitingToolCall } from '../src/scheduler/tool-call-types.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import { sdkServerScript } from './helpers/mcp-servers.js';
import { outputOf, runTool, useMcpSession } from './helpers/mcp-session.js';

const session = useMcpSession();

/** A server whose tool asks for a name, an age (default 30) and a colour, and reports the answer. */
async function askingServer() {
  const script = path.join(session.ws.base, 'asking.mjs');
  writeFileSync(
    script,
    sdkServerScript(`
      const server = new McpServer({ name: 'asking', version: '1.0.0' });
      server.registerTool('register', { description: 'asks who you are' }, async () => {
        const answer = await server.server.elicitInput({
          message: 'Who is registering?',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', title: 'Name', minLength: 2 },
              age: { type: 'integer', title: 'Age', default: 30 },
              colour: { type: 'string', enum: ['red', 'blue'] },
            },
            required: ['name'],
          },
        });
        return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
      });
      await server.connect(new StdioServerTransport());`),
  );
  const opened = session.open({
    asking: { command: process.execPath, args: [script], trust: true },
  });
  await opened.registry.discoverAllTools();
  return opened;
}

async function register(
  config: Config,
  reg: ToolRegistry,
  answer?: (call: WaitingToolCall) => Promise<ConfirmationDecision>,
) {
  const done = await runTool(
    config,
    reg,
    'register',
    {},
    {
      ...(answer ? { onConfirmationRequest: answer } : {}),
      signal: new AbortController().signal,
    },
  );
  return JSON.parse(outputOf(done));
}

describe('elicitation from an MCP server', () => {
  it('asks the person through the confirmation channel and fills in defaults', async () => {
    const { config, registry: reg } = await askingServer();
    const asked: string[] = [];
    const result = await register(config, reg, async (call) => {
      const details = call.confirmationDetails;
      if (details.type === 'elicitation') asked.push(`${details.serverName}: ${details.message}`);
      return {
        outcome: ToolConfirmationOutcome.ProceedOnce,
        payload: { answers: { name: 'Ada', colour: 'blue' } },
      };
    });
    expect(asked).toEqual(['asking: Who is registering?']);
    expect(result).toEqual({ action: 'accept', content: { name: 'Ada', age: 30, colour: 'blue' } });
  });

  it('asks again, saying what was wrong, when answers break the schema', async () => {
    const { config, registry: reg } = await askingServer();
    const messages: string[] = [];
    const answers = [{ name: 'A', colour: 'green' }, { name: 'Ada' }];
    const result = await register(config, reg, async (call) => {
      const details = call.confirmationDetails;
      if (details.type === 'elicitation') messages.push(details.message);
      return {
        outcome: ToolConfirmationOutcome.ProceedOnce,
        payload: { answers: answers.shift() ?? {} },
      };
    });
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatch(/colour must be one of "red", "blue"/);
    expect(result).toEqual({ action: 'accept', content: { name: 'Ada', age: 30 } });
  });

  it('declines when the person says no, or when nobody can be asked; cancels when dismissed', async () => {
    const { config, registry: reg } = await askingServer();
    expect(
      await register(config, reg, async () => ({ outcome: ToolConfirmationOutcome.Cancel })),
    ).toEqual({ action: 'decline' });
    expect(
      await register(config, reg, async () => ({
        outcome: ToolConfirmationOutcome.Cancel,
        payload: { dismissed: true },
      })),
    ).toEqual({ action: 'cancel' });
    expect(await register(config, reg)).toEqual({ action: 'decline' });
  });
});
