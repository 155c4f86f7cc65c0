import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  AuthenticationRequiredError,
  BaseApp,
  Endpoint,
  HTTPError,
  MalformedRequestError,
  NoContent,
  Resource,
  Struct,
  WiringError,
  JSONResponse,
  type MountOptions,
} from '@api/core';
import { auth, basicAuth, bearerAuth, cookieAuth, hybridAuth, SecurityScheme, type AuthFacts } from './index';

class InvalidTokenError extends HTTPError.define({
  type: 'invalid-token',
  title: 'Invalid token',
  status: 401,
}) {}
const User = Struct('User', { id: v.string(), name: v.string() });
const Admin = Struct('Admin', { id: v.string() });
const USERS = new Map([['token', { id: 'u1', name: 'Ada' }]]);
const calls: string[] = [];

const Credentials = Struct('Credentials', { authorization: v.string() });
const OptionalCredentials = Struct('OptionalCredentials', { authorization: v.optional(v.string()) });
function lookup(header: string | undefined): { id: string; name: string } | null {
  calls.push('authenticate');
  if (header === undefined) return null;
  const user = USERS.get(header.replace(/^Bearer /, ''));
  if (!user) throw new InvalidTokenError();
  return user;
}
const tokenAuth = bearerAuth({
  headers: Credentials,
  user: User,
  authenticate: ({ headers }) => lookup(headers.authorization),
});
const optionalAuth = bearerAuth({
  headers: OptionalCredentials,
  user: v.nullable(User),
  authenticate: ({ headers }) => lookup(headers.authorization),
});
const sessionAuth = cookieAuth({
  cookies: Struct('Session', { session_id: v.string() }),
  user: User,
  authenticate: async ({ cookies }) => USERS.get(cookies.session_id) ?? null,
});
const eitherAuth = hybridAuth({
  headers: OptionalCredentials,
  cookies: Struct('MaybeSession', { session_id: v.optional(v.string()) }),
  user: User,
  authenticate: ({ headers, cookies }) =>
    USERS.get(headers.authorization?.replace('Bearer ', '') ?? cookies.session_id ?? '') ?? null,
});

const Body = Struct('Body', { n: v.number() });
class Me extends Endpoint('/me') {
  get = this.operation({ user: User, returns: User }, ({ user }) => user);
  post = this.operation({ user: User, json: Body, returns: Body }, ({ json }) => {
    calls.push('handler');
    return json;
  });
}
class Gated extends Endpoint('/gated') {
  get = this.operation({ returns: Struct('Ok', { ok: v.boolean() }) }, () => ({ ok: true }));
}
const Spot = Struct('Spot', { personalizedFor: v.nullable(v.string()) });
class Spotlight extends Endpoint('/spotlight') {
  get = this.operation(
    { user: v.nullable(User), returns: [JSONResponse.of(Spot), NoContent.of()] },
    ({ user }) => new JSONResponse({ json: { personalizedFor: user?.name ?? null } }),
  );
}
class Profile extends Endpoint('/profile') {
  get = this.operation({ user: User, returns: User }, ({ user }) => user);
}
class Either extends Endpoint('/either') {
  get = this.operation({ user: User, returns: User }, ({ user }) => user);
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Me(), { auth: tokenAuth });
    this.includeEndpoint(new Gated(), { auth: tokenAuth });
    this.includeEndpoint(new Spotlight(), { auth: optionalAuth });
    this.includeEndpoint(new Profile(), { auth: sessionAuth });
    this.includeEndpoint(new Either(), { auth: eitherAuth });
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  calls.length = 0;
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
function client(): TestClient {
  const c = new TestClient(
    new App({ logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }),
  );
  clients.push(c);
  return c;
}

const REQUIRED = { type: 'authentication-required', title: 'Authentication required', status: 401 };

