import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Endpoint, Resource, Struct, WiringError } from '@api/core';
import { defineExtension } from '@api/core/extension';
import { CORS, cors } from './index';

const Ok = Struct('Ok', { ok: v.boolean() });
class Widgets extends Resource('/widgets') {
  readMany = this.operation({ returns: v.array(Ok) }, () => []);
  create = this.operation({ json: Ok, returns: Ok }, ({ json }) => json);
}
class Private extends Endpoint('/private') {
  get = this.operation({ returns: Ok }, () => ({ ok: true }));
}
class Partner extends Endpoint('/partner') {
  get = this.operation({ returns: Ok }, () => ({ ok: true }));
  post = this.operation({ returns: Ok }, () => ({ ok: true }));
}
const partnerPolicy = new CORS({
  allowOrigins: ['https://partner.example', 'http://localhost:3000'],
  allowCredentials: true,
  exposeHeaders: ['x-total'],
});

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(cors(new CORS({ allowOrigins: '*', exposeHeaders: ['x-request-id'] })));
    this.includeResource(new Widgets());
    this.includeEndpoint(new Private(), { cors: CORS.OFF });
    this.includeEndpoint(new Partner(), { cors: partnerPolicy });
    this.include(
      defineExtension({
        name: 'docs',
        setup: (w) =>
          w.addRoute({
            method: 'GET',
            path: '/docs',
            owner: 'docs',
            operation: 'page',
            hidden: true,
            handle: (ex) => ex.send(200, ['content-type', 'text/html'], '<p>docs</p>'),
          }),
      }),
    );
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
function client(): TestClient {
  const c = new TestClient(
    new App({ logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }),
  );
  clients.push(c);
  return c;
}

describe('wildcard policy (app default)', () => {
  it('adds constant pairs to every covered response, errors and extension routes included', async () => {
    const c = client();
    for (const [method, path, status] of [
      ['GET', '/widgets', 200],
      ['POST', '/widgets', 422],
      ['GET', '/nowhere', 404],
      ['GET', '/docs', 200],
    ] as const) {
      const res = await c.request(method, path, method === 'POST' ? { json: { ok: 'no' } } : {});
      expect(res.status, path).toBe(status);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-expose-headers'), path).toBe('x-request-id');
    }
  });

  it('answers a preflight per (path, requested method) with the policy block', async () => {
    const c = client();
    const res = await c.options('/widgets', {
      headers: {
        origin: 'https://any.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('POST, GET, HEAD, OPTIONS');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    expect(res.headers.get('access-control-max-age')).toBe('600');
  });

  it('gives a plain 204 + Allow for a method the path does not serve, and for no preflight at all', async () => {
    const c = client();
    const res = await c.options('/widgets', {
      headers: { origin: 'https://any.example', 'access-control-request-method': 'DELETE' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBeUndefined();
    const plain = await c.options('/widgets');
    expect(plain.headers.get('access-control-allow-methods')).toBeUndefined();
    expect(plain.headers.get('allow')).toBe('POST, GET, HEAD, OPTIONS');
  });

  it('leaves opted-out mounts alone', async () => {
    const c = client();
    const res = await c.get('/private', { headers: { origin: 'https://any.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeUndefined();
    const pre = await c.options('/private', {
      headers: { origin: 'https://any.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeUndefined();
  });
});

describe('allow-list policy (per mount)', () => {
  it('echoes an exact origin with credentials, always sends Vary: Origin', async () => {
    const c = client();
    const res = await c.get('/partner', { headers: { origin: 'https://partner.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://partner.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-expose-headers')).toBe('x-total');
    expect(res.headers.get('vary')).toBe('Origin');
    for (const origin of [
      'https://evil.example',
      'https://partner.example.evil',
      'null',
      'https://PARTNER.example',
    ]) {
      const denied = await c.get('/partner', { headers: { origin } });
      expect(denied.headers.get('access-control-allow-origin'), origin).toBeUndefined();
      expect(denied.headers.get('vary')).toBe('Origin');
    }
  });

  it('answers preflights only for allowed origins', async () => {
    const c = client();
    const ok = await c.options('/partner', {
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const denied = await c.options('/partner', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(denied.status).toBe(204);
    expect(denied.headers.get('access-control-allow-origin')).toBeUndefined();
  });
});

describe('wiring errors', () => {
  it('refuses credentials with a wildcard and malformed origins', () => {
    expect(() => new CORS({ allowOrigins: '*', allowCredentials: true })).toThrow(WiringError);
    expect(() => new CORS({ allowOrigins: ['https://a.example/'] })).toThrow(/is not an origin/);
    expect(() => new CORS({ allowOrigins: ['a.example'] })).toThrow(/is not an origin/);
    expect(() => new CORS({ allowOrigins: ['null'] })).toThrow(/"null" origin is never allowed/);
    expect(() => new CORS({ allowOrigins: [] })).toThrow(/non-empty list/);
  });

  it('installs the app default at most once', async () => {
    class Twice extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(cors());
        this.include(cors());
        this.includeResource(new Widgets());
      }
    }
    await expect(new TestClient(new Twice()).start()).rejects.toThrow(/already installed/);
  });
});
