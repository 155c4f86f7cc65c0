// Cross-origin request protection: the cases of Go's net/http CrossOriginProtection tests, then
// over a real socket on cookie, hybrid and bearer mounts.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Endpoint, NoContent, Struct, WiringError, type RouteCatalogue } from '@api/core';
import { defineExtension, type Exchange } from '@api/core/extension';
import {
  bearerAuth,
  compileCrossOriginCheck,
  CrossOriginRequestError,
  cookieAuth,
  csrf,
  hybridAuth,
} from './index';

function req(headers: Record<string, string>): Exchange['req'] {
  return { headers, rawHeaders: [], headersDistinct: {} } as unknown as Exchange['req'];
}

describe('compileCrossOriginCheck (Go: TestCrossOriginProtectionSecFetchSite)', () => {
  const check = compileCrossOriginCheck('test', []);
  it.each([
    ['same-origin allowed', 'POST', 'same-origin', '', true],
    ['none allowed', 'POST', 'none', '', true],
    ['cross-site blocked', 'POST', 'cross-site', '', false],
    ['same-site blocked', 'POST', 'same-site', '', false],
    ['no header with no origin', 'POST', '', '', true],
    ['no header with matching origin', 'POST', '', 'https://example.com', true],
    ['no header with mismatched origin', 'POST', '', 'https://attacker.example', false],
    ['no header with null origin', 'POST', '', 'null', false],
    ['GET allowed', 'GET', 'cross-site', '', true],
    ['HEAD allowed', 'HEAD', 'cross-site', '', true],
    ['OPTIONS allowed', 'OPTIONS', 'cross-site', '', true],
    ['PUT blocked', 'PUT', 'cross-site', '', false],
  ])('%s', (_name, method, site, origin, allowed) => {
    const headers: Record<string, string> = { host: 'example.com' };
    if (site) headers['sec-fetch-site'] = site;
    if (origin) headers.origin = origin;
    expect(check(req(headers), method) === undefined).toBe(allowed);
  });

  it('compares Origin with Host by host and port, the scheme default port included', () => {
    const at = (origin: string, host: string) => check(req({ origin, host }), 'POST') === undefined;
    expect(at('http://127.0.0.1:8000', '127.0.0.1:8000')).toBe(true);
    expect(at('http://localhost', 'localhost:80')).toBe(true);
    expect(at('https://Example.COM', 'example.com')).toBe(true);
    expect(at('http://127.0.0.1:8001', '127.0.0.1:8000')).toBe(false);
    expect(at('http://evil.example', 'example.com')).toBe(false);
    expect(at('http://example.com.evil.example', 'example.com')).toBe(false);
    expect(at('https://example.com/path', 'example.com')).toBe(false);
  });
});

describe('trusted origins (Go: TestCrossOriginProtectionTrustedOriginBypass, AddTrustedOriginErrors)', () => {
  const check = compileCrossOriginCheck('test', ['https://trusted.example']);
  it.each([
    ['trusted origin without sec-fetch-site', 'https://trusted.example', '', true],
    ['trusted origin with cross-site', 'https://trusted.example', 'cross-site', true],
    ['trusted origin, default port written out', 'https://trusted.example:443', 'cross-site', true],
    ['untrusted origin without sec-fetch-site', 'https://attacker.example', '', false],
    ['untrusted origin with cross-site', 'https://attacker.example', 'cross-site', false],
    ['trusted host on another scheme', 'http://trusted.example', 'cross-site', false],
  ])('%s', (_name, origin, site, allowed) => {
    const headers: Record<string, string> = { host: 'example.com', origin };
    if (site) headers['sec-fetch-site'] = site;
    expect(check(req(headers), 'POST') === undefined).toBe(allowed);
  });

  it.each([
    'example.com',
    'https://',
    'https://example.com/',
    'https://example.com/path',
    'https://example.com?query=value',
    'https://example.com#fragment',
    'https://ex ample.com',
    '',
    'null',
    '*',
  ])('refuses %j as a trusted origin', (origin) => {
    expect(() => compileCrossOriginCheck('csrf(options)', [origin])).toThrow(WiringError);
  });

  it('accepts origins with a port and plain http', () => {
    expect(() =>
      compileCrossOriginCheck('test', [
        'https://example.com:8080',
        'http://example.com',
        'http://[::1]:3000',
      ]),
    ).not.toThrow();
  });
});

