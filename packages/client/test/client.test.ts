// Wire tests: the client against a real @api server on a socket, one describe per row of what the
// client types (request parts, answers by status, streams, sockets, options); bodies and app-wide
// errors are in bodies.test.ts.
import { describe, expect, it } from 'vitest';
import { createClient, ResponseError } from '../src/index';
import { TOKEN, type FixtureApp } from './fixture/app';
import { clientAt, nodeSockets, onServer, routes } from './fixture/wire';

let app: FixtureApp;
let baseUrl: string;
onServer((started) => {
  app = started.app;
  baseUrl = started.url;
});
const client = (options: Parameters<typeof clientAt>[1] = {}) => clientAt(baseUrl, options);

describe('JSON operations', () => {
  it('creates with a typed body and reads the 201, its typed headers and Location', async () => {
    const api = client();
    const answer = await api.widgets.create({ json: { name: 'sprocket', priceCents: 250 } });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.status).toBe(201);
    expect(answer.data).toEqual({ id: '1', name: 'sprocket', priceCents: 250 });
    expect(answer.headers.location).toBe('/widgets/1');
    expect(answer.headers.xWidgetCount).toBe('1');
    expect(answer.response.headers.get('x-widget-count')).toBe('1');
  });

  it('reads one by path, and a declared parameterized Problem by status', async () => {
    const api = client();
    const found = await api.widgets.readOne({ path: { widget_id: '1' } });
    expect(found).toMatchObject({ ok: true, status: 200, data: { id: '1', name: 'sprocket' } });
    const missing = await api.widgets.readOne({ path: { widget_id: 'nope' } });
    expect(missing.ok).toBe(false);
    if (missing.status !== 404) throw new Error(`expected 404, got ${missing.status}`);
    expect(missing.error).toEqual({
      type: 'widget-not-found',
      title: 'Widget not found',
      status: 404,
      detail: 'Widget nope not found',
      params: { widgetId: 'nope' },
    });
    expect(missing.response.headers.get('content-type')).toBe('application/problem+json');
  });

  it('percent-encodes path values, and fills nested mount slots before the item field', async () => {
    const api = client();
    const answer = await api.shopWidgets.readOne({ path: { shop_id: 'a/b c', widget_id: 'ü?' } });
    expect(answer).toMatchObject({ ok: true, data: { shop: 'a/b c', widget: 'ü?' } });
    expect(answer.response.url).toBe(`${baseUrl}/shops/a%2Fb%20c/widgets/%C3%BC%3F`);
  });

  it('sends the query: numbers as text, arrays as repeats, absent fields left out', async () => {
    const api = client();
    await api.widgets.create({ json: { name: 'gear', priceCents: 1 } });
    const all = await api.widgets.readMany();
    expect(all.ok && all.data.map((w) => w.name)).toEqual(['sprocket', 'gear']);
    const one = await api.widgets.readMany({ params: { limit: 1 } });
    expect(one.ok && one.data.map((w) => w.name)).toEqual(['sprocket']);
    const tagged = await api.widgets.readMany({ params: { tag: ['gear', 'cog'] } });
    expect(tagged.ok && tagged.data.map((w) => w.name)).toEqual(['gear']);
    expect(tagged.response.url).toBe(`${baseUrl}/widgets?tag=gear&tag=cog`);
  });

  it('patches, then deletes with a 204 and no data', async () => {
    const api = client();
    const patched = await api.widgets.updatePartial({ path: { widget_id: '2' }, json: { priceCents: 7 } });
    expect(patched).toMatchObject({ ok: true, status: 200, data: { id: '2', name: 'gear', priceCents: 7 } });
    const deleted = await api.widgets.delete({ path: { widget_id: '2' } });
    expect(deleted.ok).toBe(true);
    expect(deleted.status).toBe(204);
    expect(deleted.data).toBeUndefined();
    expect(app.widgets.store.has('2')).toBe(false);
  });

  it('answers a declared 409 and a 422 validation Problem naming the field', async () => {
    const api = client();
    const duplicate = await api.widgets.create({ json: { name: 'sprocket', priceCents: 1 } });
    expect(duplicate).toMatchObject({ ok: false, status: 409, error: { type: 'duplicate', status: 409 } });
    const invalid = await api.widgets.create({ json: { name: 'x', priceCents: -1 } });
    if (invalid.status !== 422) throw new Error(`expected 422, got ${invalid.status}`);
    expect(invalid.error.type).toBe('validation-failed');
    expect(invalid.error.params.issues.map((i) => i.path)).toEqual(['$.priceCents']);
  });

  it('answers the 401 of an authenticated mount and the errors its authenticator raises', async () => {
    const anonymous = createClient({ baseUrl, routes });
    const none = await anonymous.widgets.readMany();
    expect(none).toMatchObject({ ok: false, status: 401, error: { type: 'authentication-required' } });
    expect(none.response.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await client({ bearer: 'wrong' }).widgets.readMany();
    expect(wrong).toMatchObject({
      ok: false,
      status: 401,
      error: { type: 'invalid-token', title: 'Invalid token' },
    });
  });

  it('takes the bearer token from a function, per request', async () => {
    let token = 'wrong';
    const api = createClient({ baseUrl, routes, bearer: async () => token });
    expect((await api.widgets.readMany()).status).toBe(401);
    token = TOKEN;
    expect((await api.widgets.readMany()).status).toBe(200);
  });
});

