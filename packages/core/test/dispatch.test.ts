// wiring.dispatch: an extension answers one request with another route of the app, through the
// app's own pipeline (mount options, binding, exception handlers, request log), on both transports.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, serve, Struct, WiringError } from '../src/index';
import { defineExtension, type MountOptionValue, type Wiring } from '../src/extension';
import { headerUserAuth } from './fixtures';

declare module '../src/index' {
  interface MountOptions<TRoute extends object> {
    readonly fakeAuth?: MountOptionValue & { readonly forRoute?: TRoute };
  }
}

const Greeting = Struct('Greeting', { text: v.string() });
const Name = Struct('Name', { name: v.pipe(v.string(), v.minLength(1)) });
const User = Struct('User', { name: v.string() });
class Hello extends Endpoint('/hello') {
  post = this.operation(
    { user: User, json: Name, returns: Greeting, requestId: true },
    ({ user, json, requestId }) => ({
      text: `hello ${json.name} from ${user.name} (${requestId})`,
    }),
  );
}

/** `POST /relay`: dispatches `POST /hello` with the caller's `x-user` and body, answers what it got. */
function relay(onSetup: (wiring: Wiring) => void = () => undefined) {
  return defineExtension({
    name: 'relay',
    setup(wiring) {
      onSetup(wiring);
      wiring.addRoute({
        method: 'POST',
        path: '/relay',
        owner: 'relay',
        operation: 'relay',
        spec: { json: v.unknown() },
        handle: async (ex, input) => {
          const headers: Record<string, string> = {
            'content-type': 'application/json',
            'x-request-id': 'inner-1',
          };
          const user = ex.req.headers['x-user'];
          if (typeof user === 'string') headers['x-user'] = user;
          const response = await wiring.dispatch(
            new Request('http://app.test/hello', {
              method: 'POST',
              headers,
              body: JSON.stringify(input.json),
            }),
          );
          ex.send(
            200,
            ['content-type', 'application/json'],
            JSON.stringify({ status: response.status, body: await response.json() }),
          );
        },
      });
    },
  });
}

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((close) => close()));
});

describe('wiring.dispatch', () => {
  for (const transport of ['node', 'fetch'] as const) {
    it(`runs the inner request through the route's plan (${transport})`, async () => {
      const logged: { message: string; fields: Record<string, unknown> | undefined }[] = [];
      const logger = {
        info: (message: string, fields?: Record<string, unknown>) => void logged.push({ message, fields }),
        warn() {},
        error() {},
      };
      class App extends BaseApp {
        protected override async wire(): Promise<void> {
          this.include(relay());
          this.includeEndpoint(new Hello(), { fakeAuth: headerUserAuth });
        }
      }
      const app = new App({ logger, requestLog: true });
      let call: (init: RequestInit) => Promise<Response>;
      if (transport === 'node') {
        const server = await serve(app, { port: 0, quiet: true, signals: false });
        opened.push(() => server.close());
        call = (init) => fetch(`${server.url}/relay`, { method: 'POST', ...init });
      } else {
        opened.push(() => app.close());
        call = async (init) => app.fetch(new Request('http://app.test/relay', { method: 'POST', ...init }));
      }
      const json = { 'content-type': 'application/json' };
      const ok = await call({ headers: { ...json, 'x-user': 'ada' }, body: '{"name":"Ada"}' });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ status: 200, body: { text: 'hello Ada from ada (inner-1)' } });
      // The mount's authenticator ran on the inner request: no x-user, its 401 Problem.
      const anonymous = await call({ headers: json, body: '{"name":"Ada"}' });
      expect(await anonymous.json()).toEqual({
        status: 401,
        body: expect.objectContaining({ status: 401, type: 'authentication-required' }),
      });
      // Validation ran: the 422 Problem, not the handler.
      const invalid = await call({ headers: { ...json, 'x-user': 'ada' }, body: '{"name":""}' });
      expect(await invalid.json()).toEqual({
        status: 422,
        body: expect.objectContaining({ status: 422, type: 'validation-failed' }),
      });
      // The request log has a line for each inner request.
      await expect
        .poll(() =>
          logged
            .filter((l) => l.fields?.path === '/hello')
            .map((l) => [l.fields?.status, l.fields?.requestId]),
        )
        .toEqual([
          [200, 'inner-1'],
          [401, 'inner-1'],
          [422, 'inner-1'],
        ]);
    });
  }

  it('rejects with API_WIRING_APP_STATE before the app has started', async () => {
    let early: Promise<Response> | undefined;
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          relay((wiring) => {
            early = wiring.dispatch(new Request('http://app.test/hello'));
          }),
        );
      }
    }
    const app = new App();
    opened.push(() => app.close());
    await app.start();
    const error = await early!.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WiringError);
    expect((error as WiringError).code).toBe('API_WIRING_APP_STATE');
    expect((error as WiringError).where).toBe('wiring.dispatch');
  });
});
