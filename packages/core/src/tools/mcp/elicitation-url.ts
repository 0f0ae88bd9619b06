/**
 * A server's request that the person visit a page outside toolhost (MCP elicitation, URL
 * mode: a third-party sign-in, a payment): which links may be shown (https only, nothing
 * before the host that could disguise it), the question put to the person through the
 * running call's confirmation channel, and what the model is told when a tool needs such
 * a visit first. The URL goes to the person only, never into the conversation; nothing is
 * opened without the person saying so (and opening is the front end's, not this file's).
 */
import type { ElicitRequestURLParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { visibleText } from '../../utils/visible-text.js';
import { ToolConfirmationOutcome, type ToolExecutionContext } from '../tools.js';

/** The link as the person will see it, or why it is not shown at all. */
export function checkVisitUrl(raw: string): { url: string; host: string } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { problem: 'it is not a valid URL' };
  }
  if (parsed.protocol !== 'https:')
    return {
      problem: `toolhost only sends people to https pages, and this link is ${parsed.protocol.replace(/:$/, '')}`,
    };
  if (parsed.username || parsed.password)
    return {
      problem: 'it has a user name or password before the host, which can disguise where it leads',
    };
  // The parser's form: an internationalised host in punycode, controls percent-encoded.
  return { url: parsed.href, host: parsed.host };
}

/**
 * Asks the person to visit the server's page. Declines without asking when nobody can be
 * asked or the link is not shown (`tell` says why to the person); `accept` means the
 * person said they will open it, which is all a client can know.
 */
export async function askToVisit(
  alias: string,
  ask: ToolExecutionContext['ask'] | undefined,
  params: Pick<ElicitRequestURLParams, 'message' | 'url'>,
  tell: (text: string) => void,
): Promise<ElicitResult> {
  if (!ask) return { action: 'decline' };
  // The error data of URLElicitationRequiredError reaches here unchecked by the SDK.
  const link = checkVisitUrl(String(params.url ?? ''));
  if ('problem' in link) {
    tell(
      `MCP server "${alias}" asked you to visit a page; toolhost declined, since ${link.problem}: ${visibleText(String(params.url ?? '').slice(0, 300))}`,
    );
    return { action: 'decline' };
  }
  const decision = await ask({
    type: 'elicitation_url',
    title: `MCP server "${alias}" asks you to visit a page (outside toolhost; the model does not see it):`,
    serverName: alias,
    message: visibleText(String(params.message ?? ''), { multiline: true }),
    url: link.url,
    host: link.host,
    onConfirm: () => undefined,
  });
  if (decision.outcome === ToolConfirmationOutcome.Cancel)
    return { action: decision.payload?.dismissed ? 'cancel' : 'decline' };
  return { action: 'accept' };
}

/**
 * What the model reads when a tool needs the person to visit pages first
 * (URLElicitationRequiredError): that the person was asked, never the links.
 */
export function visitNeededMessage(
  alias: string,
  tool: string,
  asked: boolean,
  accepted: boolean,
): string {
  const before = `MCP server ${alias} needs the person to complete a step in their browser (such as signing in to another service) before ${tool} can run.`;
  if (!asked)
    return `${before} Nobody can be asked to in this session (it is not interactive); tell the person to run the request in an interactive toolhost session.`;
  return accepted
    ? `${before} The person was shown the page and said they will complete it; call ${tool} again once they say it is done.`
    : `${before} The person was asked and did not go ahead; do not call ${tool} again unless they ask you to.`;
}

/** How many accepted visits a server may leave waiting for its completion notice. */
const MAX_PENDING = 50;

/**
 * One server's page visits: asks the person, and keeps the accepted ones until the server
 * reports them done (`notifications/elicitation/complete`), which the person is told.
 * A completion for an id it does not know (never asked, declined, already done) is ignored.
 */
export class UrlVisits {
  private readonly pending = new Map<string, string>();

  constructor(
    private readonly alias: string,
    /** Tells the person something outside any question (a front end shows it as a note). */
    private readonly tell: (text: string) => void,
  ) {}

  async ask(
    ask: ToolExecutionContext['ask'] | undefined,
    params: Pick<ElicitRequestURLParams, 'message' | 'url' | 'elicitationId'>,
  ): Promise<ElicitResult> {
    const result = await askToVisit(this.alias, ask, params, this.tell);
    if (result.action === 'accept') {
      if (this.pending.size >= MAX_PENDING) {
        const oldest = this.pending.keys().next().value;
        if (oldest !== undefined) this.pending.delete(oldest);
      }
      const link = checkVisitUrl(String(params.url));
      this.pending.set(String(params.elicitationId), 'host' in link ? link.host : '');
    }
    return result;
  }

  /** The server says the visit `elicitationId` is complete. */
  complete(elicitationId: string): void {
    const host = this.pending.get(elicitationId);
    if (host === undefined) return;
    this.pending.delete(elicitationId);
    this.tell(`MCP server "${this.alias}" reports the step on ${host} is done.`);
  }
}
