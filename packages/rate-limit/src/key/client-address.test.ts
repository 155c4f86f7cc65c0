import { describe, expect, it } from 'vitest';
import type { RequestHead } from '@api/core/extension';
import { addressPartition, clientAddressReader } from './client-address';

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

describe('clientAddressReader', () => {
  it('reads the peer and ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(clientAddressReader(0)(req('198.51.100.1', '203.0.113.9'))).toBe('198.51.100.1');
    expect(clientAddressReader(0)(req(undefined))).toBeUndefined();
  });

  it('counts trusted proxies from the right, never believing what the client wrote', () => {
    // client wrote "1.1.1.1"; the one trusted proxy appended what it saw (203.0.113.9)
    const one = clientAddressReader(1);
    expect(one(req('10.0.0.2', '1.1.1.1, 203.0.113.9'))).toBe('203.0.113.9');
    expect(one(req('10.0.0.2', ['1.1.1.1', '203.0.113.9']))).toBe('203.0.113.9');
    const two = clientAddressReader(2);
    expect(two(req('10.0.0.2', '1.1.1.1, 203.0.113.9, 10.0.0.1'))).toBe('203.0.113.9');
    // fewer entries than proxies: the leftmost
    expect(two(req('10.0.0.2', '203.0.113.9'))).toBe('203.0.113.9');
  });

  it('falls back to the peer without the header or with an entry that is not an address', () => {
    const one = clientAddressReader(1);
    expect(one(req('10.0.0.2'))).toBe('10.0.0.2');
    expect(one(req('10.0.0.2', 'unknown'))).toBe('10.0.0.2');
  });
});
