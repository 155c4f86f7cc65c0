// The one route pipeline, proven with a test-only extension written against @api/core/extension:
// a custom route kind, an upgrade route and a stream-like writer each get the route's tail (a
// CORS-like contributor and middleware responseHeaders), observe sees the real status, the
// mount's auth runs before the handler, an extension binding source binds, and unknown paths
// are the normal 404.
import type { Socket } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  AuthenticationRequiredError,
  BaseApp,
  Endpoint,
  HTTPError,
  Struct,
  defineMiddleware,
  serve,
  type RunningServer,
} from '../src/index';
import {
  defineExtension,
  defineResponseKind,
  mountOption,
  type MountOptionValue,
  type ResponseSpec,
} from '../src/extension';
import { headerUserAuth, memoryLogger, rawExchange } from './fixtures';

declare module '../src/index' {
  interface ExtensionSources {
    traceTag: { declare: true; value: string };
  }
}

const fakeAuth = headerUserAuth;

/** A stream-like response kind: lines written one by one after `sink.start`. */
class Lines {
  constructor(readonly lines: readonly string[]) {}
}
const linesKind: ResponseSpec<Lines> = defineResponseKind<Lines>({
  kind: 'lines',
  cls: Lines,
  schema: undefined,
  headers: undefined,
  status: undefined,
  contentType: 'text/plain',
  compile: (ctx) => async (value, sink) => {
    const lines = (value as Lines).lines;
    if (lines.length === 0) throw new TeapotError();
    const head = sink.head(ctx.defaultStatus, 'text/plain; charset=utf-8', {});
    if (!sink.start(ctx.defaultStatus, head)) return;
    for (const line of lines) {
      sink.write(`${line}\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    sink.end();
  },
});

class TeapotError extends HTTPError.define({ type: 'teapot', title: 'I am a teapot', status: 418 }) {}

const User = Struct('User', { name: v.string() });
class LinesEndpoint extends Endpoint('/lines') {
  get = this.operation({ returns: linesKind }, () => new Lines(['a', 'b', 'c']));
  post = this.operation({ returns: linesKind }, () => new Lines([]));
}
class WhoEndpoint extends Endpoint('/who') {
  get = this.operation(
    { user: User, traceTag: true, returns: Struct('Who', { name: v.string(), id: v.string() }) },
    ({ user, traceTag }) => ({
      name: user.name,
      id: traceTag,
    }),
  );
}

const observed: string[] = [];
let beforeCloseCalls = 0;
const upgraded = new Set<Socket>();

const pipelineExtension = defineExtension({
  name: 'pipeline-test',
  setup(wiring) {
    // A CORS-like contributor: a constant header on every route (and on unrouted answers).
    wiring.addContributor(() => ({ order: 10, headers: [['x-cors-like', 'on']] }));
    wiring.addSource({
      name: 'traceTag',
      compile: ({ declared }) => {
        if (declared !== true) wiring.fail('traceTag', 'declare traceTag: true', 'write traceTag: true');
        return (ex) => String(ex.req.headers['x-trace-tag'] ?? 'none');
      },
    });
    wiring.addRoute({
      method: 'GET',
      path: '/custom/{item_id}',
      owner: 'PipelineTest',
      operation: 'item',
      spec: { path: Struct('ItemPath', { item_id: v.pipe(v.string(), v.minLength(2)) }), user: User },
      mountOptions: { auth: fakeAuth },
      handle: (ex, input) => {
        const { path, user } = input as { path: { item_id: string }; user: { name: string } };
        ex.send(200, ['content-type', 'text/plain'], `${path.item_id} for ${user.name}`);
      },
    });
    wiring.addUpgradeRoute({
      path: '/echo/{room}',
      owner: 'EchoSocket',
      spec: { path: Struct('RoomPath', { room: v.string() }), user: User },
      mountOptions: { auth: fakeAuth },
      handle: (ex, input) => {
        if (ex.upgrade === undefined) throw new UpgradeRequiredError();
        const { path } = input as { path: { room: string } };
        const { socket } = ex.takeOver();
        upgraded.add(socket as Socket);
        socket.write(
          `HTTP/1.1 101 Switching Protocols\r\nupgrade: echo\r\nconnection: Upgrade\r\n\r\nroom ${path.room}\n`,
        );
        socket.on('data', (chunk: Buffer) => socket.write(chunk));
      },
    });
    wiring.onBeforeClose(() => {
      beforeCloseCalls++;
      for (const socket of upgraded) socket.end('bye\n');
    });
  },
});

class UpgradeRequiredError extends HTTPError.define({
  type: 'upgrade-required',
  title: 'Upgrade required',
  status: 426,
}) {}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeMiddleware(
      defineMiddleware({
        responseHeaders: { 'x-mw': 'yes' },
        observe: (request, status) => void observed.push(`${request.method} ${request.path} ${status}`),
      }),
    );
    this.include(pipelineExtension);
    this.includeEndpoint(new LinesEndpoint());
    this.includeEndpoint(new WhoEndpoint(), { auth: fakeAuth } as object);
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  observed.length = 0;
  upgraded.clear();
});
async function start(): Promise<TestClient> {
  const client = await TestClient.start(new App({ logger: memoryLogger() }));
  clients.push(client);
  return client;
}
async function observedFor(prefix: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const hit = observed.find((o) => o.startsWith(prefix));
    if (hit) return hit;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return `nothing observed for ${prefix}`;
}

const raw = rawExchange;

describe('one route pipeline', () => {
  it('a stream-like writer gets the tail, and observe sees its status', async () => {
    const client = await start();
    const res = await client.get('/lines');
    expect(res.status).toBe(200);
    expect(res.text).toBe('a\nb\nc\n');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-cors-like')).toBe('on');
    expect(res.headers.get('x-mw')).toBe('yes');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(await observedFor('GET /lines')).toBe('GET /lines 200');
  });

  it('a writer failing before start goes through the funnel (status, Problem body, tail)', async () => {
    const client = await start();
    const res = await client.post('/lines');
    expect(res.status).toBe(418);
    expect(res.json()).toEqual({ type: 'teapot', title: 'I am a teapot', status: 418 });
    expect(res.headers.get('x-cors-like')).toBe('on');
    expect(await observedFor('POST /lines')).toBe('POST /lines 418');
  });

  it('HEAD on a stream-like writer sends the head only', async () => {
    const client = await start();
    const res = await client.head('/lines');
    expect(res.status).toBe(200);
    expect(res.body.byteLength).toBe(0);
    expect(res.headers.get('x-mw')).toBe('yes');
  });

  it('a custom route binds its spec, runs the mount auth first, and carries the tail', async () => {
    const client = await start();
    const ok = await client.get('/custom/ab', { headers: { 'x-user': 'ada' } });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('ab for ada');
    expect(ok.headers.get('x-cors-like')).toBe('on');
    expect(ok.headers.get('x-mw')).toBe('yes');
    const denied = await client.get('/custom/ab');
    expect(denied.status).toBe(401);
    expect(denied.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
    expect(denied.headers.get('x-cors-like')).toBe('on');
    expect(await observedFor('GET /custom/ab 401')).toBe('GET /custom/ab 401');
    // A path value that fails its schema is the normal bare 404; so is an unknown path under it.
    expect((await client.get('/custom/a', { headers: { 'x-user': 'ada' } })).status).toBe(404);
    const unknown = await client.get('/custom/ab/more');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({ type: 'not-found', title: 'Not found', status: 404 });
    expect(unknown.headers.get('x-cors-like')).toBe('on');
    expect(unknown.headers.get('x-mw')).toBe('yes');
    expect(await observedFor('GET /custom/ab/more')).toBe('GET /custom/ab/more 404');
  });

  it('an extension binding source binds, after the mount-provided user', async () => {
    const client = await start();
    const res = await client.get('/who', { headers: { 'x-user': 'bo', 'x-trace-tag': 'r-1' } });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ name: 'bo', id: 'r-1' });
    expect((await client.get('/who')).status).toBe(401);
  });

  it('upgrade routes: accepted through takeOver, denied by the funnel, in the catalogue', async () => {
    const app = new App({ logger: memoryLogger() });
    const client = await TestClient.start(app);
    clients.push(client);
    const port = Number(new URL(client.url).port);
    const accepted = await raw(
      port,
      'GET /echo/lobby HTTP/1.1\r\nhost: x\r\nconnection: Upgrade\r\nupgrade: echo\r\nx-user: ada\r\n\r\n',
      /room lobby\n/,
    );
    expect(accepted.text).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    accepted.socket.write('ping');
    await new Promise<void>((resolve) =>
      accepted.socket.once('data', (d: Buffer) => (expect(d.toString()).toBe('ping'), resolve())),
    );
    expect(await observedFor('GET /echo/lobby')).toBe('GET /echo/lobby 101');
    accepted.socket.destroy();

    const denied = await raw(
      port,
      'GET /echo/lobby HTTP/1.1\r\nhost: x\r\nconnection: Upgrade\r\nupgrade: echo\r\n\r\n',
      /status":401\}$/,
    );
    expect(denied.text).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(denied.text.toLowerCase()).toContain('content-type: application/problem+json');
    expect(denied.text.toLowerCase()).toContain('x-cors-like: on');
    expect(denied.text.toLowerCase()).toContain('connection: close');
    expect(denied.text).toMatch(
      /\r\n\r\n\{"type":"authentication-required","title":"Authentication required","status":401\}$/,
    );

    const missing = await raw(
      port,
      'GET /nowhere HTTP/1.1\r\nhost: x\r\nconnection: Upgrade\r\nupgrade: echo\r\n\r\n',
      /"status":404\}$/,
    );
    expect(missing.text).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(missing.text.toLowerCase()).toContain('x-mw: yes');

    // A plain GET reaches the route without `upgrade`: the extension answers 426 through the funnel.
    const plain = await client.get('/echo/lobby', { headers: { 'x-user': 'ada' } });
    expect(plain.status).toBe(426);
    expect(plain.json()).toEqual({ type: 'upgrade-required', title: 'Upgrade required', status: 426 });

    const route = app.catalogue.routes.find((r) => r.path === '/echo/{room}');
    expect(route).toMatchObject({ kind: 'upgrade', method: 'GET', owner: 'EchoSocket', operation: 'handle' });
    expect(app.catalogue.routes.find((r) => r.path === '/custom/{item_id}')?.kind).toBe('custom');
  });

  it('shutdown: the in-flight request completes, before-close tells the upgraded socket, done within the cap', async () => {
    let release!: () => void;
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    class Slow extends Endpoint('/slow') {
      get = this.operation({ returns: Struct('Done', { done: v.boolean() }) }, async () => {
        started();
        await new Promise<void>((resolve) => (release = resolve));
        return { done: true };
      });
    }
    class ShutdownApp extends App {
      protected override async wire(): Promise<void> {
        await super.wire();
        this.includeEndpoint(new Slow());
      }
    }
    const log = memoryLogger();
    const running: RunningServer = await serve(
      new ShutdownApp({ logger: log, limits: { shutdownTimeoutMs: 2_000 } }),
      {
        port: 0,
        signals: false,
        quiet: true,
      },
    );
    const socketClosed = raw(
      running.port,
      'GET /echo/r HTTP/1.1\r\nhost: x\r\nconnection: Upgrade\r\nupgrade: echo\r\nx-user: ada\r\n\r\n',
      /bye\n/,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const slow = fetch(`${running.url}/slow`).then(async (r) => ({
      status: r.status,
      body: await r.text(),
      connection: r.headers.get('connection'),
    }));
    await handlerStarted;
    const before = beforeCloseCalls;
    const t0 = performance.now();
    const closing = running.close();
    setTimeout(() => release(), 100);
    const [{ text }, response] = await Promise.all([socketClosed, slow]);
    await closing;
    const elapsed = performance.now() - t0;
    expect(beforeCloseCalls).toBe(before + 1);
    expect(text).toMatch(/room r\nbye\n$/);
    expect(response).toEqual({ status: 200, body: '{"done":true}', connection: 'close' });
    expect(elapsed).toBeLessThan(2_000);
    expect(log.lines.filter((l) => l.includes('shutdown cap'))).toEqual([]);
  });

  it('shutdown: the exchange shutdownSignal aborts before the before-close hooks, so a held stream ends itself', async () => {
    const order: string[] = [];
    class Held {}
    const heldKind: ResponseSpec<Held> = defineResponseKind<Held>({
      kind: 'held',
      cls: Held,
      schema: undefined,
      headers: undefined,
      status: undefined,
      contentType: 'text/plain',
      compile: (ctx) => (_value, sink) => {
        if (!sink.start(ctx.defaultStatus, sink.head(ctx.defaultStatus, 'text/plain', {}))) return;
        sink.write('open\n');
        const signal = sink.exchange.shutdownSignal;
        expect(signal.aborted).toBe(false);
        signal.addEventListener(
          'abort',
          () => {
            order.push('signal');
            sink.end('closed by shutdown\n');
          },
          { once: true },
        );
      },
    });
    class HeldEndpoint extends Endpoint('/held') {
      get = this.operation({ returns: heldKind }, () => new Held());
    }
    class HeldApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          defineExtension({
            name: 'order',
            setup: (w) => w.onBeforeClose(() => void order.push('before-close')),
          }),
        );
        this.includeEndpoint(new HeldEndpoint());
      }
    }
    const log = memoryLogger();
    const running = await serve(new HeldApp({ logger: log, limits: { shutdownTimeoutMs: 5_000 } }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    const { socket, text: head } = await raw(
      running.port,
      'GET /held HTTP/1.1\r\nhost: x\r\n\r\n',
      /open\n\r\n$/,
    );
    let rest = '';
    socket.on('data', (chunk: Buffer) => (rest += chunk.toString('latin1')));
    const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
    const t0 = performance.now();
    await running.close();
    await ended;
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(order).toEqual(['signal', 'before-close']);
    expect(head).toMatch(/^HTTP\/1.1 200 OK\r\n/);
    expect(rest).toBe('13\r\nclosed by shutdown\n\r\n0\r\n\r\n');
    expect(log.lines.filter((l) => l.includes('shutdown cap'))).toEqual([]);
  });

  it('shutdown: a before-close hook that never settles is left behind at the cap, with one log line', async () => {
    let drained = false;
    class Stuck extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          defineExtension({
            name: 'stuck',
            setup: (w) => {
              w.onBeforeClose(() => new Promise<void>(() => undefined));
              w.onDrain(() => void (drained = true));
            },
          }),
        );
      }
    }
    const log = memoryLogger();
    const running = await serve(new Stuck({ logger: log, limits: { shutdownTimeoutMs: 200 } }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    const t0 = performance.now();
    await running.close();
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(drained).toBe(true);
    expect(log.lines.filter((l) => l.startsWith('warn'))).toEqual([
      'warn Stuck: 1 before-close hook(s) still running after the shutdown cap (200 ms); shutdown goes on without them',
    ]);
  });

  it('shutdown: an upgraded socket nobody closes is destroyed at the cap, with one log line', async () => {
    class Stubborn extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          defineExtension({
            name: 'stubborn',
            setup: (wiring) =>
              wiring.addUpgradeRoute({
                path: '/hold',
                owner: 'Hold',
                handle: (ex) => {
                  ex.takeOver().socket.write(
                    'HTTP/1.1 101 Switching Protocols\r\nupgrade: x\r\nconnection: Upgrade\r\n\r\n',
                  );
                },
              }),
          }),
        );
      }
    }
    const log = memoryLogger();
    const running = await serve(new Stubborn({ logger: log, limits: { shutdownTimeoutMs: 300 } }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    const held = await raw(
      running.port,
      'GET /hold HTTP/1.1\r\nhost: x\r\nconnection: Upgrade\r\nupgrade: x\r\n\r\n',
      /\r\n\r\n$/,
    );
    const ended = new Promise<void>((resolve) => held.socket.once('close', () => resolve()));
    const t0 = performance.now();
    await running.close();
    await ended;
    expect(performance.now() - t0).toBeLessThan(1_500);
    expect(log.lines).toContain(
      'warn Stubborn: shutdown cap (300 ms) reached with 0 request(s) and 1 upgraded socket(s) open; closing them',
    );
  });
});
