import { describe, expect, it } from 'vitest';
import { WiringError } from '@api/core';
import { compileOriginCheck, parseOrigin } from './origin';

describe('parseOrigin', () => {
  it('parses and normalizes scheme://host[:port]', () => {
    expect(parseOrigin('https://App.Example')).toEqual({
      scheme: 'https',
      host: 'app.example',
      port: '443',
      normalized: 'https://app.example',
    });
    expect(parseOrigin('http://localhost:8000')?.normalized).toBe('http://localhost:8000');
    expect(parseOrigin('http://a.example:80')?.normalized).toBe('http://a.example');
    expect(parseOrigin('http://[::1]:3000')).toMatchObject({ host: '[::1]', port: '3000' });
  });

  it.each([
    'null',
    '',
    'https://a.example/',
    'https://a.example/path',
    'ftp://a.example',
    'https://a.example:99999',
    'https://-bad.example',
    'a.example',
  ])('refuses %j', (value) => {
    expect(parseOrigin(value)).toBeUndefined();
  });
});

describe('compileOriginCheck', () => {
  const check = compileOriginCheck('ChatSocket', ['https://app.example', 'http://localhost:5173']);

  it('allows same-origin (Origin host and port equal Host), with default ports understood', () => {
    expect(check('http://api.example:8000', 'api.example:8000')).toBe('allowed');
    expect(check('https://api.example', 'api.example')).toBe('allowed');
    expect(check('https://api.example', 'api.example:443')).toBe('allowed');
    expect(check('http://API.example', 'api.EXAMPLE')).toBe('allowed');
    expect(check('http://[::1]:8000', '[::1]:8000')).toBe('allowed');
  });

  it('allows listed origins whatever the Host', () => {
    expect(check('https://app.example', 'api.example')).toBe('allowed');
    expect(check('https://app.example:443', 'api.example')).toBe('allowed');
    expect(check('http://localhost:5173', 'localhost:8000')).toBe('allowed');
  });

  it('lets a request without Origin through (non-browser clients)', () => {
    expect(check(undefined, 'api.example')).toBe('absent');
  });

  it('refuses foreign, null and malformed origins', () => {
    expect(check('https://evil.example', 'api.example')).toBe('refused');
    expect(check('http://api.example:8001', 'api.example:8000')).toBe('refused');
    expect(check('https://api.example', 'api.example:80')).toBe('refused');
    expect(check('http://api.example', 'api.example:443')).toBe('refused');
    expect(check('null', 'api.example')).toBe('refused');
    expect(check('https://app.example/', 'api.example')).toBe('refused');
    expect(check('https://api.example', undefined)).toBe('refused');
  });

  it('refuses a bad allow-list at wiring', () => {
    for (const entry of ['null', '*', 'https://a.example/', 'a.example']) {
      expect(() => compileOriginCheck('ChatSocket', [entry])).toThrow(WiringError);
    }
    expect(() => compileOriginCheck('ChatSocket', ['a.example'])).toThrow(
      /ChatSocket: allowedOrigins entry "a.example" is not an origin. Fix: /,
    );
  });
});
