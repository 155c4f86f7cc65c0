import { describe, expect, it } from 'vitest';
import { CookieError, SetCookie, parseCookieHeader } from './set-cookie';

describe('SetCookie', () => {
  it('applies the secure defaults', () => {
    const c = new SetCookie('session_id', 'abc123');
    expect(c.toHeader()).toBe('session_id=abc123; Path=/; Secure; HttpOnly; SameSite=Lax');
    expect(c).toMatchObject({
      name: 'session_id',
      value: 'abc123',
      path: '/',
      secure: true,
      httpOnly: true,
      sameSite: 'lax',
      partitioned: false,
      maxAge: undefined,
      expires: undefined,
      domain: undefined,
    });
  });

  it('defaults the value to an empty string', () => {
    expect(new SetCookie('a').toHeader()).toBe('a=; Path=/; Secure; HttpOnly; SameSite=Lax');
  });

  it('writes every attribute in wire order', () => {
    const c = new SetCookie('id', 'v', {
      partitioned: true,
      sameSite: 'none',
      domain: 'example.com',
      path: '/app',
      expires: new Date(Date.UTC(2030, 0, 2, 3, 4, 5)),
      maxAge: 60,
    });
    expect(c.toHeader()).toBe(
      'id=v; Max-Age=60; Expires=Wed, 02 Jan 2030 03:04:05 GMT; ' +
        'Domain=example.com; Path=/app; Secure; HttpOnly; SameSite=None; Partitioned',
    );
  });

  it('omits Secure and HttpOnly when loosened', () => {
    const c = new SetCookie('theme', 'dark', { secure: false, httpOnly: false, sameSite: 'strict' });
    expect(c.toHeader()).toBe('theme=dark; Path=/; SameSite=Strict');
  });

  it('accepts a quoted value and negative or zero Max-Age', () => {
    expect(new SetCookie('q', '"a=b"', { maxAge: -1 }).toHeader()).toBe(
      'q="a=b"; Max-Age=-1; Path=/; Secure; HttpOnly; SameSite=Lax',
    );
  });

  it('keeps a private copy of expires', () => {
    const d = new Date(0);
    const c = new SetCookie('a', 'b', { expires: d });
    d.setUTCFullYear(2000);
    expect(c.expires?.getTime()).toBe(0);
    expect(c.toHeader()).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  });

  it('expire() clears a cookie at the epoch', () => {
    expect(SetCookie.expire('session_id').toHeader()).toBe(
      'session_id=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; Secure; HttpOnly; SameSite=Lax',
    );
    expect(SetCookie.expire('sid', { path: '/api', domain: 'example.com' }).toHeader()).toBe(
      'sid=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ' +
        'Domain=example.com; Path=/api; Secure; HttpOnly; SameSite=Lax',
    );
  });

  it('names the attribute in the path error', () => {
    expect(() => new SetCookie('session_id', 'x', { path: 'admin' })).toThrow(
      new CookieError('SetCookie "session_id": attribute "path" must start with "/" and contain no ";"'),
    );
    expect(() => new SetCookie('session_id', 'x', { path: '/a;b' })).toThrow(CookieError);
    expect(() => new SetCookie('session_id', 'x', { path: '/a\nb' })).toThrow(/attribute "path"/);
  });

  it.each([
    ['', 'name'],
    ['a b', 'name'],
    ['a;b', 'name'],
    ['a=b', 'name'],
    ['a"b', 'name'],
    ['a\u0001', 'name'],
    ['caf\u00e9', 'name'],
    ['a/b', 'name'],
  ])('rejects the name %j', (name, attribute) => {
    expect(() => new SetCookie(name, 'v')).toThrow(`attribute "${attribute}"`);
  });

  it.each(['a b', 'a;b', 'a,b', 'a\\b', 'a"b', '"ab', '\u00e9', 'a\tb'])('rejects the value %j', (value) => {
    expect(() => new SetCookie('n', value)).toThrow('attribute "value"');
  });

  it('does not echo the rejected value', () => {
    expect(() => new SetCookie('n', 'secret value')).not.toThrow(/secret/);
  });

  it('rejects a non-integer maxAge and an invalid expires', () => {
    expect(() => new SetCookie('n', 'v', { maxAge: 1.5 })).toThrow('attribute "maxAge" must be an integer');
    expect(() => new SetCookie('n', 'v', { maxAge: Number.NaN })).toThrow('attribute "maxAge"');
    expect(() => new SetCookie('n', 'v', { expires: new Date(Number.NaN) })).toThrow('attribute "expires"');
  });

  it.each(['a;b', 'a b', 'a\r\nb', ''])('rejects the domain %j', (domain) => {
    expect(() => new SetCookie('n', 'v', { domain })).toThrow('attribute "domain"');
  });

  it('requires secure for SameSite=None and Partitioned', () => {
    expect(() => new SetCookie('n', 'v', { sameSite: 'none', secure: false })).toThrow(
      'SetCookie "n": attribute "sameSite" "none" requires secure: true',
    );
    expect(() => new SetCookie('n', 'v', { partitioned: true, secure: false })).toThrow(
      'attribute "partitioned" requires secure: true',
    );
  });

  it('enforces the __Host- prefix', () => {
    expect(new SetCookie('__Host-id', 'v').toHeader()).toBe(
      '__Host-id=v; Path=/; Secure; HttpOnly; SameSite=Lax',
    );
    expect(() => new SetCookie('__Host-id', 'v', { secure: false })).toThrow('attribute "secure"');
    expect(() => new SetCookie('__Host-id', 'v', { path: '/a' })).toThrow('attribute "path"');
    expect(() => new SetCookie('__Host-id', 'v', { domain: 'example.com' })).toThrow('attribute "domain"');
    expect(() => new SetCookie('__host-id', 'v', { secure: false })).toThrow('attribute "secure"');
  });

  it('enforces the __Secure- prefix', () => {
    expect(() => new SetCookie('__Secure-id', 'v', { secure: false })).toThrow('attribute "secure"');
    expect(new SetCookie('__Secure-id', 'v', { domain: 'example.com', path: '/a' }).toHeader()).toBe(
      '__Secure-id=v; Domain=example.com; Path=/a; Secure; HttpOnly; SameSite=Lax',
    );
  });

  it('is a CookieError that is an Error', () => {
    try {
      new SetCookie('a b');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CookieError);
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).name).toBe('CookieError');
    }
  });
});

