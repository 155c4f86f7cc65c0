// mountFetch and prefix routes on the wire, on both transports (node:http over a real socket, and
// app.fetch): precedence, body streaming, abort, limits, CORS and middleware, HEAD and OPTIONS.
import { gunzipSync } from 'node:zlib';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, mountFetch, Resource, serve, Struct, type FetchHandler } from '../src/index';
import { defineExtension, type MountOptionValue } from '../src/extension';
import { gzipEverything } from './guide/gzip-plugin';
import { headerUserAuth, memoryLogger } from './fixtures';

// The test mount option of fixtures.ts, typed as extension.test.ts types it.
declare module '../src/index' {
  interface MountOptions<TRoute extends object> {
    readonly fakeAuth?: MountOptionValue & { readonly forRoute?: TRoute };
  }
}

const Ok = Struct('Ok', { route: v.string() });
class Me extends Endpoint('/api/auth/me') {
  get = this.operation({ returns: Ok }, () => ({ route: 'me' }));
}
const ItemPath = Struct('ItemPath', { item_id: v.string() });
class Items extends Resource('/api/auth/items') {
  readOne = this.operation({ path: ItemPath, returns: Ok }, ({ path }) => ({
    route: `item ${path.item_id}`,
  }));
}

/** A CORS-like contributor: a constant header on every answer, and a preflight block of its own. */
const preflights = defineExtension({
  name: 'preflights',
  setup: (wiring) =>
    wiring.addContributor((route) => ({
      headers: [['access-control-allow-origin', '*']],
      headersOnOptions: false,
      options: (ex) =>
        route.method === '*' && ex.req.headers['access-control-request-method'] === 'POST'
          ? [['access-control-allow-methods', 'POST']]
          : undefined,
    })),
});

/** A handler that says what it saw. */
const echo: FetchHandler = async (request) => {
  const url = new URL(request.url);
  const body = request.body === null ? '' : await request.text();
  return Response.json(
    { method: request.method, path: url.pathname, query: url.search, body, host: url.host },
    { headers: { 'x-handler': 'echo' } },
  );
};

type Open = (path: string, init?: RequestInit & { duplex?: 'half' }) => Promise<Response>;
const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((close) => close()));
});

/** Serves `app` on one transport; `send(path, init)` answers like `fetch`. */
async function open(app: BaseApp<unknown>, transport: 'node' | 'fetch'): Promise<Open> {
  if (transport === 'node') {
    const server = await serve(app, { port: 0, quiet: true, signals: false });
    opened.push(() => server.close());
    return (path, init) => fetch(server.url + path, init);
  }
  opened.push(() => app.close());
  return async (path, init) => app.fetch(new Request(`http://mount.test${path}`, init));
}

function appWith(wire: (app: { include: BaseApp['include'] } & BaseApp) => void, options = {}): BaseApp {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      wire(this as unknown as { include: BaseApp['include'] } & BaseApp);
    }
  }
  return new App({ logger: memoryLogger(), ...options });
}

/** A promise and its resolver. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Fails after `ms` (a hang becomes a failure that says what was awaited). */
function within<T>(what: string, promise: Promise<T>, ms = 5000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms).unref()),
  ]);
}

