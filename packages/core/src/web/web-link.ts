/**
 * Whether a link may be handed to the person's browser: a web page, https, or http on this
 * machine only (a loopback sign-in page of a local server). A server's metadata can name
 * any URL; a file:, data: or custom-scheme link opened by the system's opener could show
 * a local file or start a program instead of a page.
 */

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

/**
 * The URL parser has already normalised the host (IPv4 in dotted decimal, IPv6 compressed
 * in brackets), so loopback is 127.0.0.0/8, [::1], its IPv4-mapped form, or localhost.
 * Written without the address library: the browser opener checks links on start paths
 * that load no network code.
 */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '[::1]' ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  );
}