describe('gating authenticator', () => {
  it('passes the user to the handler', async () => {
    const res = await client().get('/me', { headers: { authorization: 'Bearer token' } });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ id: 'u1', name: 'Ada' });
  });

  it('answers 401 before authenticate runs when a required header is missing', async () => {
    const res = await client().get('/me');
    expect(res.status).toBe(401);
    expect(res.json()).toEqual(REQUIRED);
    expect(calls).toEqual([]);
  });

  it('rejects invalid credentials with the authenticator’s error', async () => {
    const res = await client().get('/me', { headers: { authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({ type: 'invalid-token', title: 'Invalid token', status: 401 });
  });

  it('authenticates before the body is read: no 422 for an unauthenticated bad body', async () => {
    const res = await client().post('/me', { json: { n: 'not a number' } });
    expect(res.status).toBe(401);
    const ok = await client().post('/me', { json: { n: 1 }, headers: { authorization: 'Bearer token' } });
    expect(ok.json()).toEqual({ n: 1 });
  });

  it('gates operations that do not declare user', async () => {
    expect((await client().get('/gated')).status).toBe(401);
    expect((await client().get('/gated', { headers: { authorization: 'Bearer token' } })).json()).toEqual({
      ok: true,
    });
  });
});

describe('anonymous-accepting authenticator', () => {
  it('passes null for a caller without credentials, the user otherwise, and still rejects bad ones', async () => {
    const c = client();
    expect((await c.get('/spotlight')).json()).toEqual({ personalizedFor: null });
    expect((await c.get('/spotlight', { headers: { authorization: 'Bearer token' } })).json()).toEqual({
      personalizedFor: 'Ada',
    });
    const bad = await c.get('/spotlight', { headers: { authorization: 'Bearer wrong' } });
    expect(bad.status).toBe(401);
    expect(bad.json()).toEqual({ type: 'invalid-token', title: 'Invalid token', status: 401 });
  });
});

describe('cookie and hybrid authenticators', () => {
  it('authenticates from a cookie', async () => {
    const c = client();
    expect((await c.get('/profile', { cookies: { session_id: 'token' } })).json()).toEqual({
      id: 'u1',
      name: 'Ada',
    });
    expect((await c.get('/profile')).status).toBe(401);
    expect((await c.get('/profile', { cookies: { session_id: 'other' } })).status).toBe(401);
  });

  it('serves bearer clients and cookie browsers on the same route', async () => {
    const c = client();
    expect((await c.get('/either', { headers: { authorization: 'Bearer token' } })).status).toBe(200);
    expect((await c.get('/either', { cookies: { session_id: 'token' } })).status).toBe(200);
    expect((await c.get('/either')).status).toBe(401);
  });
});

async function wiringError(
  mount: (app: { endpoint(e: object, o: MountOptions): void }) => void,
): Promise<string> {
  class Bad extends BaseApp {
    protected override async wire(): Promise<void> {
      mount({ endpoint: (e, o) => this.includeEndpoint(e, o) });
    }
  }
  const error = await new TestClient(new Bad()).start().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WiringError);
  // A user the authenticator cannot give is a source mistake, as a user with no auth is.
  expect((error as WiringError).code).toBe('API_WIRING_SOURCE');
  return (error as Error).message;
}

describe('user checks at wiring (the spec table)', () => {
  class DeclaresNullable extends Endpoint('/a') {
    get = this.operation({ user: v.nullable(User), returns: Spot }, () => ({ personalizedFor: null }));
  }
  class DeclaresUser extends Endpoint('/b') {
    get = this.operation({ user: User, returns: Spot }, () => ({ personalizedFor: null }));
  }
  class DeclaresNothing extends Endpoint('/c') {
    get = this.operation({ returns: Spot }, () => ({ personalizedFor: null }));
  }
  class DeclaresAdmin extends Endpoint('/d') {
    get = this.operation({ user: Admin, returns: Spot }, () => ({ personalizedFor: null }));
  }

  it('gating × user: User | null is a WiringError', async () => {
    expect(await wiringError((a) => a.endpoint(new DeclaresNullable(), { auth: tokenAuth }))).toMatch(
      /^DeclaresNullable\.get: declares user: v\.nullable\(User\), but the authenticator gates \(it never passes null\)\. Fix: /,
    );
  });

  it('anonymous × user: User is a WiringError', async () => {
    expect(await wiringError((a) => a.endpoint(new DeclaresUser(), { auth: optionalAuth as never }))).toMatch(
      /^DeclaresUser\.get: declares user: User, but the authenticator accepts anonymous callers and may pass null/,
    );
  });

  it('anonymous × no user declared is a WiringError', async () => {
    expect(
      await wiringError((a) => a.endpoint(new DeclaresNothing(), { auth: optionalAuth as never })),
    ).toMatch(
      /^DeclaresNothing\.get: the mount's authenticator accepts anonymous callers \(v\.nullable\(User\)\) but the operation declares no user/,
    );
  });

  it('a different user schema is a WiringError', async () => {
    expect(await wiringError((a) => a.endpoint(new DeclaresAdmin(), { auth: tokenAuth }))).toMatch(
      /declares user: Admin, but the authenticator returns User/,
    );
  });

  it('an openapiSecurity that is not a SecurityScheme is a WiringError', () => {
    expect(() =>
      auth({
        headers: Credentials,
        user: User,
        authenticate: () => null,
        openapiSecurity: { type: 'http' } as never,
      }),
    ).toThrow(WiringError);
    expect(() =>
      auth({
        headers: Credentials,
        user: User,
        authenticate: () => null,
        openapiSecurity: undefined as never,
      }),
    ).toThrow(/openapiSecurity is not a SecurityScheme/);
  });
});

