import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, HTTPError, Struct } from '@api/core';
import { bearerAuth } from './index';

// On app.fetch a Request's Headers has already joined a credential header sent twice into one
// value (`ex.req.repeatsJoined`): there are no lines to count, so the authenticator does not
// read them, and `authenticate` refuses the joined value. This pins the answer; the lines not
// being read cannot be seen here (on Node the fetch transport reads them once for the 431 count).
const User = Struct('User', { id: v.string() });
class InvalidTokenError extends HTTPError.define({
  type: 'invalid-token',
  title: 'Invalid token',
  status: 401,
}) {}
const seen: string[] = [];
const tokenAuth = bearerAuth({
  headers: Struct('Credentials', { authorization: v.string() }),
  user: User,
  authenticate: ({ headers }) => {
    seen.push(headers.authorization);
    if (headers.authorization !== 'Bearer token') throw new InvalidTokenError();
    return { id: 'u1' };
  },
});
class Me extends Endpoint('/me') {
  get = this.operation({ user: User, returns: User }, ({ user }) => user);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Me(), { auth: tokenAuth });
  }
}

describe('a credential header sent twice, on app.fetch', () => {
  it('reaches authenticate as the one value Headers joined, which it refuses', async () => {
    const app = new App({ logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    const request = new Request('http://api.test/me', {
      headers: [
        ['authorization', 'Bearer token'],
        ['authorization', 'Bearer token'],
      ],
    });
    const res = await app.fetch(request);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.json()).toEqual({ type: 'invalid-token', title: 'Invalid token', status: 401 });
    expect(seen).toEqual(['Bearer token, Bearer token']);
    const one = await app.fetch(
      new Request('http://api.test/me', { headers: { authorization: 'Bearer token' } }),
    );
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual({ id: 'u1' });
    await app.close();
  });
});
