// Bearer auth as the demo's (apps/demo/src/auth.ts): 401 `authentication-required` without a header
// (with `WWW-Authenticate: Bearer`), `invalid-token` for a bad one. @api/auth's `headers` and `user`
// schemas are still valibot on this branch (its Standard Schema support comes with core's); the
// routes behind it are zod.
import * as v from 'valibot';
import { Struct } from '@api/core';
import { bearerAuth } from '@api/auth';
import { InvalidTokenError } from './errors';

/** A caller. */
export const User = Struct('User', { id: v.string(), name: v.string(), maySeeSpotlight: v.boolean() });
export type User = v.InferOutput<typeof User>;

const Credentials = Struct('Credentials', { authorization: v.string() });

/** The users behind the tokens (the demo's `token`). */
export const USERS: ReadonlyMap<string, User> = new Map([
  ['token', { id: 'user-id', name: 'user-name', maySeeSpotlight: true }],
]);

export const tokenAuth = bearerAuth({
  headers: Credentials,
  user: User,
  raises: [InvalidTokenError],
  authenticate: ({ headers }) => {
    const [scheme, token] = headers.authorization.split(' ', 2);
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw new InvalidTokenError();
    const user = USERS.get(token);
    if (!user) throw new InvalidTokenError();
    return user;
  },
});
