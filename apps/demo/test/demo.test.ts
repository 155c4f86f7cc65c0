import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { DemoApp } from '../src/app';
import type { RequestLogLine } from '../src/extensions/request-log';

const AUTH = { authorization: 'Bearer token' };
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
let client: TestClient;
let log: RequestLogLine[];

beforeEach(() => {
  process.env.DEMO_DB = ':memory:';
  log = [];
  client = new TestClient(new DemoApp({ logger: quiet, requestLog: log }));
});
afterEach(async () => {
  await client.close();
});

describe('widgets', () => {
  it('creates a widget: 201, Location, Link, and reads it back', async () => {
    const res = await client.post('/widgets', { json: { name: 'Sprocket', priceCents: 250 }, headers: AUTH });
    expect(res.status).toBe(201);
    const widget = res.json() as { id: string; name: string; priceCents: number };
    expect(widget).toEqual({ id: widget.id, name: 'Sprocket', priceCents: 250 });
    expect(res.headers.get('location')).toBe(`/widgets/${widget.id}`);
    expect(res.headers.get('link')).toBe(`</widgets/${widget.id}>; rel="self", </widgets>; rel="collection"`);
    expect((await client.get(`/widgets/${widget.id}`, { headers: AUTH })).json()).toEqual(widget);
  });

  it('lists with paging defaults and bounds', async () => {
    for (const name of ['a', 'b', 'c'])
      await client.post('/widgets', { json: { name, priceCents: 1 }, headers: AUTH });
    const all = (await client.get('/widgets', { headers: AUTH })).json() as { name: string }[];
    expect(all.map((w) => w.name)).toEqual(['a', 'b', 'c']);
    const page = (
      await client.get('/widgets', { params: { limit: 1, offset: 1 }, headers: AUTH })
    ).json() as { name: string }[];
    expect(page.map((w) => w.name)).toEqual(['b']);
    const bad = await client.get('/widgets', { params: { limit: 101 }, headers: AUTH });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({
      type: 'malformed-request',
      detail: 'Invalid max value: expected <=100 at `query parameter limit`',
    });
  });

  it('updates fully and partially, deletes, and answers widget-not-found afterwards', async () => {
    const { id } = (
      await client.post('/widgets', { json: { name: 'x', priceCents: 1 }, headers: AUTH })
    ).json() as { id: string };
    expect(
      (await client.put(`/widgets/${id}`, { json: { name: 'y', priceCents: 2 }, headers: AUTH })).json(),
    ).toEqual({ id, name: 'y', priceCents: 2 });
    expect((await client.patch(`/widgets/${id}`, { json: { priceCents: 3 }, headers: AUTH })).json()).toEqual(
      { id, name: 'y', priceCents: 3 },
    );
    expect((await client.delete(`/widgets/${id}`, { headers: AUTH })).json()).toEqual({ id, deleted: true });
    const gone = await client.get(`/widgets/${id}`, { headers: AUTH });
    expect(gone.status).toBe(404);
    expect(gone.json()).toEqual({
      type: 'widget-not-found',
      title: 'Widget not found',
      status: 404,
      detail: `Widget ${id} not found`,
      params: { widgetId: id },
    });
  });

  it('translates a duplicate name into 409 conflict', async () => {
    await client.post('/widgets', { json: { name: 'dup', priceCents: 1 }, headers: AUTH });
    const res = await client.post('/widgets', { json: { name: 'dup', priceCents: 2 }, headers: AUTH });
    expect(res.status).toBe(409);
    expect(res.json()).toEqual({
      type: 'conflict',
      title: 'The request conflicts with the current state of the resource',
      status: 409,
    });
  });

  it('rejects invalid bodies with 422 and unauthenticated callers with 401', async () => {
    const invalid = await client.post('/widgets', { json: { name: '', priceCents: -1 }, headers: AUTH });
    expect(invalid.status).toBe(422);
    expect(invalid.json()).toMatchObject({
      type: 'validation-failed',
      detail: 'Invalid min length: expected >=1 at `$.name`',
    });
    expect((await client.get('/widgets')).json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
    expect((await client.get('/widgets', { headers: { authorization: 'Bearer wrong' } })).json()).toEqual({
      type: 'invalid-token',
      title: 'Invalid token',
      status: 401,
    });
  });
});

describe('users and sessions', () => {
  it('GET /me returns the bearer user', async () => {
    expect((await client.get('/me', { headers: AUTH })).json()).toEqual({
      id: 'user-id',
      name: 'user-name',
      maySeeSpotlight: true,
    });
    expect((await client.get('/me')).status).toBe(401);
  });

  it('GET /spotlight: anonymous 200, personalized 200, no-spotlight 204, bad token 401', async () => {
    expect((await client.get('/spotlight')).json()).toEqual({ widgetId: 'spotlight', personalizedFor: null });
    expect((await client.get('/spotlight', { headers: AUTH })).json()).toEqual({
      widgetId: 'spotlight',
      personalizedFor: 'user-name',
    });
    expect(
      (await client.get('/spotlight', { headers: { authorization: 'Bearer no-spotlight-token' } })).status,
    ).toBe(204);
    expect(
      (await client.get('/spotlight', { headers: { authorization: 'Bearer bad' } })).json(),
    ).toMatchObject({ type: 'invalid-token' });
  });

  it('POST /session sets the cookie, /profile reads it, DELETE /session expires it', async () => {
    const jar = new TestClient(new DemoApp({ logger: quiet }), { cookieJar: true });
    try {
      const login = await jar.post('/session', { json: { token: 'token' } });
      expect(login.status).toBe(204);
      expect(login.headers.get('set-cookie')).toBe(
        'session_id=token; Path=/; Secure; HttpOnly; SameSite=Lax',
      );
      expect((await jar.get('/profile')).json()).toEqual({
        id: 'user-id',
        name: 'user-name',
        maySeeSpotlight: true,
      });
      const logout = await jar.delete('/session');
      expect(logout.headers.get('set-cookie')).toBe(
        'session_id=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; Secure; HttpOnly; SameSite=Lax',
      );
      expect((await jar.get('/profile')).status).toBe(401);
      expect((await jar.post('/session', { json: { token: 'nope' } })).json()).toMatchObject({
        status: 401,
        type: 'invalid-token',
      });
    } finally {
      await jar.close();
    }
  });
});

describe('system routes', () => {
  it('GET /healthz and /raw-healthz', async () => {
    const health = await client.get('/healthz');
    expect(health.json()).toEqual({ status: 'ok' });
    const raw = await client.get('/raw-healthz');
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(raw.text).toBe('{"status":"ok"}');
  });

  it('GET /featured-widget links to the widgets resource by ref', async () => {
    const res = await client.get('/featured-widget');
    expect(res.headers.get('link')).toBe('</widgets/featured>; rel="related"');
  });

  it('POST /form-raw-headers reports request and part headers', async () => {
    const boundary = 'demo-boundary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="blob"',
      'Content-Type: text/plain',
      'X-Checksum: abc',
      'X-Checksum: def',
      '',
      'hello',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await client.post('/form-raw-headers', {
      content: body,
      headers: [
        ['Content-Type', `multipart/form-data; boundary=${boundary}`],
        ['X-Custom', '1'],
      ],
    });
    expect(res.status).toBe(200);
    const report = res.json() as Record<string, unknown>;
    expect(report.requestHeaderNames).toEqual(expect.arrayContaining(['Content-Type', 'X-Custom']));
    expect(report).toMatchObject({
      partHeaderNames: ['Content-Disposition', 'Content-Type', 'X-Checksum'],
      partChecksumValues: ['abc', 'def'],
      partContentType: 'text/plain',
      partTypedHeaders: { contentType: 'text/plain', xChecksum: 'abc, def' },
    });
  });
});

describe('app-wide behaviour', () => {
  it('wildcard CORS on every response, preflight on /widgets', async () => {
    expect((await client.get('/healthz')).headers.get('access-control-allow-origin')).toBe('*');
    expect((await client.get('/nope')).headers.get('access-control-allow-origin')).toBe('*');
    const pre = await client.options('/widgets', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
  });

  it('the request-log extension adds x-request-id and writes one line per request', async () => {
    const res = await client.get('/healthz', { headers: { 'x-request-id': 'req-123' } });
    expect(res.headers.get('x-request-id')).toBe('req-123');
    const fresh = await client.get('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (let i = 0; i < 200 && log.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect(log.map((l) => [l.method, l.path, l.status, l.requestId])).toEqual([
      ['GET', '/healthz', 200, 'req-123'],
      ['GET', '/healthz', 200, fresh.headers.get('x-request-id')],
    ]);
  });
});

describe('lifecycle', () => {
  it('opens the SQLite store through the factory and closes it at shutdown', async () => {
    const { Factory } = await import('../src/factory');
    const { FactoryHarness } = await import('@api/testing');
    const harness = new FactoryHarness(Factory);
    const store = harness.factory.createWidgetStore(':memory:');
    expect(store.isOpen).toBe(true);
    await harness.close();
    expect(store.isOpen).toBe(false);
  });
});
