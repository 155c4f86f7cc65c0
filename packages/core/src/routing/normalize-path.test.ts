import { describe, expect, it } from 'vitest';
import { normalizePercentEncoding, toOriginForm } from './normalize-path';

describe('normalizePercentEncoding', () => {
  it('decodes encoded unreserved characters and upper-cases every other triplet', () => {
    expect(normalizePercentEncoding('/pin%67')).toBe('/ping');
    expect(normalizePercentEncoding('/%41%7a%30%2d%2E%5f%7E')).toBe('/Az0-._~');
    expect(normalizePercentEncoding('/caf%c3%a9')).toBe('/caf%C3%A9');
    expect(normalizePercentEncoding('/a%2fb%2Fc')).toBe('/a%2Fb%2Fc');
  });

  it('leaves canonical paths, broken triplets and a trailing "%" as sent (the same string)', () => {
    const canonical = '/caf%C3%A9/a%20b';
    expect(normalizePercentEncoding(canonical)).toBe(canonical);
    expect(normalizePercentEncoding('/%zz/%4/%')).toBe('/%zz/%4/%');
    expect(normalizePercentEncoding('/%g1%61')).toBe('/%g1a');
    expect(normalizePercentEncoding('/100%25')).toBe('/100%25');
    expect(normalizePercentEncoding('/%2561')).toBe('/%2561');
  });
});

describe('toOriginForm', () => {
  it('keeps the path and query of an http(s) absolute URI, "/" when it has none', () => {
    expect(toOriginForm('http://example.com/ping?x=1')).toBe('/ping?x=1');
    expect(toOriginForm('HTTPS://example.com:8443/a/b')).toBe('/a/b');
    expect(toOriginForm('http://example.com')).toBe('/');
    expect(toOriginForm('http://example.com?x=1')).toBe('/?x=1');
  });

  it('refuses userinfo and an empty host; leaves other targets to route nowhere', () => {
    expect(toOriginForm('http://user@example.com/')).toBeUndefined();
    expect(toOriginForm('http:///ping')).toBeUndefined();
    expect(toOriginForm('ftp://example.com/ping')).toBe('ftp://example.com/ping');
    expect(toOriginForm('*')).toBe('*');
    expect(toOriginForm('ping')).toBe('ping');
  });
});