describe('orThrow', () => {
  it('resolves to the data of a success', async () => {
    const widget = await client()
      .widgets.readOne({ path: { widget_id: '1' } })
      .orThrow();
    expect(widget.name).toBe('sprocket');
  });

  it('throws a ResponseError carrying the failure', async () => {
    const error = await client()
      .widgets.readOne({ path: { widget_id: 'gone' } })
      .orThrow()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    const failure = error as ResponseError;
    expect(failure.status).toBe(404);
    expect(failure.message).toBe('HTTP 404 widget-not-found');
    expect(failure.error).toMatchObject({ detail: 'Widget gone not found' });
    expect(failure.answer.response.status).toBe(404);
  });
});

describe('headers, cookies and defaults', () => {
  it('sends declared headers by field name and cookies, and reads typed response headers', async () => {
    const api = createClient({ baseUrl, routes, headers: { 'x-custom': 'default' } });
    const answer = await api.echo.get({
      headers: { xTraceId: 't-1', x_mode: 'fast' },
      cookies: { session: 's-9' },
    });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.data).toEqual({
      trace: 't-1',
      mode: 'fast',
      session: 's-9',
      authorization: null,
      custom: 'default',
    });
    expect(answer.headers.xTraceId).toBe('t-1-back');
    expect(answer.headers.x_mode).toBe('fast');
  });

  it('answers 400 with the header named when a declared header is invalid', async () => {
    const api = createClient({ baseUrl, routes });
    const answer = await api.echo.get({ headers: { xTraceId: 't', x_mode: 'medium' as 'fast' } });
    if (answer.status !== 400) throw new Error(`expected 400, got ${answer.status}`);
    expect(answer.error.type).toBe('malformed-request');
    expect(answer.error.detail).toContain('x-mode');
  });

  it('calls a custom fetch with a Request, and honours credentials', async () => {
    const seen: Request[] = [];
    const api = createClient({
      baseUrl: `${baseUrl}/`,
      routes,
      credentials: 'include',
      fetch: (request) => {
        seen.push(request);
        return fetch(request);
      },
    });
    await api.misc.get();
    expect(seen.map((r) => [r.method, r.url, r.credentials])).toEqual([
      ['GET', `${baseUrl}/misc`, 'include'],
    ]);
  });
});

describe('base URL', () => {
  it('keeps a path prefix, with or without a trailing slash, and adds per-call headers', async () => {
    const seen: string[] = [];
    for (const prefix of ['/api', '/api/']) {
      const api = createClient({
        baseUrl: `${baseUrl}${prefix}`,
        routes,
        headers: { 'x-custom': 'default' },
        // A gateway in front of the app: strips the prefix.
        fetch: (request) => {
          seen.push(request.url);
          return fetch(new Request(request.url.replace('/api/', '/'), request));
        },
      });
      const answer = await api.echo.get({
        headers: { xTraceId: 't', x_mode: 'slow' },
        requestHeaders: { 'x-custom': 'per-call' },
      });
      expect(answer.ok && answer.data.custom).toBe('per-call');
    }
    expect(seen).toEqual([`${baseUrl}/api/echo`, `${baseUrl}/api/echo`]);
  });
});

