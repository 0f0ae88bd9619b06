import { describe, expect, it } from 'vitest';
import { createAgent } from '../src/agent/create-agent.js';
import type { ApprovalMode } from '../src/contract/settings-types.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import { agentFixture, scriptedEndpoint } from './helpers/agent-fixture.js';
import { type RecordedRequest, startModelServer } from './helpers/model-server.js';
import { makeWorkspace } from './helpers/temp-workspace.js';

const fx = agentFixture();

async function sessionIn(
  approvalMode: ApprovalMode,
  script: Parameters<typeof startModelServer>[0],
) {
  fx.ws = makeWorkspace({ approvalMode });
  fx.server = await startModelServer(script);
  const agent = createAgent({
    config: fx.ws.config,
    registry: createToolRegistry(fx.ws.config),
    endpoint: scriptedEndpoint(fx.server),
    maxSubagentDepth: 0,
    onConfirmationRequest: async () => ({ outcome: ToolConfirmationOutcome.ProceedOnce }),
  });
  return agent;
}

const systemText = (request: RecordedRequest | undefined) =>
  String(request?.body.messages.find((m) => m.role === 'system')?.content);

describe('the system prompt follows the approval mode', () => {
  it('tells the model of the new mode in the request after a plan is approved', async () => {
    const agent = await sessionIn('plan', [
      { toolCalls: [{ name: 'exit_plan_mode', args: { plan: '1. Add a file.' } }] },
      { text: 'Plan approved; starting.' },
    ]);
    await agent.loop.run('plan it', new AbortController().signal);
    expect(fx.ws!.config.getApprovalMode()).toBe('default');
    const [first, second] = fx.server!.requests;
    expect(systemText(first)).toContain('Approval mode: plan.');
    expect(systemText(second)).toContain('Approval mode: default.');
    expect(systemText(second)).not.toContain('Approval mode: plan.');
    expect(agent.systemPrompt).toContain('Approval mode: default.');
  });

  it('uses the mode set between runs (Shift+Tab, /approval-mode) in the next run', async () => {
    const agent = await sessionIn('default', [{ text: 'one' }, { text: 'two' }]);
    await agent.loop.run('first', new AbortController().signal);
    fx.ws!.config.setApprovalMode('yolo');
    await agent.loop.run('second', new AbortController().signal);
    expect(systemText(fx.server!.requests[0])).toContain('Approval mode: default.');
    expect(systemText(fx.server!.requests[1])).toContain('Approval mode: yolo.');
  });

  it('leaves a Config it no longer follows after close, for the next session on it', async () => {
    const first = await sessionIn('default', []);
    first.close();
    fx.ws!.config.setApprovalMode('auto-edit');
    expect(first.systemPrompt).toContain('Approval mode: default.');
    const second = createAgent({
      config: fx.ws!.config,
      registry: createToolRegistry(fx.ws!.config),
      endpoint: scriptedEndpoint(fx.server!),
      maxSubagentDepth: 0,
    });
    fx.ws!.config.setApprovalMode('yolo');
    expect(second.systemPrompt).toContain('Approval mode: yolo.');
    expect(first.systemPrompt).toContain('Approval mode: default.');
    second.close();
  });
});
