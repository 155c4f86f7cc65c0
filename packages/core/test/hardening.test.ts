// Issue 11 (core): behaviour fixed on the wire, each proven over a real socket.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  BaseApp,
  Endpoint,
  JSONResponse,
  Location,
  NoContent,
  Resource,
  Struct,
  defineMiddleware,
  serve,
  type RunningServer,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { defineExtension } from '../src/extension';
import { memoryLogger, rawExchange } from './fixtures';

const Widget = Struct('Widget', {
  id: v.string(),
  name: v.string(),
  priceCents: v.pipe(v.number(), v.integer()),
});
const Counter = Struct('Counter', { n: v.pipe(v.number(), v.integer()) });
const Page = Struct('Page', { offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0) });

let handlerValue: unknown = { id: '1', name: 'a', priceCents: 1 };
class Shapes extends Endpoint('/shape') {
  get = this.operation({ returns: Widget }, () => handlerValue as v.InferOutput<typeof Widget>);
  post = this.operation(
    { returns: [JSONResponse.of(Widget), NoContent.of()] },
    () => handlerValue as NoContent,
  );
}
class Counters extends Endpoint('/counter') {
  post = this.operation({ json: Counter, returns: Counter }, ({ json }) => json);
  get = this.operation(
    { params: Page, returns: Struct('Offset', { offset: v.number() }) },
    ({ params }) => params,
  );
}
class Empty extends Endpoint('/empty') {
  get = this.operation(
    { returns: NoContent.of() },
    () => new NoContent({ rawHeaders: { 'content-type': 'text/plain', 'x-kept': 'yes' } }),
  );
}
class Redirects extends Endpoint('/redirect') {
  get = this.operation(
    { returns: NoContent.of() },
    () => new NoContent({ statusCode: 201, location: Location.fromPath('//evil.example/x') }),
  );
}
class BadHeader extends Endpoint('/bad-header') {
  get = this.operation(
    { returns: JSONResponse.of(Widget) },
    () =>
      new JSONResponse({
        json: { id: '1', name: 'a', priceCents: 1 },
        rawHeaders: { 'x-user': 'a\r\nset-cookie: evil=1' },
      }),
  );
}
class Private extends Resource('/private') {
  create = this.operation({ json: Counter, returns: Counter }, ({ json }) => json);
}

const observed: string[] = [];
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeMiddleware(
      defineMiddleware({
        observe: (request, status) => void observed.push(`${request.method} ${request.path} ${status}`),
      }),
    );
    this.includeMiddleware(
      defineMiddleware({
        interceptMethods: ['GET'],
        intercept: (request) =>
          request.path === '/teapot' ? new JSONResponse({ json: { tea: true }, statusCode: 418 }) : undefined,
      }),
    );
    this.include(
      defineExtension({
        name: 'header-contributors',
        setup: (wiring) => {
          wiring.addContributor(() => ({
            order: 10,
            headersOnOptions: false,
            headers: [['x-cors-like', 'on']],
          }));
          wiring.addContributor(() => ({ order: 20, headers: [['x-everywhere', 'on']] }));
        },
      }),
    );
    this.includeEndpoint(new Shapes());
    this.includeEndpoint(new Counters());
    this.includeEndpoint(new Empty());
    this.includeEndpoint(new Redirects());
    this.includeEndpoint(new BadHeader());
    this.includeResource(new Private(), {
      middleware: [
        defineMiddleware({
          interceptMethods: ['POST'],
          intercept: (request) =>
            request.path === '/private'
              ? new JSONResponse({ json: { denied: true }, statusCode: 401 })
              : undefined,
        }),
      ],
    });
  }
}

