import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import type { RecordedExchange } from './helpers/conformance';
import { checkContract } from './helpers/contract';
import { AUTH, startDemo } from './helpers/demo';

// Every response of this file is recorded and checked against /openapi.json at the end.
const exchanges: RecordedExchange[] = [];
let client: TestClient;

beforeEach(async () => {
  ({ client } = await startDemo({ exchanges }));
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
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    expect(bad.json()).toEqual({
      type: 'malformed-request',
      title: 'Malformed request',
      status: 400,
      detail: 'Invalid max value: expected <=100 at `query parameter limit`',
      params: {
        reason: 'Invalid max value: expected <=100 at `query parameter limit`',
        issues: [{ path: 'query parameter limit', message: 'Invalid max value: expected <=100' }],
      },
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

  it('a rename onto a taken name is a 409 too (PUT and PATCH)', async () => {
    await client.post('/widgets', { json: { name: 'taken', priceCents: 1 }, headers: AUTH });
    const { id } = (
      await client.post('/widgets', { json: { name: 'free', priceCents: 1 }, headers: AUTH })
    ).json<{ id: string }>();
    const CONFLICT = {
      type: 'conflict',
      title: 'The request conflicts with the current state of the resource',
      status: 409,
    };
    const put = await client.put(`/widgets/${id}`, { json: { name: 'taken', priceCents: 2 }, headers: AUTH });
    expect(put.status).toBe(409);
    expect(put.json()).toEqual(CONFLICT);
    const patch = await client.patch(`/widgets/${id}`, { json: { name: 'taken' }, headers: AUTH });
    expect(patch.status).toBe(409);
    expect(patch.json()).toEqual(CONFLICT);
    expect((await client.get(`/widgets/${id}`, { headers: AUTH })).json()).toEqual({
      id,
      name: 'free',
      priceCents: 1,
    });
  });

  it('rejects invalid bodies with 422 and unauthenticated callers with 401', async () => {
    const invalid = await client.post('/widgets', { json: { name: '', priceCents: -1 }, headers: AUTH });
    expect(invalid.status).toBe(422);
    expect(invalid.json()).toEqual({
      type: 'validation-failed',
      title: 'Validation failed',
      status: 422,
      detail: 'Invalid min length: expected >=1 at `$.name`',
      params: {
        reason: 'Invalid min length: expected >=1 at `$.name`',
        issues: [
          { path: '$.name', message: 'Invalid min length: expected >=1' },
          { path: '$.priceCents', message: 'Invalid min value: expected >=0' },
        ],
      },
    });
    const anonymous = await client.post('/widgets', { json: { name: 'x', priceCents: 1 } });
    expect(anonymous.status).toBe(401);
    // The bearer mount's 401s carry the challenge, whoever raised them.
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(anonymous.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
    expect((await client.get('/widgets')).json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
    const wrong = await client.get('/widgets', { headers: { authorization: 'Bearer wrong' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(wrong.json()).toEqual({ type: 'invalid-token', title: 'Invalid token', status: 401 });
  });
});

describe('integers past 2^53', () => {
  it('POST /widgets with priceCents 9007199254740993 → 422, nothing stored, GET /widgets still 200', async () => {
    const big = await client.post('/widgets', {
      content: '{"name":"big","priceCents": 9007199254740993}',
      headers: { ...AUTH, 'content-type': 'application/json' },
    });
    expect(big.status).toBe(422);
    expect(big.headers.get('content-type')).toBe('application/problem+json');
    const reason = 'Invalid safe integer: expected an integer within ±(2^53 − 1) at `$.priceCents`';
    expect(big.json()).toEqual({
      type: 'validation-failed',
      title: 'Validation failed',
      status: 422,
      detail: reason,
      params: {
        reason,
        issues: [
          { path: '$.priceCents', message: 'Invalid safe integer: expected an integer within ±(2^53 − 1)' },
        ],
      },
    });
    const list = await client.get('/widgets', { headers: AUTH });
    expect(list.status).toBe(200);
    expect(list.json()).toEqual([]);
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
    const bad = await client.get('/spotlight', { headers: { authorization: 'Bearer bad' } });
    expect(bad.status).toBe(401);
    expect(bad.json()).toEqual({ type: 'invalid-token', title: 'Invalid token', status: 401 });
  });

  it('POST /session sets the cookie, /profile reads it, DELETE /session expires it', async () => {
    const { client: jar } = await startDemo({ cookieJar: true, exchanges });
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
      const anonymous = await jar.get('/profile');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBeUndefined(); // no HTTP scheme fits a cookie
      expect(anonymous.json()).toEqual({
        type: 'authentication-required',
        title: 'Authentication required',
        status: 401,
      });
      expect((await jar.post('/session', { json: { token: 'nope' } })).json()).toEqual({
        type: 'invalid-token',
        title: 'Invalid token',
        status: 401,
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

  it('GET /featured-widget is the first widget, linked by ref to a widget that exists', async () => {
    const none = await client.get('/featured-widget');
    expect(none.status).toBe(404);
    expect(none.json()).toMatchObject({ type: 'widget-not-found', params: { widgetId: 'featured' } });
    const first = (
      await client.post('/widgets', { json: { name: 'Featured', priceCents: 1 }, headers: AUTH })
    ).json() as { id: string };
    await client.post('/widgets', { json: { name: 'Second', priceCents: 2 }, headers: AUTH });
    const res = await client.get('/featured-widget');
    expect(res.json()).toMatchObject({ id: first.id, name: 'Featured' });
    expect(res.headers.get('link')).toBe(`</widgets/${first.id}>; rel="related"`);
    expect((await client.get(`/widgets/${first.id}`, { headers: AUTH })).status).toBe(200);
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

describe('OpenAPI contract', () => {
  it('every response of this file matches /openapi.json (status, media type, schema)', async () => {
    const report = await checkContract(exchanges);
    expect(report.violations).toEqual([]);
    for (const pair of [
      'WidgetResource_create 201',
      'WidgetResource_create 401',
      'WidgetResource_create 409',
      'WidgetResource_create 422',
      'WidgetResource_readMany 200',
      'WidgetResource_readMany 400',
      'WidgetResource_readMany 401',
      'WidgetResource_readOne 200',
      'WidgetResource_readOne 404',
      'WidgetResource_updateFull 200',
      'WidgetResource_updateFull 409',
      'WidgetResource_updatePartial 200',
      'WidgetResource_updatePartial 409',
      'WidgetResource_delete 200',
      'MeEndpoint_get 200',
      'MeEndpoint_get 401',
      'SpotlightEndpoint_get 200',
      'SpotlightEndpoint_get 204',
      'SpotlightEndpoint_get 401',
      'SessionEndpoint_post 204',
      'SessionEndpoint_post 401',
      'SessionEndpoint_delete 204',
      'ProfileEndpoint_get 200',
      'ProfileEndpoint_get 401',
      'HealthEndpoint_get 200',
      'RawHealthEndpoint_get 200',
      'FormRawHeadersEndpoint_post 200',
      'FeaturedWidgetEndpoint_get 200',
    ])
      expect(report.covered, pair).toContain(pair);
  }, 60_000);
});
