import { describe, expect, it } from 'vitest';
import { negotiateContentCoding as pick } from './accept-encoding';

const ALL = ['br', 'zstd', 'gzip'];

describe('negotiateContentCoding', () => {
  it('takes the best-weighted offered coding, the earlier offered on a tie', () => {
    expect(pick('gzip, deflate, br, zstd', ALL)).toBe('br');
    expect(pick('gzip, deflate, br, zstd', ['zstd', 'gzip'])).toBe('zstd');
    expect(pick('gzip;q=1, br;q=0.5', ALL)).toBe('gzip');
    expect(pick('deflate', ALL)).toBeUndefined();
  });

  it('reads weights case-insensitively with three decimals; x-gzip is gzip', () => {
    expect(pick('GZIP;Q=0.501, BR;q=0.5', ALL)).toBe('gzip');
    expect(pick('x-gzip', ALL)).toBe('gzip');
    expect(pick('br;q=0.001', ALL)).toBe('br');
  });

  it('refuses q=0, keeps the lowest of repeated weights, ignores a malformed weight', () => {
    expect(pick('br;q=0, gzip', ALL)).toBe('gzip');
    expect(pick('br, br;q=0, gzip;q=0.1', ALL)).toBe('gzip');
    expect(pick('br;q=0.9;q=0.2, gzip;q=0.5', ALL)).toBe('gzip');
    expect(pick('br;q=2, gzip;q=0.5', ALL)).toBe('gzip');
    expect(pick('br;q=0.5000', ['br'])).toBeUndefined();
  });

  it('lets * weigh the unnamed codings, identity included', () => {
    expect(pick('*', ALL)).toBe('br');
    expect(pick('*;q=0.5, br;q=0', ALL)).toBe('zstd');
    expect(pick('*;q=0', ALL)).toBeUndefined();
    expect(pick('*;q=0.9, gzip;q=0.5', ['gzip'])).toBeUndefined();
  });

  it('sends identity when it is preferred, when nothing offered is acceptable, or without a header', () => {
    expect(pick('identity, gzip;q=0.5', ALL)).toBeUndefined();
    expect(pick('identity;q=0.5, gzip;q=0.5', ALL)).toBe('gzip');
    expect(pick('identity;q=0, gzip;q=0', ALL)).toBeUndefined();
    expect(pick(undefined, ALL)).toBeUndefined();
    expect(pick('', ALL)).toBeUndefined();
    expect(pick('gzip', [])).toBeUndefined();
  });
});
