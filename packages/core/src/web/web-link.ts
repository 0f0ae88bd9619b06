/**
 * Whether a link may be handed to the person's browser: a web page, https, or http on this
 * machine only (a loopback sign-in page of a local server). A server's metadata can name
 * any URL; a file:, data: or custom-scheme link opened by the system's opener could show
 * a local file or start a program instead of a page.
 */
import ipaddr from 'ipaddr.js';

/** Why the link must not be opened, or undefined when it is a web page. */
export function webLinkProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'it is not a valid URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return isLoopbackHost(url.hostname)
      ? undefined
      : 'it is plain http to another machine (only https pages, or http on this machine, are opened)';
  }
  return `it is a ${url.protocol.replace(/:$/, '')} link, not an https page`;
}

function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(bare)) return false;
  const address = ipaddr.parse(bare);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    return (address as ipaddr.IPv6).toIPv4Address().range() === 'loopback';
  return address.range() === 'loopback';
}
