import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  BaseApp,
  Endpoint,
  HTTPError,
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
    expect(tokenAuth.scheme.toOpenapi()).toEqual({ type: 'http', scheme: 'bearer' });
    expect(basicAuth({ headers: Credentials, user: User, authenticate: () => null }).scheme.schemeName).toBe(
      'basicAuth',
    );
    expect(auth({ headers: Credentials, user: User, authenticate: () => null }).scheme.schemeName).toBe(
      'bearerAuth',
    );
    expect(sessionAuth.scheme.toOpenapi()).toEqual({ type: 'apiKey', name: 'session_id', in: 'cookie' });
  });

  it('records the auth policy in the route catalogue', async () => {
    const app = new App();
    await new TestClient(app).start();
    const facts = app.catalogue.find(Spotlight, 'get')!.facts.get('auth') as AuthFacts;
    expect(facts.anonymous).toBe(true);
    expect(facts.scheme.schemeName).toBe('bearerAuth');
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
