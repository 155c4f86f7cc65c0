// Every wrong argument to an authenticator factory or SecurityScheme is a WiringError naming the
// factory, the option and the fix (issue 11).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Struct, WiringError } from '@api/core';
import { auth, basicAuth, bearerAuth, cookieAuth, hybridAuth, SecurityScheme } from './index';

const User = Struct('User', { id: v.string() });
const Credentials = Struct('Credentials', { authorization: v.string() });
const Session = Struct('Session', { session_id: v.string() });
const authenticate = (): null => null;
const headerBase = { headers: Credentials, user: User, authenticate };
const call = (f: (o: never) => unknown, o: unknown) => () => f(o as never);

const cases: [string, () => unknown, string][] = [
  [
    'auth(undefined)',
    call(auth, undefined),
    'auth({ headers }): expected an options object, got undefined. Fix: pass { headers, user, authenticate }.',
  ],
  [
    'bearerAuth: a typo',
    call(bearerAuth, { ...headerBase, authentificate: authenticate }),
    'bearerAuth({ headers }): unknown option "authentificate" (did you mean "authenticate"?). Fix: use only user, authenticate, openapiSecurity, wwwAuthenticate, raises, headers, realm.',
  ],
  [
    'basicAuth: user not a schema',
    call(basicAuth, { ...headerBase, user: { id: 'x' } }),
    'basicAuth({ headers }): "user" must be a valibot schema (the user the authenticator returns), got an object. Fix: user: User (gating) or user: v.nullable(User) (anonymous callers accepted).',
  ],
  [
    'auth: authenticate missing',
    call(auth, { headers: Credentials, user: User }),
    'auth({ headers }): "authenticate" must be a function, got undefined. Fix: authenticate: ({ headers }) => user ?? null.',
  ],
  [
    'bearerAuth: headers not an object schema',
    call(bearerAuth, { ...headerBase, headers: v.string() }),
    'bearerAuth({ headers }): "headers" must be an object schema of the headers it reads, got an object. Fix: headers: Struct(\'Credentials\', { authorization: v.string() }).',
  ],
  [
    'cookieAuth: cookies missing (was a bare TypeError)',
    call(cookieAuth, { user: User, authenticate }),
    'cookieAuth({ cookies }): "cookies" must be an object schema of the cookies it reads, got undefined. Fix: cookies: Struct(\'Session\', { session_id: v.string() }).',
  ],
  [
    'cookieAuth: realm is for Basic',
    call(cookieAuth, { cookies: Session, user: User, authenticate, realm: 'x' }),
    'cookieAuth({ cookies }): unknown option "realm". Fix: use only user, authenticate, openapiSecurity, wwwAuthenticate, raises, cookies, trustedOrigins (realm is for basicAuth and header authenticators advertised as HTTP basic).',
  ],
  [
    'hybridAuth: headers missing',
    call(hybridAuth, { cookies: Session, user: User, authenticate }),
    'hybridAuth({ headers, cookies }): "headers" must be an object schema of the headers it reads, got undefined. Fix: headers: Struct(\'Credentials\', { authorization: v.string() }).',
  ],
  [
    'hybridAuth: options a string',
    call(hybridAuth, 'token'),
    'hybridAuth({ headers, cookies }): expected an options object, got a string. Fix: pass { headers, cookies, user, authenticate }.',
  ],
  [
    'SecurityScheme.apiKey: bad location',
    call(SecurityScheme.apiKey, { name: 'k', location: 'body' }),
    "SecurityScheme.apiKey: location must be header, query or cookie, got a string. Fix: e.g. location: 'cookie'.",
  ],
  [
    'SecurityScheme.apiKey: name missing',
    call(SecurityScheme.apiKey, { location: 'cookie' }),
    "SecurityScheme.apiKey: name is required. Fix: e.g. name: 'session_id'.",
  ],
  [
    'SecurityScheme.httpBearer: unknown option',
    call(SecurityScheme.httpBearer, { format: 'JWT' }),
    'SecurityScheme.httpBearer: unknown option "format". Fix: use only bearerFormat, description, schemeName.',
  ],
  [
    'SecurityScheme.httpBasic: schemeName not a string',
    call(SecurityScheme.httpBasic, { schemeName: 1 }),
    "SecurityScheme.httpBasic: schemeName must be a non-empty string, got 1. Fix: e.g. schemeName: 'tokenAuth'.",
  ],
  [
    'SecurityScheme.httpBasic: options null',
    call(SecurityScheme.httpBasic, null),
    'SecurityScheme.httpBasic: the options must be an object, got null. Fix: pass { description, schemeName } (each optional) or nothing for the defaults.',
  ],
];

describe('authenticator factories and SecurityScheme: wrong arguments', () => {
  it.each(cases)('%s', (_name, run, message) => {
    let thrown: unknown;
    try {
      run();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WiringError);
    expect((thrown as Error).message).toBe(message);
    // Coded (never the generic API_WIRING), and `where` names the factory the message starts with.
    expect((thrown as WiringError).code).toMatch(/^API_WIRING_[A-Z_]+$/);
    expect(message.startsWith(`${(thrown as WiringError).where}: `)).toBe(true);
  });

  it('still builds every authenticator from valid options', () => {
    expect(auth(headerBase).kind).toBe('headers');
    expect(cookieAuth({ cookies: Session, user: User, authenticate }).security[0]!.schemeName).toBe(
      'apiKeyAuth',
    );
    expect(
      hybridAuth({ headers: Credentials, cookies: Session, user: v.nullable(User), authenticate }).anonymous,
    ).toBe(true);
  });
});
