import { describe, expect, it } from 'vitest';
import { isExpiredCookie, parseSetCookie, parseSetCookies } from './parse-set-cookie';

describe('parseSetCookie', () => {
  it('keeps the value raw and lowercases attribute names', () => {
    expect(parseSetCookie('sid="a b"; Path=/; SECURE; HttpOnly; SameSite=Lax; Max-Age=60')).toEqual({
      name: 'sid',
      value: '"a b"',
      attributes: { path: '/', secure: true, httponly: true, samesite: 'Lax', 'max-age': '60' },
    });
  });

  it('keeps expires as the raw wire value, commas included', () => {
    expect(parseSetCookie('a=1; expires=Wed, 21 Oct 2015 07:28:00 GMT')?.attributes.expires).toBe(
      'Wed, 21 Oct 2015 07:28:00 GMT',
    );
  });

  it('keeps an empty value and a value containing "="', () => {
    expect(parseSetCookie('a=')?.value).toBe('');
    expect(parseSetCookie('t=x=y==')?.value).toBe('x=y==');
  });

  it('returns undefined for a line without a name', () => {
    expect(parseSetCookie('novalue')).toBeUndefined();
    expect(parseSetCookie('=v')).toBeUndefined();
  });

  it('keys a list by name, the last line winning', () => {
    const all = parseSetCookies(['a=1', 'b=2; Domain=example.com', 'a=3']);
    expect(Object.keys(all)).toEqual(['a', 'b']);
    expect(all.a?.value).toBe('3');
    expect(all.b?.attributes.domain).toBe('example.com');
  });
});

describe('isExpiredCookie', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  const expired = (line: string): boolean => isExpiredCookie(parseSetCookie(line)!, now);

  it('treats Max-Age of zero or less as expired, any case', () => {
    expect(expired('a=1; Max-Age=0')).toBe(true);
    expect(expired('a=1; max-age=-5')).toBe(true);
    expect(expired('a=1; Max-Age=10')).toBe(false);
  });

  it('treats a past Expires as expired and a future one as live', () => {
    expect(expired('a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT')).toBe(true);
    expect(expired('a=1; EXPIRES=Fri, 01 Jan 2100 00:00:00 GMT')).toBe(false);
  });

  it('lets Max-Age win over Expires', () => {
    expect(expired('a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=100')).toBe(false);
  });

  it('keeps a session cookie and ignores an unparseable Expires', () => {
    expect(expired('a=1; Path=/')).toBe(false);
    expect(expired('a=1; Expires=whenever')).toBe(false);
  });
});