// ------------------------------------------------------------------ over the wire

const User = Struct('User', { id: v.string() });
const Done = Struct('Done', { ok: v.boolean() });
const USERS = new Map([['s1', { id: 'ada' }]]);
const sessionAuth = cookieAuth({
  cookies: Struct('Session', { session_id: v.string() }),
  user: User,
  authenticate: ({ cookies }) => USERS.get(cookies.session_id) ?? null,
});
const partnerAuth = cookieAuth({
  cookies: Struct('PartnerSession', { session_id: v.string() }),
  user: User,
  trustedOrigins: ['https://partner.example'],
  authenticate: ({ cookies }) => USERS.get(cookies.session_id) ?? null,
});
const eitherAuth = hybridAuth({
  headers: Struct('MaybeBearer', { authorization: v.optional(v.string()) }),
  cookies: Struct('MaybeSession', { session_id: v.optional(v.string()) }),
  user: User,
  authenticate: ({ headers, cookies }) =>
    USERS.get(headers.authorization?.replace('Bearer ', '') ?? cookies.session_id ?? '') ?? null,
});
const tokenAuth = bearerAuth({
  headers: Struct('Bearer', { authorization: v.string() }),
  user: User,
  authenticate: ({ headers }) => USERS.get(headers.authorization.replace('Bearer ', '')) ?? null,
});

let calls = 0;
class Cart extends Endpoint('/cart') {
  get = this.operation({ user: User, returns: Done }, () => ({ ok: true }));
  post = this.operation({ user: User, returns: Done }, () => ({ ok: ++calls > 0 }));
  delete = this.operation({ user: User, returns: NoContent.of() }, () => new NoContent());
}
class Partner extends Endpoint('/partner') {
  post = this.operation({ user: User, returns: Done }, () => ({ ok: true }));
}
class Hybrid extends Endpoint('/hybrid') {
  post = this.operation({ user: User, returns: Done }, () => ({ ok: true }));
}
class Webhook extends Endpoint('/webhook') {
  post = this.operation({ user: User, returns: Done }, () => ({ ok: true }));
}
class Api extends Endpoint('/api') {
  post = this.operation({ user: User, returns: Done }, () => ({ ok: true }));
}
class Login extends Endpoint('/session') {
  post = this.operation({ returns: Done }, () => ({ ok: true }));
}
class Search extends Endpoint('/search') {
  post = this.operation({ returns: Done }, () => ({ ok: true }));
}

let catalogue: RouteCatalogue | undefined;
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Cart(), { auth: sessionAuth });
    this.includeEndpoint(new Partner(), { auth: partnerAuth });
    this.includeEndpoint(new Hybrid(), { auth: eitherAuth });
    this.includeEndpoint(new Webhook(), { auth: sessionAuth, csrf: false });
    this.includeEndpoint(new Api(), { auth: tokenAuth });
    this.includeEndpoint(new Login(), { csrf: csrf() });
    this.includeEndpoint(new Search());
    this.include(defineExtension({ name: 'read', setup: (w) => w.onWired((c) => void (catalogue = c)) }));
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
async function client(): Promise<TestClient> {
  const c = await TestClient.start(
    new App({ logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }),
  );
  clients.push(c);
  return c;
}

