/**
 * WebFetch rules on every hop of a fetch: the scheduler decides the call on the URL the
 * model sent, and these checks hold the same rules against each redirect's host and
 * against the addresses a name resolves to, where a rule names an address
 * (`WebFetch(domain:127.0.0.1)` also refuses `localhost`). A hop to a host a deny rule
 * names is refused; one an ask rule names is not followed (nobody can be asked in the
 * middle of a fetch): the model is told the URL, whose own call then asks. A redirect to
 * any other site is not followed either (redirectStaysOnSite): the call was approved, by
 * the person, a rule or the approval mode, for the site it named, so the model is told the
 * new URL and its own call goes through the rules and the question again.
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

/**
 * Whether a redirect from `from` to `to` stays on the site the call was approved for, and
 * is followed: the same host and port, http to https of the same host on the default
 * ports, or the same host with or without a leading `www.`. Anything else is another site.
 */
export function redirectStaysOnSite(from: URL, to: URL): boolean {
  const site = (host: string) => normalHost(host).replace(/^www\./, '');
  if (site(from.hostname) !== site(to.hostname)) return false;
  if (from.protocol === to.protocol) return from.port === to.port;
  return (
    from.protocol === 'http:' && to.protocol === 'https:' && from.port === '' && to.port === ''
  );
}

function hostOf(url: string): string | undefined {
  try {
    return normalHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
}
