import * as v from 'valibot';
import { AuthenticationRequiredError, Struct } from '@api/core';
import { bearerAuth, cookieAuth } from '@api/auth';
import { InvalidTokenError } from './errors';
import { User } from './models';

/** `Authorization: Bearer <token>`; anonymous callers may omit it on optional routes. */
const Credentials = Struct('Credentials', { authorization: v.string() });
const OptionalCredentials = Struct('OptionalCredentials', { authorization: v.optional(v.string()) });
const SessionCookies = Struct('SessionCookies', { session_id: v.string() });

type Users = ReadonlyMap<string, v.InferOutput<typeof User>>;

function bearerToken(header: string): string {
  const [scheme, token] = header.split(' ', 2);
  if (scheme?.toLowerCase() !== 'bearer' || !token) throw new InvalidTokenError();
  return token;
}

/**
 * Builds the demo's authenticators over a token → user map. `trustedOrigins`: pages that may send
 * unsafe cookie-session requests from another origin (the CORS origins allowed credentials).
 */
export function authenticators(users: Users, trustedOrigins: readonly string[] = []) {
  const lookup = (token: string): v.InferOutput<typeof User> => {
    const user = users.get(token);
    if (!user) throw new InvalidTokenError();
    return user;
  };
  return {
    /** Gating bearer auth: 401 `authentication-required` without a header, `invalid-token` for a bad one. */
    tokenAuth: bearerAuth({
      headers: Credentials,
      user: User,
      // Documented on every operation of the mount (through the route catalogue).
      raises: [InvalidTokenError],
      authenticate: ({ headers }) => lookup(bearerToken(headers.authorization)),
    }),
    /** Optional bearer auth: no header → anonymous (`user: null`); a bad token is still 401. */
    optionalTokenAuth: bearerAuth({
      headers: OptionalCredentials,
      user: v.nullable(User),
      raises: [InvalidTokenError],
      authenticate: ({ headers }) =>
        headers.authorization === undefined ? null : lookup(bearerToken(headers.authorization)),
    }),
    /** Cookie auth on the `session_id` cookie (browsers, and the chat WebSocket later). */
    sessionAuth: cookieAuth({
      cookies: SessionCookies,
      user: User,
      trustedOrigins,
      authenticate: ({ cookies }) =>
        users.get(cookies.session_id) ?? raise(new AuthenticationRequiredError()),
    }),
  };
}

function raise(error: Error): never {
  throw error;
}