describe('other answers', () => {
  it('reads text/plain as a string and a byte stream as a ReadableStream', async () => {
    const api = client();
    expect(await api.misc.get().orThrow()).toBe('plain text');
    const stream = await api.misc.post().orThrow();
    expect(stream).toBeInstanceOf(ReadableStream);
    expect([...new Uint8Array(await new Response(stream).arrayBuffer())]).toEqual([1, 2, 3, 4, 5]);
  });

  it('reads a StructHTTPError body and a NoContent', async () => {
    const api = client();
    const teapot = await api.misc.delete();
    expect(teapot).toMatchObject({ ok: false, status: 418, error: { code: 'E418', message: 'No tea here' } });
    expect(teapot.response.headers.get('content-type')).toBe('application/json');
    expect(await api.misc.put()).toMatchObject({ ok: true, status: 204, data: undefined });
  });

  it('gives an undeclared status (a proxy in between) with its body as sent', async () => {
    const api = createClient({
      baseUrl,
      routes,
      fetch: async () =>
        new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    });
    const answer = await api.misc.get();
    expect(answer).toMatchObject({ ok: false, status: 502, error: '<html>bad gateway</html>' });
  });
});

describe('NDJSON', () => {
  it('iterates the items of a finite stream', async () => {
    const chunks = await client()
      .ask.post({ json: { text: 'w', words: 3 } })
      .orThrow();
    const texts: string[] = [];
    for await (const chunk of chunks) texts.push(chunk.text);
    expect(texts).toEqual(['w-0', 'w-1', 'w-2']);
  });

  it('ends when the caller aborts, and the server runs its teardown', async () => {
    const controller = new AbortController();
    const chunks = await client()
      .ask.post({ json: { text: 'endless' }, signal: controller.signal })
      .orThrow();
    const texts: string[] = [];
    for await (const chunk of chunks) {
      texts.push(chunk.text);
      if (texts.length === 2) controller.abort();
    }
    expect(texts).toEqual(['endless-0', 'endless-1']);
    await expect.poll(() => app.ask.closed.includes('endless'), { timeout: 5000 }).toBe(true);
  });

  it('ends when the caller breaks out of the loop', async () => {
    const chunks = await client()
      .ask.post({ json: { text: 'broken' } })
      .orThrow();
    for await (const chunk of chunks) if (chunk.text === 'broken-1') break;
    await expect.poll(() => app.ask.closed.includes('broken'), { timeout: 5000 }).toBe(true);
  });
});

describe('Server-Sent Events', () => {
  it('yields typed events and resumes after a dropped connection with Last-Event-ID', async () => {
    const controller = new AbortController();
    const events = await client().notices.get({ signal: controller.signal }).orThrow();
    const got: unknown[] = [];
    for await (const event of events) {
      got.push(event);
      if (got.length === 4) controller.abort();
    }
    expect(got).toEqual([
      { event: 'notice', id: '1', data: { message: 'notice 1' } },
      { event: 'notice', id: '2', data: { message: 'notice 2' } },
      { event: 'notice', id: '3', data: { message: 'notice 3' } },
      { event: 'message', id: undefined, data: 'text data\nin two lines' },
    ]);
    expect(app.notices.seen).toEqual([undefined, '2']);
  });

  it('starts from a Last-Event-ID given as the declared header', async () => {
    const controller = new AbortController();
    const events = await client()
      .notices.get({ headers: { last_event_id: '2' }, signal: controller.signal })
      .orThrow();
    for await (const event of events) {
      expect(event.id).toBe('3');
      controller.abort();
    }
    expect(app.notices.seen.at(-1)).toBe('2');
  });
});

describe('WebSockets', () => {
  it('sends and receives typed JSON messages with the bearer on the handshake', async () => {
    const socket = await client().rooms.connect({ path: { room: 'lobby' } });
    socket.send({ type: 'say', text: 'hi' });
    expect(await socket.receive()).toEqual({ type: 'said', text: 'HI', room: 'lobby', user: 'ada' });
    socket.send({ type: 'say', text: 'again' });
    for await (const message of socket) {
      expect(message.text).toBe('AGAIN');
      socket.close();
    }
    expect(await socket.closed).toEqual({ code: 1000, reason: '' });
  });

  it('rejects connect when the handshake is refused (no credentials)', async () => {
    const anonymous = createClient({ baseUrl, routes, webSocket: nodeSockets });
    await expect(anonymous.rooms.connect({ path: { room: 'x' } })).rejects.toThrow(
      /WebSocket closed|Unexpected server response: 401/,
    );
  });

  it('passes text frames through for a text endpoint, and closes on abort', async () => {
    const controller = new AbortController();
    const socket = await client().shout.connect({ signal: controller.signal });
    socket.send('hey');
    expect(await socket.receive()).toBe('hey!');
    controller.abort();
    expect((await socket.closed).code).toBe(1000);
    await expect(socket.receive()).rejects.toThrow('WebSocket closed (1000)');
  });
});