describe('parseCookieHeader', () => {
  it('returns an empty null-prototype object for undefined', () => {
    const out = parseCookieHeader(undefined);
    expect(Object.getPrototypeOf(out)).toBeNull();
    expect(Object.keys(out)).toEqual([]);
  });

  it('splits, trims and keeps the first occurrence', () => {
    expect({ ...parseCookieHeader(' a = 1 ;b=2;a=3 ; c=x=y') }).toEqual({ a: '1', b: '2', c: 'x=y' });
  });

  it('strips one pair of surrounding quotes', () => {
    expect({ ...parseCookieHeader('a="1"; b=""x""; c="; d=""') }).toEqual({
      a: '1',
      b: '"x"',
      c: '"',
      d: '',
    });
  });

  it('skips nameless and =-less fragments', () => {
    expect({ ...parseCookieHeader(';;=x; novalue; =; a=1;') }).toEqual({ a: '1' });
    expect({ ...parseCookieHeader('flag; flag2; flag3') }).toEqual({});
  });

  it('joins several lines, first line first', () => {
    expect({ ...parseCookieHeader(['a=1; b=2', 'b=3; c=4']) }).toEqual({ a: '1', b: '2', c: '4' });
  });

  it('is safe against prototype keys', () => {
    const out = parseCookieHeader('__proto__=x; constructor=y; toString=z');
    expect(Object.getPrototypeOf(out)).toBeNull();
    expect(out['__proto__']).toBe('x');
    expect(out['constructor']).toBe('y');
    expect(Object.keys(out)).toEqual(['__proto__', 'constructor', 'toString']);
  });

  it('does not percent-decode values', () => {
    expect(parseCookieHeader('a=%20b')['a']).toBe('%20b');
  });
});