const clients: TestClient[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  observed.length = 0;
  handlerValue = { id: '1', name: 'a', priceCents: 1 };
});
async function start(log = memoryLogger()): Promise<TestClient> {
  const client = await TestClient.start(new App({ logger: log }));
  clients.push(client);
  return client;
}
async function listening(log = memoryLogger()): Promise<RunningServer> {
  const running = await serve(new App({ logger: log }), { port: 0, signals: false, quiet: true });
  servers.push(running);
  return running;
}
async function waitFor(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('responses', () => {
  it('a 204 carries no body framing, even given as raw headers', async () => {
    const running = await listening();
    const { text } = await rawExchange(running.port, 'GET /empty HTTP/1.1\r\nhost: x\r\n\r\n', /\r\n\r\n/);
    expect(text).toMatch(/^HTTP\/1\.1 204 No Content\r\n/);
    expect(text.toLowerCase()).not.toContain('content-type');
    expect(text.toLowerCase()).not.toContain('content-length');
    expect(text.toLowerCase()).toContain('x-kept: yes');
  });

  it('a handler value failing its declared schema is a 500, logged with method, path and JSON path', async () => {
    const log = memoryLogger();
    const client = await start(log);
    handlerValue = { id: '1', name: 'a', priceCents: 'free' };
    const res = await client.get('/shape');
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({
      type: 'internal-server-error',
      title: 'Internal server error',
      status: 500,
    });
    expect(log.lines).toContain(
      "error GET /shape: the handler's value is not its declared response: the value at `$.priceCents` does not match the declared response schema (expected a finite number, got string)",
    );
    handlerValue = {};
    expect((await client.get('/shape')).status).toBe(500);
    expect(log.lines.at(-1)).toContain('`$.id`');
  });

  it('a handler value outside its declared union is a 500, never 200 {}', async () => {
    const log = memoryLogger();
    const client = await start(log);
    handlerValue = { something: 'else' };
    const res = await client.post('/shape');
    expect(res.status).toBe(500);
    expect(log.lines.at(-1)).toMatch(/^error POST \/shape: .*one of the declared responses of Shapes\.post/);
  });

  it('a relative Location never becomes protocol-relative', async () => {
    const client = await start();
    const res = await client.get('/redirect');
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/%2Fevil.example/x');
  });

  it('a header value with CR/LF is a 500 with a correct status line, a Problem body and one log line', async () => {
    const log = memoryLogger();
    const running = await listening(log);
    const { text } = await rawExchange(
      running.port,
      'GET /bad-header HTTP/1.1\r\nhost: x\r\n\r\n',
      /"status":500\}$/,
    );
    expect(text).toMatch(/^HTTP\/1\.1 500 Internal Server Error\r\n/);
    expect(text).not.toContain('evil=1');
    expect(text).toMatch(
      /\r\n\r\n\{"type":"internal-server-error","title":"Internal server error","status":500\}$/,
    );
    expect(log.lines.filter((l) => l.startsWith('error'))).toHaveLength(1);
  });
});

describe('OPTIONS and observe', () => {
  it('a plain OPTIONS carries allow, not the headers a contribution keeps for preflights', async () => {
    const client = await start();
    const res = await client.options('/shape');
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect(res.headers.get('x-cors-like')).toBeUndefined();
    expect(res.headers.get('x-everywhere')).toBe('on');
    expect((await client.get('/shape')).headers.get('x-cors-like')).toBe('on');
  });

  it('app-wide observe sees 404, 405 and intercepted answers', async () => {
    const client = await start();
    expect((await client.get('/nowhere')).status).toBe(404);
    expect((await client.delete('/shape')).status).toBe(405);
    expect((await client.get('/teapot')).status).toBe(418);
    expect((await client.post('/private', { json: { n: 1 } })).status).toBe(401);
    await waitFor(() => observed.length >= 4);
    expect(observed).toEqual([
      'GET /nowhere 404',
      'DELETE /shape 405',
      'GET /teapot 418',
      'POST /private 401',
    ]);
  });
});

describe('request values', () => {
  it('integers are safe integers by default: 2^53 + 1 is a 422, never stored', async () => {
    const client = await start();
    const res = await client.post('/counter', {
      content: '{"n":9007199254740993}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      type: 'validation-failed',
      detail: 'Invalid safe integer: expected an integer within ±(2^53 − 1) at `$.n`',
    });
    expect((await client.post('/counter', { json: { n: 9007199254740991 } })).json()).toEqual({
      n: 9007199254740991,
    });
  });

  it('a query integer past 2^53 (offset=1e308) is refused like any bad query value (400)', async () => {
    const client = await start();
    const res = await client.get('/counter?offset=1e308');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      detail: 'Invalid safe integer: expected an integer within ±(2^53 − 1) at `query parameter offset`',
    });
    expect((await client.get('/counter?offset=5')).json()).toEqual({ offset: 5 });
  });

  it('an escaped "__\\u0070roto__" key is refused like the plain one', async () => {
    const client = await start();
    const res = await client.post('/counter', {
      content: '{"n":1,"__\\u0070roto__":{"x":1}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      detail: 'JSON keys "__proto__" and "constructor.prototype" are not accepted',
    });
  });

  it('a charset other than utf-8 / us-ascii, or any content-encoding, is 415', async () => {
    const client = await start();
    const post = (headers: Record<string, string>): Promise<number> =>
      client.post('/counter', { content: '{"n":1}', headers }).then((r) => r.status);
    expect(await post({ 'content-type': 'application/json; charset=latin1' })).toBe(415);
    expect(await post({ 'content-type': 'application/json; charset="UTF-8"' })).toBe(200);
    expect(await post({ 'content-type': 'application/json; charset=us-ascii' })).toBe(200);
    expect(await post({ 'content-type': 'application/json', 'content-encoding': 'gzip' })).toBe(415);
  });
});

