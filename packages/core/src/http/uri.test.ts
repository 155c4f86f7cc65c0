import { describe, expect, it } from 'vitest';
import { encodePathSegment, encodeUriReference } from './index';

describe('encodeUriReference', () => {
  it('returns a clean reference unchanged', () => {
    const uri = "https://user@ex.com:8080/a/b;c=d?x=1&y=[2]#frag!$'()*+,~";
    expect(encodeUriReference(uri)).toBe(uri);
  });

  it('encodes space, CR, LF and the unsafe ASCII characters', () => {
    expect(encodeUriReference('/a b\r\n"<>\\^`{|}')).toBe('/a%20b%0D%0A%22%3C%3E%5C%5E%60%7B%7C%7D');
    expect(encodeUriReference('\u0000\u007f\t')).toBe('%00%7F%09');
  });

  it('never double-encodes valid escapes but encodes a stray %', () => {
    expect(encodeUriReference('/a%20b%2fc')).toBe('/a%20b%2fc');
    expect(encodeUriReference('/100%')).toBe('/100%25');
    expect(encodeUriReference('/%zz/%2')).toBe('/%25zz/%252');
    expect(encodeUriReference(encodeUriReference('/a b%'))).toBe('/a%20b%25');
  });

  it('encodes non-ASCII as UTF-8', () => {
    expect(encodeUriReference('/files/ü€😀')).toBe('/files/%C3%BC%E2%82%AC%F0%9F%98%80');
    expect(encodeUriReference('/x\u00e9?q=\u00e9')).toBe('/x%C3%A9?q=%C3%A9');
  });

  it('replaces lone surrogates with U+FFFD instead of throwing', () => {
    expect(encodeUriReference('/\ud800x\udc00')).toBe('/%EF%BF%BDx%EF%BF%BD');
  });
});

describe('encodePathSegment', () => {
  it('keeps unreserved, sub-delims, ":" and "@"', () => {
    expect(encodePathSegment("aZ09-._~!$&'()*+,;=:@")).toBe("aZ09-._~!$&'()*+,;=:@");
  });

  it('encodes "/", "?", "#", "%", brackets and space', () => {
    expect(encodePathSegment('a/b?c#d%20e[f] g')).toBe('a%2Fb%3Fc%23d%2520e%5Bf%5D%20g');
  });

  it('matches encodeURIComponent apart from the kept characters', () => {
    const s = 'héllo wörld/€\u0001';
    expect(encodePathSegment(s)).toBe(encodeURIComponent(s));
    expect(encodePathSegment('')).toBe('');
  });
});