/** The catalogue entry of `Gated.get` mounted with `authenticator`. */
async function routeOf(authenticator: NonNullable<MountOptions<Gated>['auth']>) {
  class A extends BaseApp {
    protected override async wire(): Promise<void> {
      this.includeEndpoint(new Gated(), { auth: authenticator });
    }
  }
  const app = new A();
  await new TestClient(app).start();
  const route = app.catalogue.find(Gated, 'get')!;
  await app.close();
  return route;
}
async function factsOf(authenticator: NonNullable<MountOptions<Gated>['auth']>): Promise<AuthFacts> {
  return (await routeOf(authenticator)).facts.get('auth') as AuthFacts;
}

describe('SecurityScheme and catalogue facts', () => {
  it('renders the securitySchemes entries', () => {
    expect(SecurityScheme.httpBearer({ bearerFormat: 'JWT' }).toOpenapi()).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(SecurityScheme.httpBasic().schemeName).toBe('basicAuth');
    expect(SecurityScheme.apiKey({ name: 'key', location: 'query', schemeName: 'k' }).toOpenapi()).toEqual({
      type: 'apiKey',
      name: 'key',
      in: 'query',
    });
    expect(() => SecurityScheme.apiKey({ name: 'k', location: 'body' as never })).toThrow(
      /location must be header, query or cookie/,
    );
  });

  it('picks default schemes: bearer for headers, basic for basicAuth, apiKey-in-cookie for one cookie', () => {
    const rendered = (a: { security: readonly SecurityScheme[] }) =>
      a.security.map((s) => ({ [s.schemeName]: s.toOpenapi() }));
    expect(rendered(tokenAuth)).toEqual([{ bearerAuth: { type: 'http', scheme: 'bearer' } }]);
    expect(rendered(basicAuth({ headers: Credentials, user: User, authenticate: () => null }))).toEqual([
      { basicAuth: { type: 'http', scheme: 'basic' } },
    ]);
    expect(rendered(auth({ headers: Credentials, user: User, authenticate: () => null }))).toEqual([
      { bearerAuth: { type: 'http', scheme: 'bearer' } },
    ]);
    expect(rendered(sessionAuth)).toEqual([
      { apiKeyAuth: { type: 'apiKey', name: 'session_id', in: 'cookie' } },
    ]);
  });

  it('advertises a hybrid authenticator as two alternatives: bearer, or an API key in its cookie', () => {
    const hybrid = hybridAuth({
      headers: Struct('H', { authorization: v.optional(v.string()) }),
      cookies: Struct('C', { session_id: v.optional(v.string()) }),
      user: User,
      authenticate: () => null,
    });
    expect(hybrid.security.map((s) => ({ [s.schemeName]: s.toOpenapi() }))).toEqual([
      { bearerAuth: { type: 'http', scheme: 'bearer' } },
      { apiKeyAuth: { type: 'apiKey', name: 'session_id', in: 'cookie' } },
    ]);
  });

  it('advertises nothing (openapiSecurity needed) for a cookie Struct of several cookies, and takes a list of alternatives', async () => {
    const Two = Struct('Two', { session_id: v.string(), device: v.string() });
    const cookies = cookieAuth({ cookies: Two, user: User, authenticate: () => null });
    expect(cookies.security).toEqual([]);
    const given = [
      SecurityScheme.apiKey({ name: 'session_id', location: 'cookie', schemeName: 'session' }),
      SecurityScheme.httpBearer(),
    ] as const;
    expect(
      cookieAuth({ cookies: Two, user: User, authenticate: () => null, openapiSecurity: given }).security,
    ).toEqual(given);
    const facts = await factsOf(cookies);
    expect(facts.security).toEqual([]);
    expect(facts.undescribed).toBe(
      'cookieAuth({ cookies }) reads 2 cookies (session_id, device), and an OpenAPI API key is one cookie',
    );
  });

  it('records the auth policy in the route catalogue', async () => {
    const app = new App();
    await new TestClient(app).start();
    const facts = app.catalogue.find(Spotlight, 'get')!.facts.get('auth') as AuthFacts;
    expect(facts.anonymous).toBe(true);
    expect(facts.security.map((s) => s.schemeName)).toEqual(['bearerAuth']);
    await app.close();
  });
});

