/**
 * The check of a URL a model asks to fetch, before anything is fetched: what web_fetch
 * validates with. It lives apart from guarded-fetch.ts so that validating (and listing the
 * tools) loads none of the network stack (dns, net, tls, the address classes).
 */

/** An expected failure, with a message for the model. */
export class WebFetchError extends Error {}

export function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebFetchError(
      `"${raw}" is not a valid URL; send a full address such as https://example.com/page.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebFetchError(
      `Only http and https URLs can be fetched, not ${url.protocol}; send an https:// address.`,
    );
  }
  if (url.username || url.password) {
    throw new WebFetchError(
      'URLs with a user name or password in them are refused; send the address without credentials.',
    );
  }
  return url;
}