describe.each(['node', 'fetch'] as const)('mountFetch on %s', (transport) => {
  it('answers every path under the prefix, after exact and templated routes', async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(mountFetch('/api/auth', echo));
        this.includeEndpoint(new Me());
        this.includeResource(new Items());
      }
    }
    const send = await open(new App({ logger: memoryLogger() }), transport);
    expect(await (await send('/api/auth/me')).json()).toEqual({ route: 'me' });
    expect(await (await send('/api/auth/items/7')).json()).toEqual({ route: 'item 7' });
    const owned = await send('/api/auth/sign-in/email?x=1');
    expect(owned.status).toBe(200);
    expect(owned.headers.get('x-handler')).toBe('echo');
    expect(await owned.json()).toMatchObject({
      method: 'GET',
      path: '/api/auth/sign-in/email',
      query: '?x=1',
    });
    expect(await (await send('/api/auth')).json()).toMatchObject({ path: '/api/auth' });
    expect(await (await send('/api/auth/')).json()).toMatchObject({ path: '/api/auth/' });
    const beside = await send('/api/authx');
    expect(beside.status).toBe(404);
    expect(beside.headers.get('content-type')).toBe('application/problem+json');
    // The route's own path stays the route's: another method there is its 405, not the handler's.
    const other = await send('/api/auth/me', { method: 'POST' });
    expect(other.status).toBe(405);
    expect(other.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('streams the request body to the handler as it arrives (a chunk before the client sent the next)', async () => {
    const firstSeen = deferred();
    const handler: FetchHandler = async (request) => {
      const sizes: number[] = [];
      for await (const chunk of request.body!) {
        sizes.push(chunk.byteLength);
        firstSeen.resolve();
      }
      return Response.json({ total: sizes.reduce((a, b) => a + b, 0) });
    };
    const send = await open(
      appWith((app) => app.include(mountFetch('/upload', handler))),
      transport,
    );
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 1) await within('the handler reading the first chunk', firstSeen.promise);
        if (sent === 3) {
          controller.close();
          return;
        }
        sent++;
        controller.enqueue(new Uint8Array(1000).fill(97));
      },
    });
    const res = await send('/upload/file', { method: 'POST', body, duplex: 'half' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ total: 3000 });
  });

  it('aborts request.signal and cancels the answer when the client leaves mid-stream', async () => {
    const aborted = deferred<string>();
    const cancelled = deferred();
    const handler: FetchHandler = (request) => {
      request.signal.addEventListener('abort', () => aborted.resolve('aborted'));
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((r) => setTimeout(r, 20));
          controller.enqueue(new TextEncoder().encode(`tick ${n++}\n`));
        },
        cancel: () => cancelled.resolve(),
      });
      return new Response(body, { headers: { 'content-type': 'text/plain' } });
    };
    const send = await open(
      appWith((app) => app.include(mountFetch('/ticks', handler))),
      transport,
    );
    const client = new AbortController();
    const res = await send('/ticks', { signal: client.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^tick 0/);
    if (transport === 'fetch') await reader.cancel();
    else client.abort();
    expect(await within('request.signal abort', aborted.promise)).toBe('aborted');
    await within("the handler's body cancel", cancelled.promise);
  });

  it('refuses a declared body over the limit with 413 before the handler runs, and a streamed one while read', async () => {
    let called = 0;
    const handler: FetchHandler = async (request) => {
      called++;
      await request.arrayBuffer();
      return new Response('read it all');
    };
    const send = await open(
      appWith((app) => app.include(mountFetch('/small', handler, { limits: { maxBodyBytes: 1024 } }))),
      transport,
    );
    // A Request built in-process declares no length unless told; a client on the wire does.
    const length = transport === 'fetch' ? { headers: { 'content-length': '2000' } } : {};
    const declared = await send('/small', { method: 'POST', body: 'x'.repeat(2000), ...length });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ type: 'payload-too-large', status: 413 });
    expect(called).toBe(0);
    const chunks = [new Uint8Array(800), new Uint8Array(800)];
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
    });
    const streamed = await send('/small', { method: 'POST', body, duplex: 'half' });
    expect(streamed.status).toBe(413);
    expect(called).toBe(1);
    const fits = await send('/small', { method: 'POST', body: 'x'.repeat(1000) });
    expect(fits.status).toBe(200);
    expect(await fits.text()).toBe('read it all');
  });

  it('applies CORS, app-wide and mount middleware headers, mount auth and the request id', async () => {
    let seen: string[] = [];
    const handler: FetchHandler = (request) => {
      seen.push(request.method);
      return new Response(request.method === 'HEAD' ? null : 'hello', {
        headers: { 'content-type': 'text/plain', 'content-length': '5', 'x-handler': 'yes' },
      });
    };
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(preflights);
        this.includeMiddleware({ responseHeaders: { 'x-app': 'app' } });
        this.include(
          mountFetch('/ext', handler, {
            middleware: [{ responseHeaders: { 'x-mount': 'mount' } }],
            fakeAuth: headerUserAuth,
          }),
        );
      }
    }
    const send = await open(new App({ logger: memoryLogger(), requestLog: true }), transport);
    const denied = await send('/ext/x');
    expect(denied.status).toBe(401);
    expect(seen).toEqual([]);
    const res = await send('/ext/x', { headers: { 'x-user': 'ann', origin: 'https://a.example' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-app')).toBe('app');
    expect(res.headers.get('x-mount')).toBe('mount');
    expect(res.headers.get('x-handler')).toBe('yes');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const head = await send('/ext/x', { method: 'HEAD', headers: { 'x-user': 'ann' } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    // A preflight the policy accepts is core's answer; a plain OPTIONS is the handler's.
    seen = [];
    const preflight = await send('/ext/x', {
      method: 'OPTIONS',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(seen).toEqual([]);
    const options = await send('/ext/x', { method: 'OPTIONS', headers: { 'x-user': 'ann' } });
    expect(options.status).toBe(200);
    expect(seen).toEqual(['OPTIONS']);
  });

  it('answers 405 with allow for a method the mount does not list', async () => {
    const send = await open(
      appWith((app) => app.include(mountFetch('/rpc', echo, { methods: ['POST'] }))),
      transport,
    );
    const res = await send('/rpc/call');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    const options = await send('/rpc/call', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
    const post = await send('/rpc/call', { method: 'POST', body: 'hi' });
    expect(await post.json()).toMatchObject({ method: 'POST', path: '/rpc/call', body: 'hi' });
  });

  it('strips the prefix when asked, keeps every set-cookie, drops framing headers, streams live bodies', async () => {
    const second = deferred();
    const handler: FetchHandler = (request) => {
      const url = new URL(request.url);
      if (url.pathname === '/cookies') {
        const headers = new Headers({ 'transfer-encoding': 'chunked', connection: 'x' });
        headers.append('set-cookie', 'a=1; Path=/');
        headers.append('set-cookie', 'b=2; Path=/');
        return new Response('ok', { headers });
      }
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (n === 1) await within('the client reading the first event', second.promise);
          if (n === 2) return controller.close();
          controller.enqueue(new TextEncoder().encode(`data: ${n++}\n\n`));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    const send = await open(
      appWith((app) => app.include(mountFetch('/sse', handler, { stripPrefix: true }))),
      transport,
    );
    const cookies = await send('/sse/cookies');
    expect(cookies.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(cookies.headers.get('content-length')).toBe('2');
    expect(cookies.headers.get('connection')).not.toBe('x');
    const events = await send('/sse');
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    const reader = events.body!.getReader();
    expect(new TextDecoder().decode((await within('first event', reader.read())).value)).toBe('data: 0\n\n');
    second.resolve();
    let rest = '';
    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      rest += new TextDecoder().decode(step.value);
    }
    expect(rest).toBe('data: 1\n\n');
  });

  it("runs the route's body transform on the handler's answer, and renders a handler failure as a 500", async () => {
    const big = 'a'.repeat(5000);
    const handler: FetchHandler = (request) => {
      if (request.url.endsWith('/boom')) throw new Error('secret detail');
      return new Response(big, { headers: { 'content-type': 'text/plain' } });
    };
    const log = memoryLogger();
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(gzipEverything);
        this.include(mountFetch('/big', handler));
      }
    }
    const send = await open(new App({ logger: log }), transport);
    if (transport === 'fetch') {
      const res = await send('/big', { headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(big);
    } else {
      // Node's fetch decodes gzip itself: the header and the decoded body say it was encoded.
      const res = await send('/big', { headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(await res.text()).toBe(big);
    }
    const failed = await send('/big/boom');
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain('secret detail');
    expect(log.lines.some((l) => l.startsWith('error'))).toBe(true);
  });
});
