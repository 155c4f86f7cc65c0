// wiring.invoke: an extension answers one request with another route of the app in-process, the
// request and its answer as plain data, through the app's own pipeline (mount options, binding,
// exception handlers, request log), on both transports; streamed answers collected within a bound;
// the caller's client leaving reaches the invoked route.
import { connect } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, serve, Struct, WiringError, type Logger } from '../src/index';
import {
  defineExtension,
  type InvokeAnswer,
  type InvokeRequest,
  type MountOptionValue,
  type Wiring,
} from '../src/extension';
import { headerUserAuth } from './fixtures';

declare module '../src/index' {
  interface MountOptions<TRoute extends object> {
    readonly fakeAuth?: MountOptionValue & { readonly forRoute?: TRoute };
  }
}

const Greeting = Struct('Greeting', { text: v.string() });
const Name = Struct('Name', { name: v.pipe(v.string(), v.minLength(1)) });
const User = Struct('User', { name: v.string() });
const Lang = Struct('Lang', { lang: v.optional(v.picklist(['en', 'fr'])) });
const Done = Struct('Done', { done: v.boolean() });
class Hello extends Endpoint('/hello') {
  post = this.operation(
    { user: User, json: Name, params: Lang, returns: Greeting, requestId: true },
    ({ user, json, params, requestId }) => ({
      text: `${params.lang === 'fr' ? 'bonjour' : 'hello'} ${json.name} from ${user.name} (${requestId})`,
    }),
  );
}

/** What the `/wait` route's signal told, for the client-leaving test. */
let aborted: Promise<unknown>;
let onAbort: (reason: unknown) => void;
let waitStarted: Promise<void>;
let markStarted: () => void;
function resetWait(): void {
  aborted = new Promise((resolve) => (onAbort = resolve));
  waitStarted = new Promise((resolve) => (markStarted = resolve));
}
resetWait();
class Wait extends Endpoint('/wait') {
  get = this.operation({ signal: true, returns: Done }, ({ signal }) => {
    markStarted();
    return new Promise<{ done: boolean }>((resolve) => {
      const timer = setTimeout(() => resolve({ done: true }), 5_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        onAbort(signal.reason);
        resolve({ done: false });
      });
    });
  });
}

/** How each `/chunks` response closed: 'finished', or 'cut' (destroyed before its end). */
const chunksClosed: string[] = [];

/** `POST /relay`: invokes what the JSON body describes, answers `{ status, headers, text }` or the error. */
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
          const described = input.json as InvokeRequest & { readonly parented?: boolean };
          let result: object;
          try {
            const answer: InvokeAnswer = await wiring.invoke({
              ...described,
              ...(described.parented ? { parent: ex } : {}),
            });
            result = {
              status: answer.status,
              headers: answer.headers,
              text: new TextDecoder().decode(answer.body),
            };
          } catch (error) {
            result = { error: (error as Error).name, message: (error as Error).message };
          }
          ex.send(200, ['content-type', 'application/json'], JSON.stringify(result));
        },
      });
      // A streamed answer: three chunks, then the end; `chunksClosed` records how its response closed.
      wiring.addRoute({
        method: 'GET',
        path: '/chunks',
        owner: 'relay',
        operation: 'chunks',
        handle: (ex) => {
          ex.res.on('close', () => chunksClosed.push(ex.res.writableFinished ? 'finished' : 'cut'));
          ex.sendHead(200, ['content-type', 'text/plain', 'set-cookie', 'a=1', 'set-cookie', 'b=2']);
          ex.res.write('one ');
          setTimeout(() => {
            ex.res.write('two ');
            ex.res.end('three');
          }, 5);
        },
      });
    },
  });
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(relay());
    this.includeEndpoint(new Hello(), { fakeAuth: headerUserAuth });
    this.includeEndpoint(new Wait());
  }
}

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  resetWait();
  chunksClosed.length = 0;
  await Promise.all(opened.splice(0).map((close) => close()));
});

type Call = (described: object) => Promise<Record<string, unknown>>;

async function started(transport: 'node' | 'fetch', logger?: Logger): Promise<{ call: Call; port?: number }> {
  const app = new App({ ...(logger ? { logger } : {}), requestLog: logger !== undefined });
  const init = (described: object): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(described),
  });
  if (transport === 'node') {
    const server = await serve(app, { port: 0, quiet: true, signals: false });
    opened.push(() => server.close());
    return {
      call: async (d) =>
        (await (await fetch(`${server.url}/relay`, init(d))).json()) as Record<string, unknown>,
      port: server.port,
    };
  }
  opened.push(() => app.close());
  return {
    call: async (d) =>
      (await (await app.fetch(new Request('http://app.test/relay', init(d)))).json()) as Record<
        string,
        unknown
      >,
  };
}

