import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Endpoint, mountFetch, Resource, Struct, WiringError } from '@api/core';
import { defineExtension, mountOption, type MountOptionValue } from '@api/core/extension';
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
      mountFetch('/api/auth', (request) => new Response(`auth ${request.method}`), { cors: partnerPolicy }),
    );
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

describe('a mounted fetch handler (prefix route)', () => {
  it("answers its preflights by the mount's policy for any method, and passes the rest to the handler", async () => {
    const c = client();
    const ok = await c.options('/api/auth/sign-in/email', {
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(ok.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE');
    const post = await c.post('/api/auth/sign-in/email', { headers: { origin: 'http://localhost:3000' } });
    expect(post.text).toBe('auth POST');
    expect(post.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(post.headers.get('vary')).toBe('Origin');
    const foreign = await c.options('/api/auth/sign-in/email', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.text).toBe('auth OPTIONS');
    expect(foreign.headers.get('access-control-allow-origin')).toBeUndefined();
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

/** What `fn` throws (`undefined` when it returns). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The header lines a response carries, minus the connection bookkeeping Node adds. */
function lines(res: { multiHeaders: ReadonlyArray<readonly [string, string]> }): string[][] {
  return res.multiHeaders
    .filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name.toLowerCase()))
    .map(([name, value]) => [name.toLowerCase(), value]);
}
const preflightOf = (origin: string, method: string): { headers: Record<string, string> } => ({
  headers: { origin, 'access-control-request-method': method },
});

describe('CORS.OFF under an app default', () => {
  it('leaves the mount’s responses, errors and HEAD without any CORS header', async () => {
    const c = client();
    const origin = { headers: { origin: 'https://any.example' } };
    const get = await c.get('/private', origin);
    expect(get.status).toBe(200);
    expect(lines(get)).toEqual([
      ['content-type', 'application/json'],
      ['content-length', '11'],
    ]);
    expect(get.json()).toEqual({ ok: true });
    const head = await c.head('/private', origin);
    expect(head.status).toBe(200);
    expect(lines(head)).toEqual([
      ['content-type', 'application/json'],
      ['content-length', '11'],
    ]);
    // The covered neighbour still gets the default, so the opt-out is per mount.
    const covered = await c.get('/widgets', origin);
    expect(covered.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers the mount’s preflights and plain OPTIONS with 204 + allow only', async () => {
    const c = client();
    for (const options of [
      preflightOf('https://any.example', 'GET'),
      { headers: { origin: 'https://any.example' } },
      {},
    ]) {
      const res = await c.options('/private', options);
      expect(res.status).toBe(204);
      expect(lines(res)).toEqual([['allow', 'GET, HEAD, OPTIONS']]);
      expect(res.body.length).toBe(0);
    }
  });

  it('keeps a 405 on the opted-out path free of CORS headers', async () => {
    const res = await client().post('/private', { headers: { origin: 'https://any.example' } });
    expect(res.status).toBe(405);
    expect(lines(res)).toEqual([
      ['content-type', 'application/problem+json'],
      ['allow', 'GET, HEAD, OPTIONS'],
      ['content-length', '71'],
    ]);
    expect(res.json()).toEqual({ type: 'method-not-allowed', title: 'Method not allowed', status: 405 });
  });
});

describe('plain OPTIONS (no access-control-request-method)', () => {
  it('answers 204 + allow with no CORS headers on a wildcard mount', async () => {
    const c = client();
    for (const options of [{}, { headers: { origin: 'https://any.example' } }]) {
      const res = await c.options('/widgets', options);
      expect(res.status).toBe(204);
      expect(lines(res)).toEqual([['allow', 'POST, GET, HEAD, OPTIONS']]);
    }
  });

  it('answers 204 + allow with no CORS headers on an allow-list mount, even for an allowed origin', async () => {
    const c = client();
    const res = await c.options('/partner', { headers: { origin: 'https://partner.example' } });
    expect(res.status).toBe(204);
    expect(lines(res)).toEqual([['allow', 'GET, POST, HEAD, OPTIONS']]);
  });

  it('answers a refused preflight (method not allowed) from an allowed origin without the block', async () => {
    const c = client();
    const res = await c.options('/partner', preflightOf('https://partner.example', 'DELETE'));
    expect(res.status).toBe(204);
    expect(res.headers.has('access-control-allow-origin')).toBe(false);
    expect(res.headers.has('access-control-allow-credentials')).toBe(false);
    expect(res.headers.has('access-control-allow-methods')).toBe(false);
  });

  it('still answers an accepted preflight with exactly the block', async () => {
    const res = await client().options('/partner', preflightOf('https://partner.example', 'POST'));
    expect(res.status).toBe(204);
    expect(lines(res)).toEqual([
      ['allow', 'GET, POST, HEAD, OPTIONS'],
      ['access-control-allow-origin', 'https://partner.example'],
      ['access-control-allow-credentials', 'true'],
      ['access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE'],
      ['access-control-allow-headers', 'content-type, authorization'],
      ['access-control-max-age', '600'],
      ['vary', 'Origin'],
    ]);
    const wildcard = await client().options('/widgets', preflightOf('https://any.example', 'GET'));
    expect(lines(wildcard)).toEqual([
      ['allow', 'POST, GET, HEAD, OPTIONS'],
      ['access-control-allow-origin', '*'],
      ['access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE'],
      ['access-control-allow-headers', 'content-type, authorization'],
      ['access-control-max-age', '600'],
    ]);
  });
});

class AppShape extends BaseApp {
  protected override async wire(): Promise<void> {}
  includeCors(value: unknown): void {
    this.include(cors(value as never));
  }
  mount(endpoint: object, options: object): void {
    this.includeEndpoint(endpoint as Private, options);
  }
}
function startupErrorOf(body: (app: AppShape) => void): Promise<Error> {
  class Bad extends AppShape {
    protected override async wire(): Promise<void> {
      body(this);
    }
  }
  return (async () => {
    const c = new TestClient(new Bad());
    const error = await c.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    await c.close().catch(() => undefined);
    expect(error).toBeInstanceOf(WiringError);
    return error as Error;
  })();
}

describe('startup checks', () => {
  it('refuses an empty or unknown allowMethods, naming the fix', () => {
    expect(() => new CORS({ allowMethods: [] })).toThrow(
      new WiringError(
        "new CORS(): allowMethods is empty, so no preflight could ever be accepted. Fix: list the methods cross-origin callers may use (e.g. ['GET', 'POST']), leave allowMethods out for the default, or mount with { cors: CORS.OFF }.",
      ),
    );
    expect(() => new CORS({ allowMethods: ['GET', 'FETCH'] })).toThrow(
      new WiringError(
        "new CORS(): allowMethods names \"FETCH\", which is not a method served here. Fix: use 'GET', 'HEAD', 'POST', 'PUT', 'PATCH' or 'DELETE'.",
      ),
    );
    expect(() => new CORS({ allowMethods: ['OPTIONS'] })).toThrow(
      /names "OPTIONS": OPTIONS is answered by the framework itself \(preflights included\)\. Fix: remove OPTIONS\.$/,
    );
    expect(() => new CORS({ allowMethods: ['CONNECT'] })).toThrow(WiringError);
    expect(() => new CORS({ allowMethods: ['GET', 'GET'] })).toThrow(/allowMethods names GET twice/);
  });

  it('refuses a wrongly cased method instead of rewriting it (methods are case-sensitive)', () => {
    for (const [given, upper] of [
      ['get', 'GET'],
      ['Post', 'POST'],
    ] as const) {
      const error = thrown(() => new CORS({ allowMethods: ['HEAD', given] }));
      expect(error).toBeInstanceOf(WiringError);
      expect(error).toMatchObject({
        code: 'API_WIRING_HTTP_METHOD',
        where: 'new CORS()',
        fix: `write '${upper}'`,
      });
      expect((error as WiringError).problem).toMatch(
        new RegExp(`^allowMethods names "${given}"; methods are case-sensitive`),
      );
    }
  });

  it('refuses unknown option names and wrongly typed lists', () => {
    expect(() => new CORS({ allowOrigin: '*' } as never)).toThrow(
      /^new CORS\(\): unknown option "allowOrigin" \(did you mean "allowOrigins"\?\)\. Fix: use only allowOrigins, allowMethods, allowHeaders, allowCredentials, maxAge, exposeHeaders\.$/,
    );
    expect(() => new CORS({ allowMethods: 'GET' } as never)).toThrow(
      /allowMethods must be a list of strings/,
    );
    expect(() => new CORS({ allowOrigins: 'https://a.example' } as never)).toThrow(
      /allowOrigins must be '\*' or a list of origins/,
    );
  });

  it('refuses a non-policy value given to cors(), naming the app', async () => {
    for (const [value, what] of [
      ['*', 'a string'],
      [null, 'null'],
      [['https://a.example'], 'an array'],
      [42, 'a number'],
      [new Date(0), 'an instance of Date'],
    ] as const) {
      const error = await startupErrorOf((app) => app.includeCors(value));
      expect(error.message).toBe(
        `Bad.include(cors()): cors() was given ${what}, which is not a CORS policy. Fix: pass new CORS({ … }), the options of one (e.g. cors({ allowOrigins: ['https://app.example'] })), or nothing for the defaults.`,
      );
    }
    const off = await startupErrorOf((app) => app.includeCors(CORS.OFF));
    expect(off.message).toBe(
      'Bad.include(cors()): cors(CORS.OFF) would install an app default that is no policy. Fix: leave cors() out for no app default, or opt single mounts out with { cors: CORS.OFF }.',
    );
  });

  it('reports a bad options object given to cors() at the install call', async () => {
    const error = await startupErrorOf((app) => app.includeCors({ allowMethods: [] }));
    expect(error.message).toMatch(/^Bad\.include\(cors\(\)\): allowMethods is empty/);
    const typo = await startupErrorOf((app) => app.includeCors({ origins: '*' }));
    expect(typo.message).toMatch(/^Bad\.include\(cors\(\)\): unknown option "origins"/);
  });

  it('refuses a mount whose cors option is not a policy, naming the mount', async () => {
    const foreign: MountOptionValue = { [mountOption]: () => undefined };
    const error = await startupErrorOf((app) => {
      app.includeCors(undefined);
      app.mount(new Private(), { cors: foreign });
    });
    expect(error.message).toBe(
      'Private.get: the "cors" mount option must be a CORS policy or CORS.OFF, got an object. Fix: pass { cors: new CORS({ … }) } to override the app default, or { cors: CORS.OFF } to opt the mount out.',
    );
    const plain = await startupErrorOf((app) => app.mount(new Private(), { cors: { allowOrigins: '*' } }));
    expect(plain.message).toMatch(
      /^Bad\.includeEndpoint\(Private\): mount option "cors" is not a value core can compile/,
    );
  });

  it('accepts CORS.OFF on a mount with no app default (nothing to opt out of)', async () => {
    class NoDefault extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Private(), { cors: CORS.OFF });
      }
    }
    const c = new TestClient(new NoDefault());
    clients.push(c);
    const res = await c.get('/private', { headers: { origin: 'https://any.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.has('access-control-allow-origin')).toBe(false);
  });
});
