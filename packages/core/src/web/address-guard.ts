/**
 * Which network addresses web requests may reach: public unicast only, unless the host is
 * listed in `tools.webFetch.allowedHosts`. Loopback, private, link-local (cloud metadata
 * lives at 169.254.169.254), carrier-grade NAT, unspecified, multicast, reserved and
 * unique-local addresses are refused, also when written as IPv4-mapped IPv6.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (injectable for tests). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(
      `${host} resolves to ${address}, a ${range} address; web_fetch does not reach private networks. If this host should be reachable, the person can add it to tools.webFetch.allowedHosts in settings.`,
    );
  }
}

/** The range name of a non-public address, or null for a public unicast address. */
export function blockedRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'unparsable';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return blockedRange(v6.toIPv4Address().toString());
    const range = v6.range();
    return range === 'unicast' ? null : range;
  }
  const range = (parsed as ipaddr.IPv4).range();
  return range === 'unicast' ? null : range;
}

/** Host names and addresses from settings, normalised for comparison. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

export function isAllowedHost(host: string, allowedHosts: readonly string[]): boolean {
  const wanted = normalizeHost(host);
  return allowedHosts.some((entry) => normalizeHost(entry) === wanted);
}

/** Refuses an IP literal in a URL before any connection. */
export function checkLiteralAddress(host: string, allowedHosts: readonly string[]): void {
  const bare = normalizeHost(host);
  if (!ipaddr.isValid(bare) || isAllowedHost(bare, allowedHosts)) return;
  const range = blockedRange(bare);
  if (range) throw new BlockedAddressError(host, bare, range);
}

/**
 * A `lookup` for the connection itself: it resolves, refuses the host if any of its
 * addresses is not public, and hands the checked addresses to the socket, so the address
 * connected to is the one that was checked.
 */
export function guardedLookup(
  resolver: Resolver,
  allowedHosts: readonly string[],
  checkAddresses?: (host: string, addresses: readonly string[]) => void,
): LookupFunction {
  return ((
    hostname: string,
    options: { all?: boolean },
    callback: (...args: unknown[]) => void,
  ) => {
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no addresses`), { code: 'ENOTFOUND' }));
          return;
        }
        try {
          checkAddresses?.(
            hostname,
            addresses.map(({ address }) => address),
          );
        } catch (error) {
          callback(error);
          return;
        }
        if (!isAllowedHost(hostname, allowedHosts)) {
          for (const { address } of addresses) {
            const range = blockedRange(address);
            if (range) {
              callback(new BlockedAddressError(hostname, address, range));
              return;
            }
          }
        }
        if (options?.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => callback(error),
    );
  }) as unknown as LookupFunction;
}
