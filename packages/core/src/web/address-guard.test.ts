import { describe, expect, it } from 'vitest';
import {
  BlockedAddressError,
  blockedRange,
  checkLiteralAddress,
  guardedLookup,
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
});
