/**
 * WebFetch rules on every hop of a fetch: the scheduler decides the call on the URL the
 * model sent, and these checks hold the same rules against each redirect's host and
 * against the addresses a name resolves to, where a rule names an address
 * (`WebFetch(domain:127.0.0.1)` also refuses `localhost`). A hop to a host a deny rule
 * names is refused; one an ask rule names is not followed (nobody can be asked in the
 * middle of a fetch): the model is told the URL, whose own call then asks.
 */
import type { Config } from '../config/config.js';
import { WebFetchError } from '../web/url-check.js';
import { sessionBases, sessionRules } from './call-rules.js';
import { type CallFacts, decideCall, normalHost, type Verdict } from './decision.js';

const facts = (host: string): CallFacts => ({
  tool: 'web_fetch',
  displayName: 'WebFetch',
  paths: [],
  host,
});

/** The deny or ask rule of the session that names `host` (a name or an address). */
export function fetchHostRule(config: Config, host: string): Verdict | undefined {
  const verdict = decideCall(sessionRules(config), facts(host), sessionBases(config));
  return verdict && verdict.kind !== 'allow' ? verdict : undefined;
}

export interface FetchRuleChecks {
  checkHop(url: URL, hop: number): void;
  checkAddresses(host: string, addresses: readonly string[]): void;
}

/**
 * The checks of one web_fetch call that was decided on `decidedUrl`. A hop to the decided
 * host was judged with the call (its ask rule answered); every other host is judged here.
 */
export function fetchRuleChecks(config: Config, decidedUrl: string): FetchRuleChecks {
  const decided = hostOf(decidedUrl);
  const refuse = (verdict: Verdict, what: string, url: string) =>
    new WebFetchError(
      verdict.kind === 'deny'
        ? `${what} the rule ${verdict.rule.entry} in ${verdict.rule.source} refuses, so it was not fetched. Do not try to reach it another way.`
        : `${what} the rule ${verdict.rule.entry} in ${verdict.rule.source} asks about, so it was not followed; call web_fetch with ${url} to ask the person.`,
    );
  return {
    checkHop(url, hop) {
      const host = normalHost(url.hostname);
      if (host === decided) return;
      const verdict = fetchHostRule(config, host);
      if (!verdict) return;
      const what =
        hop === 0
          ? `${url} is on ${host}, which`
          : `The page redirected to ${url}, on ${host}, which`;
      throw refuse(verdict, what, url.toString());
    },
    checkAddresses(host, addresses) {
      for (const address of addresses) {
        const verdict = fetchHostRule(config, address);
        if (verdict?.kind === 'deny')
          throw refuse(verdict, `${host} resolves to ${address}, an address`, host);
      }
    },
  };
}

function hostOf(url: string): string | undefined {
  try {
    return normalHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
}