describe('wiring.invoke', () => {
  for (const transport of ['node', 'fetch'] as const) {
    it(`runs the inner request through the route's plan (${transport})`, async () => {
      const logged: { message: string; fields: Record<string, unknown> | undefined }[] = [];
      const logger = {
        info: (message: string, fields?: Record<string, unknown>) => void logged.push({ message, fields }),
        warn() {},
        error() {},
      };
      const { call } = await started(transport, logger);
      const hello = (headers: Record<string, string>, body: string, query?: string) => ({
        method: 'POST',
        path: '/hello',
        query,
        headers: { 'content-type': 'application/json', 'x-request-id': 'inner-1', ...headers },
        body,
      });
      expect(await call(hello({ 'x-user': 'ada' }, '{"name":"Ada"}', 'lang=fr'))).toEqual({
        status: 200,
        headers: {
          'content-type': 'application/json',
          'content-length': '41',
          'x-request-id': 'inner-1',
        },
        text: '{"text":"bonjour Ada from ada (inner-1)"}',
      });
      // The mount's authenticator ran on the inner request: no x-user, its 401 Problem.
      const anonymous = await call(hello({}, '{"name":"Ada"}'));
      expect(anonymous.status).toBe(401);
      expect(JSON.parse(anonymous.text as string)).toMatchObject({
        status: 401,
        type: 'authentication-required',
      });
      expect((anonymous.headers as Record<string, string>)['content-type']).toBe('application/problem+json');
      // Validation ran: the body's 422 Problem, the query's 400, not the handler.
      const invalid = await call(hello({ 'x-user': 'ada' }, '{"name":""}'));
      expect(invalid.status).toBe(422);
      expect(JSON.parse(invalid.text as string)).toMatchObject({ status: 422, type: 'validation-failed' });
      const badQuery = await call(hello({ 'x-user': 'ada' }, '{"name":"Ada"}', 'lang=de'));
      expect(badQuery.status).toBe(400);
      // A path no route answers: the app's own 404.
      const missing = await call({ method: 'GET', path: '/nowhere' });
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.text as string)).toMatchObject({ status: 404, title: 'Not found' });
      // The request log has a line for each inner request, with the request id passed.
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
          [400, 'inner-1'],
        ]);
    });

    it(`collects a streamed answer, set-cookie kept as a list (${transport})`, async () => {
      const { call } = await started(transport);
      expect(await call({ method: 'GET', path: '/chunks' })).toEqual({
        status: 200,
        // No x-request-id was passed: the app made one, as for any request without it.
        headers: {
          'content-type': 'text/plain',
          'set-cookie': ['a=1', 'b=2'],
          'x-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
        text: 'one two three',
      });
      // HEAD: the head only.
      const head = await call({ method: 'HEAD', path: '/chunks' });
      expect(head).toMatchObject({ status: 200, text: '' });
    });
  }

  it('refuses an answer over maxAnswerBytes with a RangeError (the stream stopped)', async () => {
    const { call } = await started('node');
    expect(await call({ method: 'GET', path: '/chunks', maxAnswerBytes: 6 })).toEqual({
      error: 'RangeError',
      message:
        'wiring.invoke: the answer to GET /chunks is over maxAnswerBytes (6 bytes); pass a larger maxAnswerBytes, or invoke a route that answers less',
    });
    // The route's response was destroyed at the bound (its teardown runs on 'close'), not finished.
    expect(chunksClosed).toEqual(['cut']);
    // Exactly at the bound: collected.
    expect(await call({ method: 'GET', path: '/chunks', maxAnswerBytes: 13 })).toMatchObject({
      status: 200,
      text: 'one two three',
    });
    expect(chunksClosed).toEqual(['cut', 'finished']);
  });

  it('rejects a malformed description with a TypeError, before any route runs', async () => {
    const { call } = await started('node');
    expect(await call({ method: 'GET', path: 'hello' })).toEqual({
      error: 'TypeError',
      message: `wiring.invoke: path must be in origin-form ('/notes/n1': a leading "/", no query, no spaces), got "hello"`,
    });
    expect(await call({ method: 'GET', path: '/hello?x=1' })).toMatchObject({ error: 'TypeError' });
    expect(await call({ method: 'GE T', path: '/hello' })).toEqual({
      error: 'TypeError',
      message: `wiring.invoke: method must be an HTTP token such as 'GET', got "GE T"`,
    });
  });

  it("the caller's client leaving reaches the invoked route (parent exchange)", async () => {
    const { port } = await started('node');
    const body = JSON.stringify({ method: 'GET', path: '/wait', parented: true });
    const socket = connect(port!, '127.0.0.1');
    opened.push(async () => void socket.destroy());
    socket.on('error', () => undefined);
    socket.write(
      `POST /relay HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    await waitStarted;
    socket.destroy();
    // Aborted as a client leaving aborts a route's signal (not the 5 s timer).
    const reason = await aborted;
    expect(reason).toBeInstanceOf(Error);
  });

  it("the caller's signal aborting reaches the invoked route", async () => {
    class SignalApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          defineExtension({
            name: 'signalled',
            setup(wiring) {
              wiring.addRoute({
                method: 'GET',
                path: '/signalled',
                owner: 'signalled',
                operation: 'signalled',
                handle: async (ex) => {
                  const controller = new AbortController();
                  const answer = wiring.invoke({ method: 'GET', path: '/wait', signal: controller.signal });
                  await waitStarted;
                  controller.abort();
                  const error = await answer.then(
                    () => 'resolved',
                    (e: Error) => e.message,
                  );
                  ex.send(200, ['content-type', 'text/plain'], error);
                },
              });
            },
          }),
        );
        this.includeEndpoint(new Wait());
      }
    }
    const app = new SignalApp();
    opened.push(() => app.close());
    const response = await app.fetch(new Request('http://app.test/signalled'));
    expect(await response.text()).toBe('GET /wait: the response was destroyed before it was complete');
    expect(await aborted).toBeInstanceOf(Error);
  });

  it('rejects with API_WIRING_APP_STATE before the app has started', async () => {
    let early: Promise<InvokeAnswer> | undefined;
    class EarlyApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          relay((wiring) => {
            early = wiring.invoke({ method: 'GET', path: '/hello' });
          }),
        );
      }
    }
    const app = new EarlyApp();
    opened.push(() => app.close());
    await app.start();
    const error = await early!.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WiringError);
    expect((error as WiringError).code).toBe('API_WIRING_APP_STATE');
    expect((error as WiringError).where).toBe('wiring.invoke');
  });
});