const COOKIE = { cookie: 'session_id=s1' };
const CROSS = { ...COOKIE, origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' };

describe('on a cookieAuth mount', () => {
  it('refuses a cross-site unsafe request with the 403 Problem before authenticating or running the handler', async () => {
    const c = await client();
    calls = 0;
    const res = await c.post('/cart', { headers: CROSS });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toEqual({
      type: 'cross-origin-request',
      title: 'Cross-origin request refused',
      status: 403,
    });
    // Refused before authentication: no cookie needed to be refused, and no 401 instead.
    expect((await c.post('/cart', { headers: { origin: 'https://attacker.example' } })).status).toBe(403);
    expect((await c.delete('/cart', { headers: CROSS })).status).toBe(403);
    expect(calls).toBe(0);
  });

  it('lets same-origin browsers, non-browser clients and safe methods through', async () => {
    const c = await client();
    expect((await c.post('/cart', { headers: { ...COOKIE, 'sec-fetch-site': 'same-origin' } })).status).toBe(
      200,
    );
    expect((await c.post('/cart', { headers: COOKIE })).status).toBe(200);
    expect((await c.post('/cart', { headers: { ...COOKIE, origin: c.url } })).status).toBe(200);
    expect((await c.get('/cart', { headers: CROSS })).status).toBe(200);
  });

  it("trusts the authenticator's trustedOrigins", async () => {
    const c = await client();
    const from = (origin: string) =>
      c.post('/partner', { headers: { ...COOKIE, origin, 'sec-fetch-site': 'cross-site' } });
    expect((await from('https://partner.example')).status).toBe(200);
    expect((await from('https://attacker.example')).status).toBe(403);
  });

  it('is off on a mount with csrf: false', async () => {
    const c = await client();
    expect((await c.post('/webhook', { headers: CROSS })).status).toBe(200);
  });

  it('lists the 403 on the catalogue entries it covers, and only there', async () => {
    await client();
    const errors = (path: string, method = 'POST') =>
      catalogue!.routes.find((r) => r.path === path && r.method === method)!.errors;
    expect(errors('/cart')).toContain(CrossOriginRequestError);
    expect(errors('/session')).toContain(CrossOriginRequestError);
    expect(errors('/cart', 'GET')).not.toContain(CrossOriginRequestError);
    expect(errors('/webhook')).not.toContain(CrossOriginRequestError);
    expect(errors('/api')).not.toContain(CrossOriginRequestError);
  });
});

describe('on other mounts', () => {
  it('checks a hybrid mount only when the request relies on the cookie', async () => {
    const c = await client();
    expect((await c.post('/hybrid', { headers: CROSS })).status).toBe(403);
    const bearer = await c.post('/hybrid', {
      headers: { origin: 'https://spa.example', 'sec-fetch-site': 'cross-site', authorization: 'Bearer s1' },
    });
    expect(bearer.status).toBe(200);
  });

  it('leaves bearer mounts and unprotected mounts alone, and protects a login route given csrf()', async () => {
    const c = await client();
    const cross = { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' };
    expect((await c.post('/api', { headers: { ...cross, authorization: 'Bearer s1' } })).status).toBe(200);
    expect((await c.post('/search', { headers: cross })).status).toBe(200);
    expect((await c.post('/session', { headers: cross })).status).toBe(403);
    expect((await c.post('/session', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
  });

  it('refuses bad options at construction', () => {
    expect(() => csrf({ trustedOrigins: ['https://a.example/'] })).toThrow(
      /^csrf\(options\): trustedOrigins entry "https:\/\/a.example\/" is not an origin\. Fix:/,
    );
    expect(() => csrf({ trusted: [] } as never)).toThrow(
      'csrf(options): unknown option "trusted". Fix: use only trustedOrigins.',
    );
    expect(() =>
      cookieAuth({
        cookies: Struct('S', { s: v.string() }),
        user: User,
        trustedOrigins: ['null'],
        authenticate: () => null,
      }),
    ).toThrow(/^cookieAuth\(\{ cookies \}\): trustedOrigins entry "null" is not an origin/);
  });
});
