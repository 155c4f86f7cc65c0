// The same @api app as api.mjs, plus mounts that carry scoped middleware, auth and a per-mount CORS
// policy on OTHER paths. The micro-benchmark compares /info here with /info in api.mjs: a route that
// no middleware, CORS policy or authenticator covers must cost the same (nothing is added at request time).
import * as v from 'valibot';
import { AuthenticationRequiredError, Endpoint, Struct, defineMiddleware } from '@api/core';
import { bearerAuth } from '@api/auth';
import { CORS } from '@api/cors';
import { App } from './api.mjs';

const Ok = Struct('Ok', { ok: v.boolean() });
const User = Struct('BusyUser', { id: v.string() });
const busyAuth = bearerAuth({
  headers: Struct('BusyCredentials', { authorization: v.string() }),
  user: User,
  authenticate: () => {
    throw new AuthenticationRequiredError();
  },
});
const timing = defineMiddleware({
  responseHeaders: (_request, status) => ({ 'x-status': String(status) }),
  observe: () => {},
});
const blocker = defineMiddleware({ intercept: () => undefined, interceptMethods: ['GET'] });

class Guarded extends Endpoint('/guarded') {
  get = this.operation({ user: User, returns: Ok }, () => ({ ok: true }));
}
class Observed extends Endpoint('/observed') {
  get = this.operation({ returns: Ok }, () => ({ ok: true }));
}

class BusyApp extends App {
  async wire() {
    await super.wire();
    this.includeEndpoint(new Guarded(), { auth: busyAuth, middleware: [timing, blocker] });
    this.includeEndpoint(new Observed(), {
      middleware: [timing],
      cors: new CORS({ allowOrigins: ['https://a.example'] }),
    });
  }
}

const app = new BusyApp({ logger: { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) } });
await app.start();
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
