import { describe, expect, it } from 'vitest';
import type { RequestHead } from '@api/core/extension';
import { addressKeyReader, addressPartition } from './client-address';

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

describe('addressKeyReader', () => {
  it('partitions the address the app reads, and is undefined when the app knows none', () => {
    const seen: string[] = [];
    const read = addressKeyReader((r) => {
      const address = r.socket?.remoteAddress;
      if (address !== undefined) seen.push(address);
      return address;
    });
    expect(read(req('198.51.100.1', '203.0.113.9'))).toBe('198.51.100.1');
    expect(read(req('2001:db8:1:2:3:4:5:6'))).toBe('2001:db8:1:2::/64');
    expect(read(req('not-an-address'))).toBeUndefined();
    expect(read(req(undefined))).toBeUndefined();
    // The same address again is read from the cache, with the same answer.
    expect(read(req('not-an-address'))).toBeUndefined();
    expect(read(req('198.51.100.1'))).toBe('198.51.100.1');
    expect(seen).toEqual([
      '198.51.100.1',
      '2001:db8:1:2:3:4:5:6',
      'not-an-address',
      'not-an-address',
      '198.51.100.1',
    ]);
  });
});
