/**
 * Which names a request to `toolhost mcp --http` may carry in its Host and Origin headers:
 * 127.0.0.1 and localhost with the service's port, plus the names given with
 * --allowed-hosts (any port: an ingress or a Service in front of it speaks for the
 * client). A browser page that rebinds its own name to this address carries that name,
 * so it is refused before the token is even looked at. Names and schemes are compared in
 * any case, as HTTP and DNS compare them.
 */
import { isIP } from 'node:net';

export interface HostPolicy {
  /** Whether a Host header value (`name[:port]`) is one this service answers to. */
  host(value: string | undefined): boolean;
  /** Whether an Origin header value (`scheme://name[:port]`) is one this service answers to. */
  origin(value: string): boolean;
}

export function hostPolicy(port: () => number, allowed: readonly string[]): HostPolicy {
  const names = new Set(allowed.map((name) => name.toLowerCase()));
  const accepts = (given: string) => {
    const value = given.toLowerCase();
    const local = [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`];
    if (local.includes(value)) return true;
    return names.has(hostName(value));
  };
  return {
    host: (value) => value !== undefined && accepts(value),
    origin: (value) => accepts(value.replace(/^https?:\/\//i, '')),
  };
}

/** `name:port` or `[v6]:port` without the port. */
function hostName(value: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (v6) return v6[1] ?? '';
  return value.replace(/:\d+$/, '');
}

/** The problem with an --allowed-hosts entry, or undefined when it is a plain host name. */
export function allowedHostProblem(name: string): string | undefined {
  if (
    isIP(name) ||
    /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(name)
  )
    return undefined;
  return `--allowed-hosts takes host names separated by commas, without scheme, port or path (e.g. toolhost.example.com); got "${name}".`;
}

/** Whether an address to listen on reaches only this machine. */
export function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127\./.test(address);
}