class Resourceful extends Resource('/things') {
  readMany = this.operation({ user: User, returns: v.array(User) }, ({ user }) => [user]);
}
describe('resources', () => {
  it('applies the policy to every operation of the mount', async () => {
    class R extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeResource(new Resourceful(), { auth: tokenAuth });
      }
    }
    const c = new TestClient(new R());
    clients.push(c);
    expect((await c.get('/things')).status).toBe(401);
    expect((await c.get('/things', { headers: { authorization: 'Bearer token' } })).json()).toEqual([
      { id: 'u1', name: 'Ada' },
    ]);
  });
});

// ------------------------------------------------------------------ www-authenticate, duplicate lines

const basic = basicAuth({
  headers: Credentials,
  user: User,
  authenticate: ({ headers }) => (headers.authorization === 'Basic YWRhOnB3' ? USERS.get('token')! : null),
});
const basicWithRealm = basicAuth({
  headers: Credentials,
  user: User,
  realm: 'widgets admin',
  authenticate: () => null,
});
const customChallenge = bearerAuth({
  headers: Credentials,
  user: User,
  wwwAuthenticate: 'Bearer realm="example", error="invalid_token"',
  authenticate: () => null,
});
const noChallenge = bearerAuth({
  headers: Credentials,
  user: User,
  wwwAuthenticate: false,
  authenticate: () => null,
});
const apiKeyAuth = auth({
  headers: Struct('ApiKey', { x_api_key: v.string() }),
  user: User,
  openapiSecurity: SecurityScheme.apiKey({ name: 'x-api-key', location: 'header' }),
  authenticate: () => null,
});
class Forbidden401 extends HTTPError.define({ type: 'later', title: 'Later', status: 401 }) {}
class Plain extends Endpoint('/plain') {
  get = this.operation({ returns: Struct('Ok2', { ok: v.boolean() }) }, () => {
    throw new Forbidden401();
  });
}
function endpointAt(path: string): new () => object {
  return class extends Endpoint(path) {
    get = this.operation({ user: User, returns: User }, ({ user }) => user);
  };
}
const Basic = endpointAt('/basic');
const BasicRealm = endpointAt('/basic-realm');
const Custom = endpointAt('/custom');
const Silent = endpointAt('/silent');
const Keyed = endpointAt('/keyed');
class ChallengeApp extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Me(), { auth: tokenAuth });
    this.includeEndpoint(new Gated(), { auth: tokenAuth });
    this.includeEndpoint(new Spotlight(), { auth: optionalAuth });
    this.includeEndpoint(new Profile(), { auth: sessionAuth });
    this.includeEndpoint(new Either(), { auth: eitherAuth });
    this.includeEndpoint(new Basic() as Me, { auth: basic });
    this.includeEndpoint(new BasicRealm() as Me, { auth: basicWithRealm });
    this.includeEndpoint(new Custom() as Me, { auth: customChallenge });
    this.includeEndpoint(new Silent() as Me, { auth: noChallenge });
    this.includeEndpoint(new Keyed() as Me, { auth: apiKeyAuth });
    this.includeEndpoint(new Plain());
  }
}
function challengeClient(): TestClient {
  const c = new TestClient(
    new ChallengeApp({ logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }),
  );
  clients.push(c);
  return c;
}

