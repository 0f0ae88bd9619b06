/**
 * A server's request that the person visit a page (elicitation, URL mode), with a real
 * server written with the MCP SDK: offered only where a person can be asked; the person
 * sees the server, its message, the whole https link and its host; accept, decline and
 * cancel reach the server; other links are declined with a note; the server's completion
 * notice is passed on (unknown ids ignored); a tool that needs a visit first shows the
 * link to the person and tells the model only that the person was asked.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ConfirmationDecision, WaitingToolCall } from '../src/scheduler/tool-call-types.js';
import {
  ToolConfirmationOutcome,
  type ToolElicitationUrlConfirmationDetails,
} from '../src/tools/tools.js';
import { sdkServerScript } from './helpers/mcp-servers.js';
import { outputOf, runTool, useMcpSession } from './helpers/mcp-session.js';

const session = useMcpSession();
const SDK_TYPES = fileURLToPath(import.meta.resolve('@modelcontextprotocol/sdk/types.js'));

const VISITING_SERVER = sdkServerScript(`
import { UrlElicitationRequiredError } from ${JSON.stringify(SDK_TYPES)};
const server = new McpServer({ name: 'visiting', version: '1.0.0' });
server.registerTool('link_account', { description: 'links an account', inputSchema: { url: z.string() } }, async ({ url }) => {
  if (!server.server.getClientCapabilities()?.elicitation?.url)
    return { content: [{ type: 'text', text: JSON.stringify({ offered: false }) }] };
  const answer = await server.server.elicitInput({
    mode: 'url',
    message: 'Sign in to Example to link your account.',
    url,
    elicitationId: 'visit-1',
  });
  // A completion for an id the client never accepted comes first: it must be ignored.
  await server.server.notification({ method: 'notifications/elicitation/complete', params: { elicitationId: 'never-asked' } });
  if (answer.action === 'accept') await server.server.createElicitationCompletionNotifier('visit-1')();
  return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
});
server.registerTool('list_repos', { description: 'needs a linked account' }, async () => {
  throw new UrlElicitationRequiredError([{
    mode: 'url',
    message: 'Connect your Example account first.',
    url: 'https://auth.example.com/connect?state=s3cret',
    elicitationId: 'visit-2',
  }]);
});
await server.connect(new StdioServerTransport());
`);

async function visitingServer(personPresent: boolean) {
  const script = path.join(session.ws.base, 'visiting.mjs');
  writeFileSync(script, VISITING_SERVER);
  const opened = session.open({
    visiting: { command: process.execPath, args: [script], trust: true },
  });
  opened.config.urlElicitation = personPresent;
  const notices: string[] = [];
  opened.registry.onServerNotice((text) => notices.push(text));
  await opened.registry.discoverAllTools();
  return { ...opened, notices };
}

/** Answers every page visit with `decision`, keeping what the person was shown. */
function person(decision: ConfirmationDecision) {
  const shown: ToolElicitationUrlConfirmationDetails[] = [];
  const answer = async (call: WaitingToolCall): Promise<ConfirmationDecision> => {
    const details = call.confirmationDetails;
    if (details.type !== 'elicitation_url') throw new Error(`unexpected ${details.type}`);
    shown.push(details);
    return decision;
  };
  return { shown, answer };
}

