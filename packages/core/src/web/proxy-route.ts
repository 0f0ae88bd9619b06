/**
 * Which proxy carries a request, read from the environment the way curl reads it
 * (`https_proxy`/`HTTPS_PROXY`, then `http_proxy`/`HTTP_PROXY`; `no_proxy`/`NO_PROXY`), and
 * which host names are local by definition, so that no proxy is asked to reach them.
 */

/** The proxy URL for `url`, or undefined for a direct connection. */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): string | undefined {
  const httpProxy = env.http_proxy || env.HTTP_PROXY || undefined;
  const proxy =
    url.protocol === 'https:' ? env.https_proxy || env.HTTPS_PROXY || httpProxy : httpProxy;
  if (!proxy) return undefined;
  return bypassesProxy(url, env.no_proxy || env.NO_PROXY || '') ? undefined : proxy;
}

/** NO_PROXY: `*`, or names (a leading `.` or `*.` optional) matching the host and its subdomains, optionally with a port. */
function bypassesProxy(url: URL, noProxy: string): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const match = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[|\](?=:|$)/g, ''));
    const name = (match?.[1] ?? '').replace(/^\*?\./, '');
    const entryPort = match?.[2];
    if (!name || (entryPort && entryPort !== port)) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/**
 * Top-level names that only ever mean a machine on the local network: special-use names
 * (RFC 6761, 6762, 8375), the reserved `.internal`, and the private names routers and
 * companies use.
 */
const LOCAL_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'home.arpa',
  'arpa',
  'lan',
  'intranet',
  'corp',
  'home',
  'private',
];

/**
 * True for a name that is local by definition: a single label (completed by the network's
 * search domains, so it names an inside machine) or one under a local-only suffix.
 */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (!name.includes('.')) return true;
  return LOCAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}
