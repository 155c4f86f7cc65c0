import { describe, expect, it } from 'vitest';
import { HAS_BR, HAS_GZIP, negotiate } from './accept-encoding';

const BOTH = HAS_GZIP | HAS_BR;

describe('negotiate', () => {
  it('picks among the copies that exist', () => {
    expect(negotiate('gzip, br', BOTH)).toBe('br');
    expect(negotiate('gzip, br', HAS_GZIP)).toBe('gzip');
    expect(negotiate('gzip, br', HAS_BR)).toBe('br');
    expect(negotiate('gzip', HAS_BR)).toBe('identity');
    expect(negotiate('br', HAS_GZIP)).toBe('identity');
    expect(negotiate('gzip, br', 0)).toBe('identity');
  });

  it('follows the weights; brotli wins ties', () => {
    expect(negotiate('br;q=0.8, gzip;q=0.9', BOTH)).toBe('gzip');
    expect(negotiate('br;q=0.9, gzip;q=0.9', BOTH)).toBe('br');
    expect(negotiate('br;q=0.001', BOTH)).toBe('br');
    expect(negotiate('*;q=0.5, gzip;q=0.4', BOTH)).toBe('br');
    expect(negotiate('*;q=0.5, br;q=0', BOTH)).toBe('gzip');
  });

  it('identity only when named with a strictly higher weight, or when nothing else is acceptable', () => {
    expect(negotiate('identity, gzip;q=0.5', BOTH)).toBe('identity');
    expect(negotiate('identity;q=0.5, gzip;q=0.5', HAS_GZIP)).toBe('gzip');
    expect(negotiate('*;q=0.9, gzip;q=0.5', HAS_GZIP)).toBe('identity');
    expect(negotiate('identity;q=0, gzip;q=0', HAS_GZIP)).toBe('identity');
    expect(negotiate('*;q=0', BOTH)).toBe('identity');
  });

  it('accepts the qvalue grammar only', () => {
    for (const q of ['0', '0.', '0.5', '0.12', '0.123', '1', '1.', '1.0', '1.000'])
      expect(negotiate(`gzip;q=${q}`, HAS_GZIP), q).toBe(
        q.startsWith('0') && Number(q) === 0 ? 'identity' : 'gzip',
      );
    for (const q of ['0.1234', '1.001', '2', '-1', '.5', 'abc', '', '1e0', ' '])
      expect(negotiate(`gzip;q=${q}`, HAS_GZIP), q).toBe('identity');
  });

  it('ignores case, optional whitespace and other parameters', () => {
    expect(negotiate('  GZip ;  Q = 0.5 ', HAS_GZIP)).toBe('gzip');
    expect(negotiate('gzip ; level=1', HAS_GZIP)).toBe('gzip');
    expect(negotiate('gzip;q', HAS_GZIP)).toBe('identity');
  });

  it('takes the lowest of repeated weights', () => {
    expect(negotiate('br;q=1;q=0, gzip', BOTH)).toBe('gzip');
    expect(negotiate('br, br;q=0, gzip', BOTH)).toBe('gzip');
    expect(negotiate('gzip;q=0.2, gzip;q=0.9, identity;q=0.5', HAS_GZIP)).toBe('identity');
  });

  it('stays linear on a hostile header', () => {
    const hostile = `${'a,'.repeat(8000)}x;q=0.5`;
    const started = performance.now();
    for (let i = 0; i < 20; i++) negotiate(hostile, BOTH);
    expect(performance.now() - started).toBeLessThan(500);
    expect(negotiate(`${';'.repeat(5000)},gzip`, HAS_GZIP)).toBe('gzip');
  });
});
