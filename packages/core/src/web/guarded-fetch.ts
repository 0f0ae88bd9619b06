/**
 * GET over http(s) with the address guard on every hop: redirects are followed by hand
 * (at most 10) and each new URL is checked again; connect and total time and the body
 * size are capped. Proxies come from HTTPS_PROXY / HTTP_PROXY / NO_PROXY; through a proxy
 * the name is checked here first, and when it does not resolve here (no direct DNS, as
 * behind many corporate proxies) the proxy resolves it, unless it is local by definition.
 * Certificates are checked against Node's trusted roots (with $NODE_EXTRA_CA_CERTS), plus
 * the `ca` a caller names, such as a corporate CA; checking is never turned off.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { Dispatcher } from 'undici';
import {
  BlockedAddressError,
  blockedRange,
  checkLiteralAddress,
  guardedLookup,
  isAllowedHost,
  type Resolver,
  systemResolver,
} from './address-guard.js';
import { isLocalName, proxyFor } from './proxy-route.js';
import { checkUrl, WebFetchError } from './url-check.js';

export { checkUrl, WebFetchError };

export const MAX_REDIRECTS = 10;
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface GuardedFetchOptions {
  signal: AbortSignal;
  allowedHosts?: readonly string[];
  resolver?: Resolver;
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxBytes?: number;
  env?: NodeJS.ProcessEnv;
  /** Certificates (PEM) to trust besides Node's own, e.g. a corporate or test CA. */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /**
   * Called with every URL before it is requested, the first and each redirect's (`hop` 0,
   * 1...); throws a WebFetchError to stop there (the person's rules, checked per hop).
   */
  checkHop?: (url: URL, hop: number) => void;
  /**
   * Whether to follow a redirect to `to` (default: yes). When not, the redirect itself is
   * returned (`redirectedTo`) and its target is never requested; the target still goes
   * through checkHop first, so a rule that refuses it says so.
   */
  followRedirect?: (to: URL) => boolean;
  /** Called with the addresses a host name resolved to before connecting; throws to refuse. */
  checkAddresses?: (host: string, addresses: readonly string[]) => void;
}

export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** True when the body was cut at the size cap. */
  truncated: boolean;
  redirects: string[];
  /**
   * The target of a redirect followRedirect declined, not requested; `url` and `status`
   * are then those of the redirecting response, and the body is empty.
   */
  redirectedTo?: string;
}