async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 10_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('page visits asked by an MCP server', () => {
  it('shows the server, its message, the link and its host; accept reaches the server and its completion notice the person', async () => {
    const { config, registry, notices } = await visitingServer(true);
    const { shown, answer } = person({ outcome: ToolConfirmationOutcome.ProceedOnce });
    const done = await runTool(
      config,
      registry,
      'link_account',
      { url: 'https://login.example.com/link?code=42' },
      { onConfirmationRequest: answer },
    );
    expect(JSON.parse(outputOf(done))).toEqual({ action: 'accept' });
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      serverName: 'visiting',
      message: 'Sign in to Example to link your account.',
      url: 'https://login.example.com/link?code=42',
      host: 'login.example.com',
    });
    expect(shown[0]?.title).toContain('MCP server "visiting"');
    await until(() => notices.length > 0);
    // Only the visit the person accepted: the unknown id was ignored.
    expect(notices).toEqual([
      'MCP server "visiting" reports the step on login.example.com is done.',
    ]);
  });

  it('answers decline when the person says no and cancel when they dismiss it; no completion is passed on', async () => {
    const { config, registry, notices } = await visitingServer(true);
    const no = person({ outcome: ToolConfirmationOutcome.Cancel });
    const declined = await runTool(
      config,
      registry,
      'link_account',
      { url: 'https://login.example.com/' },
      { onConfirmationRequest: no.answer },
    );
    expect(JSON.parse(outputOf(declined))).toEqual({ action: 'decline' });
    const dismissed = person({
      outcome: ToolConfirmationOutcome.Cancel,
      payload: { dismissed: true },
    });
    const cancelled = await runTool(
      config,
      registry,
      'link_account',
      { url: 'https://login.example.com/' },
      { onConfirmationRequest: dismissed.answer },
    );
    expect(JSON.parse(outputOf(cancelled))).toEqual({ action: 'cancel' });
    expect(no.shown).toHaveLength(1);
    expect(dismissed.shown).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('declines links that are not plain https without asking, telling the person why', async () => {
    const { config, registry, notices } = await visitingServer(true);
    const { shown, answer } = person({ outcome: ToolConfirmationOutcome.ProceedOnce });
    for (const url of [
      'http://login.example.com/',
      'javascript:alert(1)',
      'https://good.example.com@evil.example.net/',
    ]) {
      const done = await runTool(
        config,
        registry,
        'link_account',
        { url },
        {
          onConfirmationRequest: answer,
        },
      );
      expect(JSON.parse(outputOf(done))).toEqual({ action: 'decline' });
    }
    expect(shown).toEqual([]);
    expect(notices).toHaveLength(3);
    expect(notices[0]).toMatch(
      /declined, since toolhost only sends people to https pages, and this link is http/,
    );
    expect(notices[2]).toMatch(/user name or password before the host/);
  });

  it('is not offered where nobody can be asked (headless), and declined when no call can ask', async () => {
    const headless = await visitingServer(false);
    const { shown, answer } = person({ outcome: ToolConfirmationOutcome.ProceedOnce });
    const done = await runTool(
      headless.config,
      headless.registry,
      'link_account',
      { url: 'https://login.example.com/' },
      { onConfirmationRequest: answer },
    );
    expect(JSON.parse(outputOf(done))).toEqual({ offered: false });
    expect(shown).toEqual([]);
    // Offered, but this call has nobody to ask: a clean decline.
    const unanswered = await visitingServer(true);
    const alone = await runTool(unanswered.config, unanswered.registry, 'link_account', {
      url: 'https://login.example.com/',
    });
    expect(JSON.parse(outputOf(alone))).toEqual({ action: 'decline' });
  });

  it('a tool that needs a visit first: the person sees the link, the model only that they were asked', async () => {
    const { config, registry } = await visitingServer(true);
    const { shown, answer } = person({ outcome: ToolConfirmationOutcome.ProceedOnce });
    const done = await runTool(
      config,
      registry,
      'list_repos',
      {},
      {
        onConfirmationRequest: answer,
      },
    );
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      message: 'Connect your Example account first.',
      url: 'https://auth.example.com/connect?state=s3cret',
      host: 'auth.example.com',
    });
    const forModel = JSON.stringify(done.response.responseParts);
    expect(forModel).toMatch(/needs the person to complete a step in their browser/);
    expect(forModel).toMatch(/said they will complete it; call list_repos again/);
    expect(forModel).not.toMatch(/auth\.example\.com|s3cret/);

    // Headless: nobody is asked, and the model is told so (still without the link).
    const headless = await visitingServer(false);
    const nobody = await runTool(headless.config, headless.registry, 'list_repos', {});
    const text = JSON.stringify(nobody.response.responseParts);
    expect(text).toMatch(/Nobody can be asked to in this session/);
    expect(text).not.toMatch(/auth\.example\.com|s3cret/);
  });
});
