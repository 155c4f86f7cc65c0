import { describe, expect, it } from 'vitest';
import { checkClose, CloseCode, MAX_REASON_BYTES, truncateReason } from './close-codes';

describe('checkClose', () => {
  it('accepts the documented codes and 4000–4999', () => {
    for (const code of [1000, 1003, 1007, 1008, 1009, 1011, 1013, 4000, 4999]) {
      expect(() => checkClose(code, '')).not.toThrow();
    }
  });

  it('refuses reserved, server-only and out-of-range codes', () => {
    for (const code of [
      999,
      1001,
      1002,
      1004,
      1005,
      1006,
      1010,
      1012,
      1014,
      1015,
      2000,
      3000,
      3999,
      5000,
      4000.5,
      NaN,
    ]) {
      expect(() => checkClose(code, '')).toThrow(RangeError);
    }
  });

  it('limits the reason to 123 UTF-8 bytes, counting bytes, not characters', () => {
    expect(MAX_REASON_BYTES).toBe(123);
    expect(() => checkClose(1000, 'a'.repeat(123))).not.toThrow();
    expect(() => checkClose(1000, 'a'.repeat(124))).toThrow(/at most 123 UTF-8 bytes, got 124/);
    expect(() => checkClose(1000, 'é'.repeat(61) + 'a')).not.toThrow(); // 123 bytes
    expect(() => checkClose(1000, 'é'.repeat(62))).toThrow(RangeError); // 124 bytes, 62 characters
  });
});

describe('truncateReason', () => {
  it('keeps short reasons and cuts long ones on a character boundary', () => {
    expect(truncateReason('short')).toBe('short');
    const cut = truncateReason('€'.repeat(100));
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(123);
    expect(cut).toMatch(/^€+\.\.\.$/);
  });

  it('names the codes it sends', () => {
    expect(CloseCode).toMatchObject({ normal: 1000, goingAway: 1001, tryAgainLater: 1013 });
  });
});