export async function guardedFetch(
  rawUrl: string,
  options: GuardedFetchOptions,
): Promise<FetchedPage> {
  const allowedHosts = options.allowedHosts ?? [];
  const resolver = options.resolver ?? systemResolver;
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const env = options.env ?? process.env;
  const trust = options.ca ? { ca: trustedCertificates(options.ca) } : {};
  const connect = {
    lookup: guardedLookup(resolver, allowedHosts, options.checkAddresses),
    timeout: options.connectTimeoutMs ?? 10_000,
    ...trust,
  };
  // Loaded on the first fetch: a session that never fetches never pays for the HTTP client.
  const { Agent, ProxyAgent, request } = await import('undici');
  const direct = new Agent({ connect });
  const proxies = new Map<string, Dispatcher>();
  // The proxy is the person's own choice and is reached as configured; the guard applies
  // to the host the proxy is asked for.
  const routeFor = (url: URL): { dispatcher: Dispatcher; proxied: boolean } => {
    const proxy = proxyFor(url, env);
    if (!proxy) return { dispatcher: direct, proxied: false };
    let agent = proxies.get(proxy);
    if (!agent) {
      agent = new ProxyAgent({
        uri: proxy,
        proxyTls: { timeout: connect.timeout, ...trust },
        requestTls: trust,
      });
      proxies.set(proxy, agent);
    }
    return { dispatcher: agent, proxied: true };
  };
  const { signal, dispose } = withTimeout(options.signal, options.totalTimeoutMs ?? 30_000);
  const redirects: string[] = [];
  try {
    let url = checkUrl(rawUrl);
    for (let hop = 0; ; hop++) {
      options.checkHop?.(url, hop);
      checkLiteralAddress(url.hostname, allowedHosts);
      const route = routeFor(url);
      // Through a proxy the proxy connects, so the name is checked here first.
      if (route.proxied) await precheckForProxy(url.hostname, resolver, allowedHosts, options);
      const response = await request(url, {
        method: 'GET',
        dispatcher: route.dispatcher,
        signal,
        headers: {
          'user-agent': 'toolhost-web-fetch/0.1 (+https://github.com/toolhost)',
          accept:
            'text/html,application/xhtml+xml,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.8',
        },
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && location) {
        await response.body.dump();
        if (hop >= MAX_REDIRECTS)
          throw new WebFetchError(
            `${rawUrl} redirected more than ${MAX_REDIRECTS} times; giving up.`,
          );
        const next = checkUrl(new URL(String(location), url).toString());
        if (options.followRedirect && !options.followRedirect(next)) {
          // What the next call would be refused for is said now: the rules, a private address.
          options.checkHop?.(next, hop + 1);
          checkLiteralAddress(next.hostname, allowedHosts);
          return {
            url: url.toString(),
            status: response.statusCode,
            contentType: '',
            body: Buffer.alloc(0),
            truncated: false,
            redirects,
            redirectedTo: next.toString(),
          };
        }
        url = next;
        redirects.push(url.toString());
        continue;
      }
      const { body, truncated } = await readCapped(response.body, maxBytes);
      const contentType = String(response.headers['content-type'] ?? '').toLowerCase();
      return {
        url: url.toString(),
        status: response.statusCode,
        contentType,
        body,
        truncated,
        redirects,
      };
    }
  } catch (error) {
    throw explain(error, rawUrl, options.signal);
  } finally {
    dispose();
    await Promise.all(
      [direct, ...proxies.values()].map((agent) => agent.close().catch(() => undefined)),
    );
  }
}

/**
 * Node's roots and $NODE_EXTRA_CA_CERTS, which a `ca` option would otherwise replace, and
 * the given certificates.
 */
function trustedCertificates(extra: NonNullable<GuardedFetchOptions['ca']>): (string | Buffer)[] {
  const fromEnvironment: string[] = [];
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (file) {
    try {
      fromEnvironment.push(readFileSync(file, 'utf8'));
    } catch {
      // Node itself warns at startup when this file cannot be read.
    }
  }
  return [...tls.rootCertificates, ...fromEnvironment, ...(Array.isArray(extra) ? extra : [extra])];
}

/**
 * A name a proxy will be asked for: refused when it is local by definition or resolves
 * here to a refused address. When it does not resolve here, the proxy resolves it: what
 * address that is, this side cannot see.
 */
async function precheckForProxy(
  host: string,
  resolver: Resolver,
  allowedHosts: readonly string[],
  options: Pick<GuardedFetchOptions, 'checkAddresses'>,
): Promise<void> {
  const name = host.replace(/^\[|\]$/g, '');
  if (isIP(name)) return; // literals were checked by checkLiteralAddress and the rules
  const allowed = isAllowedHost(host, allowedHosts);
  if (isLocalName(name) && !allowed) {
    throw new WebFetchError(
      `${host} is a local network name, and web_fetch does not reach private networks. If the person wants this host fetched, they can list it in tools.webFetch.allowedHosts.`,
    );
  }
  let addresses: Awaited<ReturnType<Resolver>>;
  try {
    addresses = await resolver(name);
  } catch {
    return; // no answer here (no direct DNS): the proxy resolves the name
  }
  options.checkAddresses?.(
    host,
    addresses.map(({ address }) => address),
  );
  if (allowed) return;
  for (const { address } of addresses) {
    const range = blockedRange(address);
    if (range) throw new BlockedAddressError(host, address, range);
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, maxBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      body.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

/** A signal that also fires after `ms`; dispose() clears the timer. */
function withTimeout(
  parent: AbortSignal,
  ms: number,
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new WebFetchError(`timed out after ${ms / 1000} s`)),
    ms,
  );
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}

/** Turns network errors into one message for the model. */
function explain(error: unknown, url: string, parent: AbortSignal): Error {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if (cause instanceof BlockedAddressError || cause instanceof WebFetchError) return cause;
  }
  if (parent.aborted) return new WebFetchError('The fetch was cancelled.');
  const code =
    (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'UND_ERR_ABORTED' || (error as Error).name === 'AbortError') {
    return new WebFetchError(`Fetching ${url} timed out.`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new WebFetchError(`The host of ${url} could not be found (${code}).`);
  if (code === 'ECONNREFUSED')
    return new WebFetchError(`The server of ${url} refused the connection.`);
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return new WebFetchError(`Connecting to ${url} timed out.`);
  return new WebFetchError(
    `Fetching ${url} failed: ${(error as Error).message}${code ? ` (${code})` : ''}`,
  );
}
