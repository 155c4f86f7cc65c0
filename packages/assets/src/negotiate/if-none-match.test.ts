import { describe, expect, it } from 'vitest';
import { ifNoneMatch } from './if-none-match';

const TAG = '"0123456789abcdef"';

describe('ifNoneMatch', () => {
  it('matches the tag, weak or strong, alone or in a list', () => {
    expect(ifNoneMatch(TAG, TAG)).toBe(true);
    expect(ifNoneMatch(`W/${TAG}`, TAG)).toBe(true);
    expect(ifNoneMatch(`"a", ${TAG}`, TAG)).toBe(true);
    expect(ifNoneMatch(`"a",W/${TAG}`, TAG)).toBe(true);
    expect(ifNoneMatch(`\t"a"\t,\t${TAG}\t`, TAG)).toBe(true);
    expect(ifNoneMatch(`,,${TAG},,`, TAG)).toBe(true);
  });

  it('matches * as a list member', () => {
    expect(ifNoneMatch('*', TAG)).toBe(true);
    expect(ifNoneMatch(' * ', TAG)).toBe(true);
    expect(ifNoneMatch('"a", *', TAG)).toBe(true);
    expect(ifNoneMatch('*x', TAG)).toBe(false);
    expect(ifNoneMatch('"*"', TAG)).toBe(false);
  });

  it('never matches a substring, a superstring or a malformed member', () => {
    expect(ifNoneMatch('"0123456789abcde"', TAG)).toBe(false);
    expect(ifNoneMatch('"0123456789abcdef0"', TAG)).toBe(false);
    expect(ifNoneMatch('"x0123456789abcdef"', TAG)).toBe(false);
    expect(ifNoneMatch('0123456789abcdef', TAG)).toBe(false);
    expect(ifNoneMatch(`${TAG}x`, TAG)).toBe(false);
    expect(ifNoneMatch(`x${TAG}`, TAG)).toBe(false);
    expect(ifNoneMatch(`w/${TAG}`, TAG)).toBe(false);
    expect(ifNoneMatch(`W/ ${TAG}`, TAG)).toBe(false);
    expect(ifNoneMatch(`"a${TAG}b"`, TAG)).toBe(false);
    expect(ifNoneMatch(`"${TAG}`, TAG)).toBe(false);
    expect(ifNoneMatch('', TAG)).toBe(false);
  });

  it('skips a malformed member and goes on', () => {
    expect(ifNoneMatch(`garbage, ${TAG}`, TAG)).toBe(true);
    expect(ifNoneMatch(`"a"junk, ${TAG}`, TAG)).toBe(true);
    expect(ifNoneMatch(`"a, b", ${TAG}`, TAG)).toBe(true);
    expect(ifNoneMatch(`x"${TAG.slice(1, -1)}, ${TAG}"`, TAG)).toBe(false);
  });
});
