// RouteContribution.afterSources: a pre-handler step that reads the mount's sources (the `user`
// an authenticator provides), resolved once, before any body is read.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { AuthenticationRequiredError, BaseApp, Endpoint, Struct, TooManyRequestsError } from '../src/index';
import { mountOption, type MountOptionValue } from '../src/extension';
import { memoryLogger } from './fixtures';

declare module '../src/index' {
  interface MountOptions<TRoute extends object> {
    readonly who?: MountOptionValue & { readonly forRoute?: TRoute };
    readonly perUser?: MountOptionValue & { readonly forRoute?: TRoute };
  }
}

const User = Struct('User', { name: v.string() });
const Note = Struct('Note', { text: v.string() });
const Ok = Struct('Ok', { ok: v.boolean(), by: v.string() });

let resolutions = 0;
/** A mount-provided `user` source: `x-user` names the user (async for `x-async`), none → 401. */
const who: MountOptionValue = {
  [mountOption]: () => ({
    sources: {
      user: (ex) => {
        resolutions++;
        const name = ex.req.headers['x-user'];
        if (typeof name !== 'string') throw new AuthenticationRequiredError();
        return ex.req.headers['x-async'] ? Promise.resolve({ name }) : { name };
      },
    },
  }),
};

const seen: string[] = [];
/** One request per user, then 429; records the order of steps it sees. */
function perUser(async: boolean): MountOptionValue {
  const used = new Set<string>();
  return {
    [mountOption]: () => ({
      before: () => void seen.push('before'),
      afterSources: (_ex, sources) => {
        const name = (sources.user as { name: string }).name;
        seen.push(`after:${name}`);
        const refuse = used.has(name);
        used.add(name);
        const check = (): void => {
          if (refuse) throw new TooManyRequestsError();
        };
        return async ? Promise.resolve().then(check) : check();
      },
    }),
  };
}

class Declared extends Endpoint('/declared') {
  post = this.operation({ user: User, json: Note, returns: Ok }, ({ user, json }) => {
    seen.push('handler');
    return { ok: json.text === 'hi', by: user.name };
  });
}
class Undeclared extends Endpoint('/undeclared') {
  post = this.operation({ json: Note, returns: Ok }, () => ({ ok: true, by: 'nobody' }));
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  seen.length = 0;
  resolutions = 0;
});

function start(async: boolean): TestClient {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.includeEndpoint(new Declared(), { who, perUser: perUser(async) });
      this.includeEndpoint(new Undeclared(), { who, perUser: perUser(async) });
    }
  }
  const client = new TestClient(new App({ logger: memoryLogger() }));
  clients.push(client);
  return client;
}

describe('afterSources', () => {
  for (const async of [false, true])
    it(`sees the user resolved once, after before-steps and before the body (${async ? 'async' : 'sync'} step)`, async () => {
      const c = start(async);
      const first = await c.post('/declared', { json: { text: 'hi' }, headers: { 'x-user': 'ada' } });
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ ok: true, by: 'ada' });
      expect(seen).toEqual(['before', 'after:ada', 'handler']);
      expect(resolutions).toBe(1);
      // Refused before the body is read: a malformed body is never looked at.
      const again = await c.post('/declared', {
        content: '{',
        headers: { 'x-user': 'ada', 'content-type': 'application/json' },
      });
      expect(again.status).toBe(429);
      const async_ = await c.post('/declared', {
        json: { text: 'hi' },
        headers: { 'x-user': 'bob', 'x-async': '1' },
      });
      expect(await async_.json()).toEqual({ ok: true, by: 'bob' });
    });

  it('still gates routes that do not declare the source, and a source failure answers before the step', async () => {
    const c = start(false);
    expect((await c.post('/undeclared', { json: { text: 'x' } })).status).toBe(401);
    expect(seen).toEqual(['before']);
    expect((await c.post('/undeclared', { json: { text: 'x' }, headers: { 'x-user': 'ada' } })).status).toBe(
      200,
    );
    expect((await c.post('/undeclared', { json: { text: 'x' }, headers: { 'x-user': 'ada' } })).status).toBe(
      429,
    );
    expect(resolutions).toBe(3);
  });
});
