/**
 * A fetch (the WHATWG signature the MCP SDK takes) for addresses that a remote server, not
 * the person, chose: OAuth protected-resource and authorization-server metadata, and the
 * registration and token endpoints those name. Only http(s); each request's host passes
 * the same address guard as web_fetch (private, loopback, link-local and metadata
 * addresses refused unless the host is allowed), the connection goes to the address that
 * was checked, and redirects are never followed here, so each hop the SDK follows comes
 * back through this check.
 */
import type { Dispatcher } from 'undici';
import {
  BlockedAddressError,
  checkLiteralAddress,
  guardedLookup,
  type Resolver,
  systemResolver,
} from './address-guard.js';
import { checkUrl } from './url-check.js';

export type GuardedRequest = (url: string | URL, init?: RequestInit) => Promise<Response>;

export function guardedRequest(
  allowedHosts: readonly string[],
  resolver: Resolver = systemResolver,
): GuardedRequest {
  return async (input, init) => {
    const url = checkUrl(String(input));
    try {
      checkLiteralAddress(url.hostname, allowedHosts);
      return await send(url, init, allowedHosts, resolver);
    } catch (error) {
      const blocked = blockedCause(error);
      // A plain Error, not the TypeError of a failed fetch, which the SDK's discovery
      // takes for a CORS failure and goes on with guessed endpoints.
      if (blocked)
        throw new Error(
          `${url.origin} was not contacted: ${blocked.host} resolves to ${blocked.address}, a ${blocked.range} address. Addresses a server names are reached only when public, or when the host is the server's own or listed in tools.webFetch.allowedHosts.`,
        );
      throw error;
    }
  };
}

function blockedCause(error: unknown): BlockedAddressError | undefined {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if (cause instanceof BlockedAddressError) return cause;
  }
  return undefined;
}

async function send(
  url: URL,
  init: RequestInit | undefined,
  allowedHosts: readonly string[],
  resolver: Resolver,
): Promise<Response> {
  // Loaded on first use: a session whose servers need no OAuth never pays for it.
  const { Agent, fetch } = await import('undici');
  const agent: Dispatcher = new Agent({
    connect: { lookup: guardedLookup(resolver, allowedHosts), timeout: 10_000 },
  });
  try {
    const response = await fetch(url, {
      ...(init as object),
      redirect: 'manual',
      dispatcher: agent,
    } as Parameters<typeof fetch>[1]);
    return response as unknown as Response;
  } finally {
    // Closes once the body has been read.
    void agent.close().catch(() => undefined);
  }
}