describe('the wire', () => {
  it('a refusal decided before the body is read says connection: close and stops reading', async () => {
    const running = await listening();
    const head =
      'POST /counter HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n';
    const started = performance.now();
    const { text, socket } = await rawExchange(running.port, head + '5\r\nhello\r\n', /"status":415\}$/);
    expect(text).toMatch(/^HTTP\/1\.1 415 Unsupported Media Type\r\n/);
    expect(text.toLowerCase()).toContain('connection: close');
    // The server ends the connection instead of draining an endless chunked body (after a bounded
    // linger: this client ends its side on the server's FIN, which closes it at once).
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const pump = setInterval(() => socket.writable && socket.write('400\r\n' + 'x'.repeat(1024) + '\r\n'), 1);
    await closed;
    clearInterval(pump);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a 9 KiB request target is 414; a missing or doubled Host is 400; identity, chunked is 400', async () => {
    const running = await listening();
    const long = await rawExchange(
      running.port,
      `GET /${'a'.repeat(9 * 1024)} HTTP/1.1\r\nhost: x\r\n\r\n`,
      /"status":414\}$/,
    );
    expect(long.text).toMatch(/^HTTP\/1\.1 414 URI Too Long\r\n/);
    expect(long.text).not.toContain('aaaa');
    const noHost = await rawExchange(running.port, 'GET /shape HTTP/1.1\r\n\r\n', /"status":400,.*\}\}$/);
    expect(noHost.text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(noHost.text).toContain('"detail":"The request has no Host header (required by HTTP/1.1)"');
    const twoHosts = await rawExchange(
      running.port,
      'GET /shape HTTP/1.1\r\nhost: a\r\nhost: b\r\n\r\n',
      /"status":400,.*\}\}$/,
    );
    expect(twoHosts.text).toContain('"detail":"The request has more than one Host header"');
    const te = await rawExchange(
      running.port,
      'POST /counter HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: identity, chunked\r\n\r\n7\r\n{"n":1}\r\n0\r\n\r\n',
      /"status":400,.*\}\}$|\r\n\r\n$/,
    );
    expect(te.text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(te.text).not.toContain('"n":1');
  });

  it('at the shutdown cap, a slow upload is answered 503 and closed', async () => {
    const log = memoryLogger();
    const running = await serve(new App({ logger: log, limits: { shutdownTimeoutMs: 300 } }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    const slow = rawExchange(
      running.port,
      'POST /counter HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"n":',
      /"status":503\}$/,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await running.close();
    const { text } = await slow;
    expect(text).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe('errors with headers', () => {
  it('an HTTP error carries the headers set with withHeaders, through handlers too', async () => {
    const { TooManyRequestsError } = await import('../src/index');
    class Limited extends Endpoint('/limited') {
      get = this.operation({ returns: Struct('Never', { x: v.string() }) }, () => {
        throw new TooManyRequestsError().withHeaders({ 'Retry-After': '30' });
      });
    }
    class LimitedApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Limited());
      }
    }
    const client = await TestClient.start(new LimitedApp({ logger: memoryLogger() }));
    clients.push(client);
    const res = await client.get('/limited');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const split = () => new TooManyRequestsError().withHeaders({ 'retry-after': '1\r\nx: y' });
    expect(
      expectWiringError(split, 'API_WIRING_INVALID_HEADER', 'TooManyRequestsError.withHeaders').problem,
    ).toBe('header "retry-after" cannot be sent');
  });
});