describe('www-authenticate on 401', () => {
  it('sends Bearer when a required credential header is missing (binding fails)', async () => {
    const res = await challengeClient().get('/me');
    expect(res.status).toBe(401);
    expect(res.headers.getAll('www-authenticate')).toEqual(['Bearer']);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json()).toEqual(REQUIRED);
  });

  it('sends Bearer when authenticate raises a 401 error of its own, and on a gating null', async () => {
    const c = challengeClient();
    const bad = await c.get('/me', { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.getAll('www-authenticate')).toEqual(['Bearer']);
    expect(bad.json()).toEqual({ type: 'invalid-token', title: 'Invalid token', status: 401 });
    const anonymousOnGated = await c.get('/either'); // hybrid: optional fields, authenticate → null
    expect(anonymousOnGated.status).toBe(401);
    expect(anonymousOnGated.headers.getAll('www-authenticate')).toEqual(['Bearer']);
    expect(anonymousOnGated.json()).toEqual(REQUIRED);
    const anonymousOk = await c.get('/spotlight', { headers: { authorization: 'Bearer wrong' } });
    expect(anonymousOk.status).toBe(401);
    expect(anonymousOk.headers.getAll('www-authenticate')).toEqual(['Bearer']);
  });

  it('sends no challenge on a success or a non-401 answer of the same mount', async () => {
    const c = challengeClient();
    const ok = await c.get('/me', { headers: { authorization: 'Bearer token' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.has('www-authenticate')).toBe(false);
    const anonymous = await c.get('/spotlight');
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.has('www-authenticate')).toBe(false);
    const unprocessable = await c.post('/me', {
      json: { n: 'x' },
      headers: { authorization: 'Bearer token' },
    });
    expect(unprocessable.status).toBe(422);
    expect(unprocessable.headers.has('www-authenticate')).toBe(false);
  });

  it('sends Basic with the default realm, or the configured one', async () => {
    const c = challengeClient();
    const missing = await c.get('/basic');
    expect(missing.status).toBe(401);
    expect(missing.headers.getAll('www-authenticate')).toEqual(['Basic realm="api"']);
    expect(missing.json()).toEqual(REQUIRED);
    const wrong = await c.get('/basic', { headers: { authorization: 'Basic d3Jvbmc6cHc=' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.getAll('www-authenticate')).toEqual(['Basic realm="api"']);
    const ok = await c.get('/basic', { headers: { authorization: 'Basic YWRhOnB3' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.has('www-authenticate')).toBe(false);
    const realm = await c.get('/basic-realm', { headers: { authorization: 'Basic x' } });
    expect(realm.status).toBe(401);
    expect(realm.headers.getAll('www-authenticate')).toEqual(['Basic realm="widgets admin"']);
  });

  it('sends none for cookie auth and API-key schemes; wwwAuthenticate overrides or disables it', async () => {
    const c = challengeClient();
    for (const res of [
      await c.get('/profile'),
      await c.get('/profile', { cookies: { session_id: 'other' } }),
      await c.get('/keyed'),
      await c.get('/keyed', { headers: { 'x-api-key': 'k' } }),
      await c.get('/silent'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.headers.has('www-authenticate')).toBe(false);
      expect(res.json()).toEqual(REQUIRED);
    }
    const custom = await c.get('/custom', { headers: { authorization: 'x' } });
    expect(custom.status).toBe(401);
    expect(custom.headers.getAll('www-authenticate')).toEqual([
      'Bearer realm="example", error="invalid_token"',
    ]);
  });

  it('adds nothing to routes mounted without auth', async () => {
    const res = await challengeClient().get('/plain');
    expect(res.status).toBe(401);
    expect(res.headers.has('www-authenticate')).toBe(false);
    expect(res.json()).toEqual({ type: 'later', title: 'Later', status: 401 });
  });

  it('refuses a realm or challenge that cannot be sent, and a realm without Basic', () => {
    const base = { headers: Credentials, user: User, authenticate: () => null };
    expect(() => basicAuth({ ...base, realm: 'a"b' })).toThrow(WiringError);
    expect(() => basicAuth({ ...base, realm: '' })).toThrow(
      /^basicAuth|realm must be a non-empty string without quotes, backslashes or control characters/,
    );
    expect(() => basicAuth({ ...base, realm: 'a\r\nb' })).toThrow(/realm must be/);
    expect(() => bearerAuth({ ...base, realm: 'x' })).toThrow(/realm is only used by a Basic challenge/);
    expect(() => bearerAuth({ ...base, realm: 'x' })).toThrow(
      expect.objectContaining({ code: 'API_WIRING_AUTH_REALM', where: 'bearerAuth({ headers })' }),
    );
    expect(() => bearerAuth({ ...base, wwwAuthenticate: 'Bearer\r\nx: y' })).toThrow(
      /wwwAuthenticate must be a header value/,
    );
    expect(() => bearerAuth({ ...base, wwwAuthenticate: '' })).toThrow(
      /wwwAuthenticate must be a header value/,
    );
  });
});

describe('credential headers sent twice', () => {
  const DUPLICATE = {
    type: 'malformed-request',
    title: 'Malformed request',
    status: 400,
    detail: 'Header sent more than once at `header authorization`',
    params: {
      reason: 'Header sent more than once at `header authorization`',
      issues: [{ path: 'header authorization', message: 'Header sent more than once' }],
    },
  };

  it('answers 400 malformed-request for two Authorization lines, whatever their order', async () => {
    const c = challengeClient();
    for (const headers of [
      [
        ['Authorization', 'Bearer token'],
        ['authorization', 'Bearer nope'],
      ],
      [
        ['authorization', 'Bearer nope'],
        ['AUTHORIZATION', 'Bearer token'],
      ],
      [
        ['authorization', 'Bearer token'],
        ['authorization', 'Bearer token'],
      ],
    ] as const) {
      for (const path of ['/me', '/spotlight', '/either', '/basic']) {
        calls.length = 0;
        const res = await c.get(path, { headers });
        expect(res.status, path).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        expect(res.headers.has('www-authenticate')).toBe(false);
        expect(res.json()).toEqual(DUPLICATE);
        expect(calls).toEqual([]);
      }
    }
  });

  it('refuses any other credential header the authenticator reads twice', async () => {
    const res = await challengeClient().get('/keyed', {
      headers: [
        ['x-api-key', 'a'],
        ['X-Api-Key', 'b'],
      ],
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      ...DUPLICATE,
      detail: 'Header sent more than once at `header x-api-key`',
      params: {
        reason: 'Header sent more than once at `header x-api-key`',
        issues: [{ path: 'header x-api-key', message: 'Header sent more than once' }],
      },
    });
  });

  it('still accepts one line', async () => {
    const res = await challengeClient().get('/me', { headers: [['Authorization', 'Bearer token']] });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ id: 'u1', name: 'Ada' });
  });
});

describe('the errors an authenticator raises, in the route catalogue', () => {
  it('records its own 401, the 400 of a credential header sent twice, and what authenticate is declared to raise', async () => {
    const declared = bearerAuth({
      headers: Credentials,
      user: User,
      authenticate: ({ headers }) => lookup(headers.authorization),
      raises: [InvalidTokenError],
    });
    expect((await routeOf(declared)).errors).toEqual([
      AuthenticationRequiredError,
      MalformedRequestError,
      InvalidTokenError,
    ]);
    expect((await routeOf(tokenAuth)).errors).toEqual([AuthenticationRequiredError, MalformedRequestError]);
    expect((await routeOf(sessionAuth)).errors).toEqual([AuthenticationRequiredError]);
  });

  it('refuses raises that is not a list of HTTP error classes', () => {
    for (const raises of [InvalidTokenError, [Error], ['invalid-token']]) {
      expect(() =>
        bearerAuth({ headers: Credentials, user: User, authenticate: () => null, raises: raises as never }),
      ).toThrow(
        /^bearerAuth\(\{ headers \}\): raises must be a list of HTTP error classes \(what authenticate throws\), got .*\. Fix: e\.g\. raises: \[InvalidTokenError\]/,
      );
    }
  });
});
