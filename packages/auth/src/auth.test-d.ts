import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { BaseApp, Endpoint, Struct } from '@api/core';
import { basicAuth, bearerAuth, cookieAuth } from './index';

const User = Struct('User', { id: v.string() });
const Admin = Struct('Admin', { id: v.string(), admin: v.literal(true) });
const Credentials = Struct('Credentials', { authorization: v.string() });
const gating = bearerAuth({ headers: Credentials, user: User, authenticate: () => ({ id: '1' }) });
const anonymous = bearerAuth({ headers: Credentials, user: v.nullable(User), authenticate: () => null });
const admins = bearerAuth({
  headers: Credentials,
  user: Admin,
  authenticate: () => ({ id: '1', admin: true as const }),
});

class WithUser extends Endpoint('/u') {
  get = this.operation({ user: User, returns: User }, ({ user }) => {
    expectTypeOf(user).toEqualTypeOf<{ id: string }>();
    return user;
  });
}
class WithNullable extends Endpoint('/n') {
  get = this.operation({ user: v.nullable(User), returns: User }, ({ user }) => {
    expectTypeOf(user).toEqualTypeOf<{ id: string } | null>();
    return user ?? { id: 'anon' };
  });
}
class WithoutUser extends Endpoint('/w') {
  get = this.operation({ returns: User }, () => ({ id: 'x' }));
}

describe('auth mount option types', () => {
  it('accepts the table’s allowed cells', () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new WithUser(), { auth: gating });
        this.includeEndpoint(new WithNullable(), { auth: anonymous });
        this.includeEndpoint(new WithoutUser(), { auth: gating });
      }
    }
    void App;
  });

  it('rejects the table’s WiringError cells at compile time', () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        // @ts-expect-error gating authenticator, handler declares a nullable user
        this.includeEndpoint(new WithNullable(), { auth: gating });
        // @ts-expect-error anonymous authenticator, handler declares a non-null user
        this.includeEndpoint(new WithUser(), { auth: anonymous });
        // @ts-expect-error anonymous authenticator, handler declares no user
        this.includeEndpoint(new WithoutUser(), { auth: anonymous });
        // @ts-expect-error a different user schema than the authenticator's
        this.includeEndpoint(new WithUser(), { auth: admins });
      }
    }
    void App;
  });

  it('types authenticate’s input from the declared schemas', () => {
    cookieAuth({
      cookies: Struct('Session', { session_id: v.string() }),
      user: User,
      authenticate: ({ cookies }) => {
        expectTypeOf(cookies).toEqualTypeOf<{ session_id: string }>();
        return { id: cookies.session_id };
      },
    });
    bearerAuth({
      headers: Credentials,
      user: User,
      // @ts-expect-error must return the declared user (or null)
      authenticate: () => ({ nope: 1 }),
    });
  });

  it('types the challenge options: realm on header authenticators, wwwAuthenticate a string or false', () => {
    basicAuth({ headers: Credentials, user: User, realm: 'admin', authenticate: () => null });
    bearerAuth({ headers: Credentials, user: User, wwwAuthenticate: false, authenticate: () => null });
    cookieAuth({
      cookies: Struct('S', { s: v.string() }),
      user: User,
      wwwAuthenticate: 'Cookie',
      authenticate: () => null,
    });
    // @ts-expect-error wwwAuthenticate is a header value or false
    bearerAuth({ headers: Credentials, user: User, wwwAuthenticate: true, authenticate: () => null });
    cookieAuth({
      cookies: Struct('S', { s: v.string() }),
      user: User,
      // @ts-expect-error realm belongs to header authenticators (Basic challenges)
      realm: 'x',
      authenticate: () => null,
    });
  });
});

describe('user without auth', () => {
  it('is a type error: a mount whose operations declare user needs the auth option', () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        // @ts-expect-error WithUser declares user: auth is required
        this.includeEndpoint(new WithUser());
        // @ts-expect-error WithUser declares user: auth is required
        this.includeEndpoint(new WithUser(), {});
        // @ts-expect-error WithNullable declares user: auth is required
        this.includeEndpoint(new WithNullable(), { middleware: [] });
        this.includeEndpoint(new WithoutUser());
        this.includeEndpoint(new WithoutUser(), {});
        this.includeEndpoint(new WithUser(), { auth: gating });
      }
    }
    void App;
  });
});
