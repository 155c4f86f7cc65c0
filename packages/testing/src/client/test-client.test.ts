import { afterEach, describe, expect, it } from 'vitest';
import { WiringError } from '@api/core';
import { BrokenApp, quietLogger, TestApp, type Echo } from '../../test/apps';
import { TestClient } from './test-client';

const clients: TestClient[] = [];
function client(options: { cookieJar?: boolean } = {}): TestClient {
  const c = new TestClient(new TestApp({ logger: quietLogger() }), options);
  clients.push(c);
  return c;
}
function jarClient(): TestClient<true> {
  const c = new TestClient(new TestApp({ logger: quietLogger() }), { cookieJar: true });
  clients.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function headerValues(echo: Echo, name: string): string[] {
  return echo.rawHeaders.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
}

describe('TestClient lifecycle', () => {
  it('starts the app lazily on the first request, once, on a free port', async () => {
    const app = new TestApp({ logger: quietLogger() });
    const c = new TestClient(app);
    clients.push(c);
    expect(app.wires).toBe(0);
    const [a, b] = await Promise.all([c.get('/healthz'), c.get('/healthz')]);
    expect(a.json()).toEqual({ status: 'ok' });
    expect(b.status).toBe(200);
    expect(app.wires).toBe(1);
    expect(c.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(c.url).not.toBe('http://127.0.0.1:0');
  });

  it('starts eagerly with TestClient.start and runs teardown on close, once', async () => {
    const app = new TestApp({ logger: quietLogger() });
    const c = await TestClient.start(app);
    expect(app.wires).toBe(1);
    await c.start();
    expect(app.wires).toBe(1);
    await Promise.all([c.close(), c.close()]);
    expect(app.closes).toBe(1);
    await expect(c.get('/healthz')).rejects.toThrow(/closed/);
  });

  it('runs shutdown at the end of an await using scope', async () => {
    const app = new TestApp({ logger: quietLogger() });
    {
      await using c = await TestClient.start(app);
      expect((await c.get('/healthz')).status).toBe(200);
      expect(app.closes).toBe(0);
    }
    expect(app.closes).toBe(1);
  });

  it('surfaces a wiring failure from start() as the WiringError itself', async () => {
    const c = new TestClient(new BrokenApp({ logger: quietLogger() }));
    const error: unknown = await c.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WiringError);
    expect((error as Error).message).toMatch(/deliberately broken/);
    await c.close();
  });

  it('surfaces a wiring failure from the first request too, not a 503 or a timeout', async () => {
    const c = new TestClient(new BrokenApp({ logger: quietLogger() }));
    await expect(c.get('/anything')).rejects.toBeInstanceOf(WiringError);
    await expect(TestClient.start(new BrokenApp({ logger: quietLogger() }))).rejects.toBeInstanceOf(
      WiringError,
    );
    await c.close();
  });

  it('closes a client that never started without touching the app', async () => {
    const app = new TestApp({ logger: quietLogger() });
    await new TestClient(app).close();
    expect(app.wires).toBe(0);
    expect(app.closes).toBe(0);
  });
});

describe('TestClient requests', () => {
  it('appends params as a query string: arrays repeat, booleans and numbers stringify', async () => {
    const res = await client().get('/echo', { params: { q: 'a b&c', n: 3, on: true, tag: ['x', 'y'] } });
    expect(res.json<Echo>().url).toBe('/echo?q=a%20b%26c&n=3&on=true&tag=x&tag=y');
    const more = await client().get('/echo?x=1', { params: { y: 2 } });
    expect(more.json<Echo>().url).toBe('/echo?x=1&y=2');
  });

  it('sends json with content-type application/json and a content-length', async () => {
    const echo = (await client().post('/echo', { json: { a: [1, 'é'] } })).json<Echo>();
    expect(echo.method).toBe('POST');
    expect(Buffer.from(echo.body, 'latin1').toString('utf8')).toBe('{"a":[1,"é"]}');
    expect(headerValues(echo, 'content-type')).toEqual(['application/json']);
    expect(headerValues(echo, 'content-length')).toEqual([String(Buffer.byteLength('{"a":[1,"é"]}'))]);
  });

  it('sends content as is (string or bytes), with an explicit content-type kept', async () => {
    const text = (
      await client().put('/echo', { content: 'raw', headers: { 'Content-Type': 'text/plain' } })
    ).json<Echo>();
    expect(text.body).toBe('raw');
    expect(headerValues(text, 'content-type')).toEqual(['text/plain']);
    const bytes = (await client().patch('/echo', { content: new Uint8Array([0, 255]) })).json<Echo>();
    expect([...Buffer.from(bytes.body, 'latin1')]).toEqual([0, 255]);
    expect(headerValues(bytes, 'content-type')).toEqual([]);
  });

  it('builds a multipart/form-data body from data and files', async () => {
    const echo = (
      await client().post('/echo', {
        data: { title: 'T' },
        files: { avatar: { filename: 'a.txt', content: 'file body', contentType: 'text/plain' } },
      })
    ).json<Echo>();
    const [contentType] = headerValues(echo, 'content-type');
    const boundary = /boundary=(.+)$/.exec(contentType ?? '')?.[1];
    expect(boundary).toBeDefined();
    expect(echo.body).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n` +
        `--${boundary}--\r\n`,
    );
  });

  it('rejects two bodies at once', async () => {
    await expect(client().post('/echo', { json: 1, content: 'x' })).rejects.toThrow(TypeError);
  });

  it('sends header pairs with repeats and as-written names', async () => {
    const echo = (
      await client().get('/echo', {
        headers: [
          ['X-Trace', 'a'],
          ['x-trace', 'b'],
        ],
      })
    ).json<Echo>();
    expect(echo.rawHeaders.filter(([k]) => k.toLowerCase() === 'x-trace')).toEqual([
      ['X-Trace', 'a'],
      ['x-trace', 'b'],
    ]);
  });

  it('refuses a body on get/head/options/delete at run time too', async () => {
    const c = client();
    const untyped = { json: { a: 1 } } as object;
    await expect(c.get('/echo', untyped)).rejects.toThrow(/takes no body \(got `json`\)/);
    await expect(c.delete('/echo', untyped)).rejects.toThrow(TypeError);
    await expect(c.streamGet('/echo', untyped)).rejects.toThrow(TypeError);
  });

  it('sends DELETE without a body and any method through request()', async () => {
    const c = client();
    expect((await c.delete('/echo')).json<Echo>().method).toBe('DELETE');
    const echo = (await c.request('delete', '/echo', { json: { why: 'x' } })).json<Echo>();
    expect(echo.method).toBe('DELETE');
    expect(echo.body).toBe('{"why":"x"}');
  });

  it('captures HEAD as the GET head with an empty body', async () => {
    const c = client();
    const get = await c.get('/healthz');
    const head = await c.head('/healthz');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('content-type')).toBe('application/json');
  });

  it('answers OPTIONS through the app', async () => {
    const res = await client().options('/healthz');
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toContain('GET');
  });
});

describe('TestResponse', () => {
  it('keeps the wire header list with repeats and as-sent names in multiHeaders', async () => {
    const res = await client().get('/repeats');
    const names = res.multiHeaders
      .map(([k]) => k)
      .filter((k) => !['Date', 'Connection', 'Keep-Alive'].includes(k));
    expect(names).toEqual(['X-Raw', 'x-raw', 'set-cookie', 'set-cookie', 'content-type', 'content-length']);
    expect(res.multiHeaders.filter(([k]) => k === 'set-cookie').map(([, v]) => v)).toEqual([
      'a=1; Path=/',
      'b=2; Expires=Wed, 21 Oct 2065 07:28:00 GMT',
    ]);
  });

  it('reads headers case-insensitively, joining repeats except set-cookie', async () => {
    const res = await client().get('/repeats');
    expect(res.headers.get('X-RAW')).toBe('r1, r2');
    expect(res.headers.getAll('x-raw')).toEqual(['r1', 'r2']);
    expect(res.headers.get('set-cookie')).toBe('a=1; Path=/');
    expect(res.headers.getSetCookie()).toHaveLength(2);
    expect(res.headers.get('x-missing')).toBeUndefined();
    expect(res.headers.has('Content-Type')).toBe(true);
    expect(res.headers.toJSON()).toMatchObject({ 'x-raw': 'r1, r2', 'content-type': 'text/plain' });
  });

  it('gives body bytes, text, json and parsed cookies', async () => {
    const res = await client().get('/repeats');
    expect(res.body).toBeInstanceOf(Buffer);
    expect(res.text).toBe('hello');
    expect(() => res.json()).toThrow(/body is not JSON/);
    expect(res.cookies.a).toEqual({ name: 'a', value: '1', attributes: { path: '/' } });
    expect(res.cookies.b?.attributes.expires).toBe('Wed, 21 Oct 2065 07:28:00 GMT');
    const login = await client().post('/login', { json: { name: 'ada' } });
    expect(login.status).toBe(204);
    expect(login.cookies.session_id?.value).toBe('ada');
    expect(login.cookies.session_id?.attributes).toMatchObject({
      path: '/',
      secure: true,
      httponly: true,
      samesite: 'Lax',
    });
  });
});

describe('cookie jar', () => {
  const setCookies = (c: TestClient, lines: string[]): Promise<unknown> =>
    c.post('/set-cookies', { json: lines });
  const sentCookie = async (
    c: TestClient,
    options: Parameters<TestClient['get']>[1] = {},
  ): Promise<string[]> => headerValues((await c.get('/echo', options)).json<Echo>(), 'cookie');

  it('is off by default: nothing is stored or sent', async () => {
    const c = client();
    expect(c.cookieJar).toBeUndefined();
    await c.post('/login', { json: { name: 'ada' } });
    expect(await sentCookie(c)).toEqual([]);
  });

  it('stores Set-Cookie values by name and attaches them to later requests', async () => {
    const c = jarClient();
    await c.post('/login', { json: { name: 'ada' } });
    await setCookies(c, ['theme=dark; Path=/other; Domain=example.com', 'session_id=bob']);
    expect(Object.fromEntries(c.cookieJar)).toEqual({ session_id: 'bob', theme: 'dark' });
    expect(await sentCookie(c)).toEqual(['session_id=bob; theme=dark']);
  });

  it('removes an entry on Max-Age=0, a negative Max-Age, or a past Expires', async () => {
    const c = jarClient();
    await setCookies(c, ['a=1', 'b=2', 'c=3', 'd=4']);
    await setCookies(c, [
      'a=; Max-Age=0',
      'b=2; max-age=-1',
      'c=; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'd=5; Expires=Fri, 01 Jan 2100 00:00:00 GMT',
    ]);
    expect(Object.fromEntries(c.cookieJar)).toEqual({ d: '5' });
    await setCookies(c, ['never=1; Max-Age=0']);
    expect(c.cookieJar.has('never')).toBe(false);
  });

  it('merges per-request cookies over the jar; they win on a name collision', async () => {
    const c = jarClient();
    await setCookies(c, ['session_id=jar', 'theme=dark']);
    expect(await sentCookie(c, { cookies: { session_id: 'mine', extra: '1' } })).toEqual([
      'session_id=mine; theme=dark; extra=1',
    ]);
    expect(c.cookieJar.get('session_id')).toBe('jar');
  });

  it('sends per-request cookies without a jar too', async () => {
    expect(await sentCookie(client(), { cookies: { a: '1', b: '2' } })).toEqual(['a=1; b=2']);
  });

  it('rejects cookies plus an explicit Cookie header (any case) as ambiguous', async () => {
    const c = jarClient();
    await expect(c.get('/echo', { cookies: { a: '1' }, headers: { COOKIE: 'b=2' } })).rejects.toThrow(
      TypeError,
    );
    await expect(c.get('/echo', { cookies: {}, headers: [['cookie', 'b=2']] })).rejects.toThrow(/ambiguous/);
    expect(() => c.cookieHeaderFor({ a: '1' }, { Cookie: 'b=2' })).toThrow(TypeError);
  });

  it('lets an explicit Cookie header suppress the jar', async () => {
    const c = jarClient();
    await setCookies(c, ['session_id=jar']);
    expect(await sentCookie(c, { headers: { Cookie: 'only=this' } })).toEqual(['only=this']);
  });

  it('exposes the merged Cookie header for WebSocket handshakes', async () => {
    const c = jarClient();
    expect(c.cookieHeaderFor()).toBeUndefined();
    c.cookieJar.set('a', '1');
    expect(c.cookieHeaderFor()).toBe('a=1');
    expect(c.cookieHeaderFor({ a: '2', b: '3' })).toBe('a=2; b=3');
    expect(c.cookieHeaderFor(undefined, [['Cookie', 'x=1']])).toBeUndefined();
  });

  it('also learns cookies from a streamed response head', async () => {
    const c = jarClient();
    const session = await c.streamGet('/stream');
    await session.close();
    expect(c.cookieJar.get('streamed')).toBe('yes');
  });
});
