import { describe, expect, it } from 'vitest';
import {
  BlockedAddressError,
  blockedRange,
  checkLiteralAddress,
  guardedLookup,
  isAllowedHost,
  normalizeHost,
  systemResolver,
} from './address-guard.js';

describe('blockedRange', () => {
  const blocked: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
  ];
  for (const [address, range] of blocked) {
    it(`refuses ${address} (${range})`, () => {
      expect(blockedRange(address)).toBe(range);
    });
  }
  it('lets public addresses through', () => {
    expect(blockedRange('93.184.216.34')).toBeNull();
    expect(blockedRange('2606:2800:220:1:248:1893:25c8:1946')).toBeNull();
  });
});

describe('checkLiteralAddress', () => {
  it('refuses private literals unless allowed, and ignores names', () => {
    expect(() => checkLiteralAddress('[::1]', [])).toThrow(BlockedAddressError);
    expect(() => checkLiteralAddress('127.0.0.1', ['127.0.0.1'])).not.toThrow();
    expect(() => checkLiteralAddress('example.com', [])).not.toThrow();
  });
});

describe('guardedLookup', () => {
  const lookup = (addresses: string[], allowed: string[] = []) =>
    guardedLookup(
      async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      allowed,
    );
  const call = (fn: ReturnType<typeof lookup>, host: string, all = false) =>
    new Promise<unknown[]>((resolve) =>
      (fn as unknown as (...a: unknown[]) => void)(host, { all }, (...args: unknown[]) =>
        resolve(args),
      ),
    );

  it('hands over the checked address', async () => {
    expect(await call(lookup(['93.184.216.34']), 'example.com')).toEqual([
      null,
      '93.184.216.34',
      4,
    ]);
    expect(await call(lookup(['93.184.216.34']), 'example.com', true)).toEqual([
      null,
      [{ address: '93.184.216.34', family: 4 }],
    ]);
  });

  it('refuses a name with any private address', async () => {
    const [error] = await call(lookup(['93.184.216.34', '10.0.0.5']), 'mixed.example');
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect((error as Error).message).toContain(
      'mixed.example resolves to 10.0.0.5, a private address',
    );
  });

  it('lets allowed hosts resolve to private addresses', async () => {
    expect(await call(lookup(['10.0.0.5'], ['wiki.corp']), 'wiki.corp')).toEqual([
      null,
      '10.0.0.5',
      4,
    ]);
  });

  it('refuses a name with an address it cannot parse', async () => {
    const [error] = await call(lookup(['93.184.216.34', 'garbage']), 'odd.example');
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect((error as BlockedAddressError).range).toBe('unparsable');
  });

  it('checks every address, not only the first', async () => {
    const [error] = await call(lookup(['93.184.216.34', '1.1.1.1', '127.0.0.1']), 'third.example');
    expect((error as BlockedAddressError).address).toBe('127.0.0.1');
  });

  it('answers ENOTFOUND for a name without addresses', async () => {
    const [error] = await call(lookup([]), 'empty.example');
    expect(error).toMatchObject({ code: 'ENOTFOUND', message: 'empty.example has no addresses' });
  });

  it('passes a resolver failure on', async () => {
    const failure = Object.assign(new Error('boom'), { code: 'EAI_AGAIN' });
    const fn = guardedLookup(async () => Promise.reject(failure), []);
    expect(await call(fn, 'x.example')).toEqual([failure]);
  });

  it('matches allowed hosts without case or trailing dot', async () => {
    expect(await call(lookup(['10.0.0.5'], ['Wiki.Corp.']), 'wiki.corp')).toEqual([
      null,
      '10.0.0.5',
      4,
    ]);
  });
});

describe('blockedRange: fail closed', () => {
  it('refuses what it cannot parse', () => {
    expect(blockedRange('not-an-address')).toBe('unparsable');
    expect(blockedRange('')).toBe('unparsable');
    expect(blockedRange('999.1.1.1')).toBe('unparsable');
  });

  it('judges IPv4-mapped IPv6 by the IPv4 address inside', () => {
    expect(blockedRange('::ffff:10.0.0.1')).toBe('private');
    expect(blockedRange('::ffff:93.184.216.34')).toBeNull();
  });
});

describe('checkLiteralAddress: IP literals in URLs', () => {
  it('lets public literals through, v4 and v6', () => {
    expect(() => checkLiteralAddress('93.184.216.34', [])).not.toThrow();
    expect(() => checkLiteralAddress('[2606:2800:220:1:248:1893:25c8:1946]', [])).not.toThrow();
  });

  it('names the host, the address and the range it refuses', () => {
    let error: unknown;
    try {
      checkLiteralAddress('[::ffff:169.254.169.254]', []);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(error).toMatchObject({
      host: '[::ffff:169.254.169.254]',
      address: '::ffff:169.254.169.254',
      range: 'linkLocal',
    });
    expect((error as Error).message).toBe(
      '[::ffff:169.254.169.254] resolves to ::ffff:169.254.169.254, a linkLocal address; web_fetch does not reach private networks. If this host should be reachable, the person can add it to tools.webFetch.allowedHosts in settings.',
    );
  });

  it('matches allowedHosts entries however they are written', () => {
    expect(() => checkLiteralAddress('127.0.0.1', [' 127.0.0.1 '])).not.toThrow();
    expect(() => checkLiteralAddress('[::1]', ['[::1]'])).not.toThrow();
    expect(() => checkLiteralAddress('[::1]', ['::1'])).not.toThrow();
    expect(() => checkLiteralAddress('127.0.0.1', ['127.0.0.2'])).toThrow(BlockedAddressError);
  });
});

describe('allowedHosts matching', () => {
  it('ignores case, surrounding spaces, brackets and a trailing dot', () => {
    expect(normalizeHost(' Wiki.Corp. ')).toBe('wiki.corp');
    expect(normalizeHost('[FE80::1]')).toBe('fe80::1');
    expect(isAllowedHost('WIKI.corp.', ['wiki.corp'])).toBe(true);
    expect(isAllowedHost('wiki.corp', [' Wiki.Corp. '])).toBe(true);
  });

  it('strips brackets only when they enclose the whole host', () => {
    expect(normalizeHost('[::1]')).toBe('::1');
    expect(normalizeHost('x[::1]')).toBe('x[::1]');
    expect(normalizeHost('[::1]x')).toBe('[::1]x');
    expect(isAllowedHost('evil[::1]', ['::1'])).toBe(false);
  });

  it('matches whole names only', () => {
    expect(isAllowedHost('wiki.corp.evil.example', ['wiki.corp'])).toBe(false);
    expect(isAllowedHost('corp', ['wiki.corp'])).toBe(false);
    expect(isAllowedHost('wiki.corp', [])).toBe(false);
  });
});

describe('the system resolver', () => {
  it('gives every address of a name, not only the first', async () => {
    const addresses = await systemResolver('localhost');
    expect(Array.isArray(addresses)).toBe(true);
    expect(addresses.length).toBeGreaterThan(0);
    for (const { address, family } of addresses) {
      expect(blockedRange(address)).toBe('loopback');
      expect([4, 6]).toContain(family);
    }
  });

  it('fails for a name that does not exist', async () => {
    await expect(systemResolver('no-such-host.invalid')).rejects.toMatchObject({
      code: expect.stringMatching(/ENOTFOUND|EAI_AGAIN/),
    });
  });
});
