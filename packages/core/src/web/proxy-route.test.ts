import { describe, expect, it } from 'vitest';
import { isLocalName, proxyFor } from './proxy-route.js';

describe('proxyFor', () => {
  const env = { HTTP_PROXY: 'http://proxy:3128', NO_PROXY: '.corp.example, wiki.example.org:8080' };

  it('uses HTTP_PROXY for both schemes when HTTPS_PROXY is not set', () => {
    expect(proxyFor(new URL('http://example.com/'), env)).toBe('http://proxy:3128');
    expect(proxyFor(new URL('https://example.com/'), env)).toBe('http://proxy:3128');
    expect(
      proxyFor(new URL('https://example.com/'), { ...env, https_proxy: 'http://tls-proxy:8080' }),
    ).toBe('http://tls-proxy:8080');
  });

  it('goes direct for NO_PROXY names, their subdomains, and only the named port', () => {
    expect(proxyFor(new URL('http://git.corp.example/'), env)).toBeUndefined();
    expect(proxyFor(new URL('http://corp.example/'), env)).toBeUndefined();
    expect(proxyFor(new URL('http://notcorp.example/'), env)).toBe('http://proxy:3128');
    expect(proxyFor(new URL('http://wiki.example.org:8080/'), env)).toBeUndefined();
    expect(proxyFor(new URL('http://wiki.example.org/'), env)).toBe('http://proxy:3128');
    expect(proxyFor(new URL('http://a.b/'), { ...env, NO_PROXY: '*' })).toBeUndefined();
  });
});

describe('isLocalName', () => {
  it.each([
    'localhost',
    'api.localhost',
    'printer.local',
    'intranet',
    'metadata.google.internal',
    'router.home.arpa',
    'nas.lan',
  ])('%s is local by definition', (name) => {
    expect(isLocalName(name)).toBe(true);
  });

  it.each(['example.com', 'docs.python.org', 'proxied.test', 'localhost.example.com'])(
    '%s is not',
    (name) => {
      expect(isLocalName(name)).toBe(false);
    },
  );
});
