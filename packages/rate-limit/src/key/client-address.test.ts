import { describe, expect, it } from 'vitest';
import type { RequestHead } from '@api/core/extension';
import { addressKey, addressPartition } from './client-address';

function req(remoteAddress: string | undefined, forwarded?: string | string[]): RequestHead {
  return {
    socket: remoteAddress === undefined ? undefined : { remoteAddress },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    rawHeaders: [],
    headersDistinct: {},
  };
}

describe('addressPartition', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and groups IPv6 by /64', () => {
    expect(addressPartition('203.0.113.7')).toBe('203.0.113.7');
    expect(addressPartition('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressPartition('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(addressPartition('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressPartition('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressPartition('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressPartition('::1')).toBe('0:0:0:0::/64');
    expect(addressPartition('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('is undefined for anything that is not an address', () => {
    for (const bad of ['', 'localhost', '1.2.3', '1.2.3.4.5', '300.1.1.1', 'gg::1', '1.2.3.4, 5.6.7.8'])
      expect(addressPartition(bad), bad).toBeUndefined();
  });
});

describe('addressKey', () => {
  it("is the policy's key of the address partition, the same string for the same address", () => {
    const key = addressKey((r) => r.socket?.remoteAddress, 'api:a:');
    const first = key(req('198.51.100.1'));
    expect(first).toBe('api:a:198.51.100.1');
    expect(key(req('198.51.100.1'))).toBe(first);
    expect(key(req('2001:db8:1:2:3:4:5:6'))).toBe('api:a:2001:db8:1:2::/64');
    expect(key(req('::ffff:192.0.2.7'))).toBe('api:a:192.0.2.7');
    expect(key(req('not-an-address'))).toBe('api:a:unknown');
    expect(key(req(undefined))).toBe('api:a:unknown');
  });

  it("reads the app's client address on every request", () => {
    const seen: string[] = [];
    const key = addressKey((r) => {
      const address = r.socket?.remoteAddress;
      if (address !== undefined) seen.push(address);
      return address;
    }, 'p:a:');
    expect(key(req('198.51.100.1', '203.0.113.9'))).toBe('p:a:198.51.100.1');
    expect(key(req('not-an-address'))).toBe('p:a:unknown');
    expect(key(req('not-an-address'))).toBe('p:a:unknown');
    expect(key(req('198.51.100.1'))).toBe('p:a:198.51.100.1');
    expect(seen).toEqual(['198.51.100.1', 'not-an-address', 'not-an-address', '198.51.100.1']);
  });
});
