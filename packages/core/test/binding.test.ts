import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Resource, Struct } from '../src/index';
import { clientFactory, memoryLogger, Widget, WidgetIn } from './fixtures';

const client = clientFactory();

const Query = Struct('Query', {
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 20),
  active: v.optional(v.boolean()),
  tag: v.optional(v.array(v.string())),
  q: v.optional(v.string()),
});
const Headers = Struct('Headers', { x_trace_id: v.string(), xCount: v.optional(v.number()) });
const Cookies = Struct('Cookies', { session_id: v.string(), Theme: v.optional(v.string()) });

class Echo extends Endpoint('/echo') {
  get = this.operation({ params: Query, returns: v.unknown() }, ({ params }) => params);
  post = this.operation({ json: WidgetIn, returns: v.unknown() }, ({ json }) => json);
  put = this.operation({ content: true, returns: v.unknown() }, ({ content }) => ({
    length: content.length,
    text: content.toString('utf8'),
  }));
}
class HeaderEcho extends Endpoint('/headers') {
  get = this.operation({ headers: Headers, returns: v.unknown() }, ({ headers }) => headers);
  post = this.operation({ rawHeaders: true, returns: v.unknown() }, ({ rawHeaders }) => ({
    first: rawHeaders.get('X-Dup'),
    all: rawHeaders.getlist('x-dup'),
    missing: rawHeaders.get('x-missing', 'fallback'),
    keys: rawHeaders.keys().filter((k) => k.toLowerCase().startsWith('x-')),
    multi: rawHeaders.multiItems().filter(([k]) => k.toLowerCase().startsWith('x-')),
  }));
}
class CookieEcho extends Endpoint('/cookies') {
  get = this.operation({ cookies: Cookies, returns: v.unknown() }, ({ cookies }) => cookies);
}
class Items extends Resource('/items') {
  readOne = this.operation(
    {
      path: Struct('ItemPath', { item_id: v.pipe(v.number(), v.integer()) }),
      params: Query,
      returns: v.unknown(),
    },
    ({ path, params }) => ({
      itemId: path.item_id,
      limit: params.limit,
    }),
  );
  create = this.operation({ json: WidgetIn, returns: Widget }, ({ json }) => ({ id: 'x', ...json }));
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Echo());
    this.includeEndpoint(new HeaderEcho());
    this.includeEndpoint(new CookieEcho());
    this.includeResource(new Items());
  }
}
const app = (): App => new App({ logger: memoryLogger() });

describe('params (query string)', () => {
  it('coerces strings to the schema types and applies defaults', async () => {
    const c = client(app());
    expect((await c.get('/echo')).json()).toEqual({ limit: 20 });
    expect((await c.get('/echo', { params: { limit: 5, active: true, q: 'a b' } })).json()).toEqual({
      limit: 5,
      active: true,
      q: 'a b',
    });
  });

  it('lets the last repeat win, collects repeats for arrays, and treats empty values as absent', async () => {
    const c = client(app());
    expect((await c.get('/echo?limit=2&limit=3&tag=a&tag=b&q=')).json()).toEqual({
      limit: 3,
      tag: ['a', 'b'],
    });
  });

  it('answers 400 malformed-request naming the parameter, never the value', async () => {
    const c = client(app());
    const res = await c.get('/echo?limit=secret-value');
    expect(res.status).toBe(400);
    const body = res.json() as {
      type: string;
      detail: string;
      params: { reason: string; issues: { path: string; message: string }[] };
    };
    expect(body).toMatchObject({ type: 'malformed-request', title: 'Malformed request', status: 400 });
    expect(body.detail).toBe('Expected number, got other text at `query parameter limit`');
    expect(body.params.reason).toBe(body.detail);
    expect(res.text).not.toContain('secret-value');
    expect((await c.get('/echo?limit=0')).json()).toMatchObject({
      detail: 'Invalid min value: expected >=1 at `query parameter limit`',
    });
  });

  it('binds path and query together', async () => {
    const c = client(app());
    expect((await c.get('/items/12?limit=10')).json()).toEqual({ itemId: 12, limit: 10 });
  });
});

describe('headers', () => {
  it('maps x_trace_id and xCount to x-trace-id and x-count', async () => {
    const c = client(app());
    const res = await c.get('/headers', { headers: { 'X-Trace-Id': 't1', 'x-count': '3' } });
    expect(res.json()).toEqual({ x_trace_id: 't1', xCount: 3 });
  });

  it('answers 400 for a missing required header', async () => {
    const c = client(app());
    const res = await c.get('/headers');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'malformed-request',
      detail: 'Missing required field at `header x-trace-id`',
    });
  });

  it('keeps raw headers as sent: names, order and repeats, case-insensitive lookup', async () => {
    const c = client(app());
    const res = await c.post('/headers', {
      headers: [
        ['X-Dup', 'one'],
        ['x-other', 'o'],
        ['x-dup', 'two'],
      ],
    });
    expect(res.json()).toEqual({
      first: 'one',
      all: ['one', 'two'],
      missing: 'fallback',
      keys: ['X-Dup', 'x-other'],
      multi: [
        ['X-Dup', 'one'],
        ['x-other', 'o'],
        ['x-dup', 'two'],
      ],
    });
  });
});

describe('cookies', () => {
  it('binds cookie names verbatim and case-sensitively', async () => {
    const c = client(app());
    const res = await c.get('/cookies', {
      headers: { cookie: 'theme=dark; session_id="abc"; Theme=light; session_id=second' },
    });
    expect(res.json()).toEqual({ session_id: 'abc', Theme: 'light' });
  });

  it('answers 400 when a required cookie is missing', async () => {
    const c = client(app());
    const res = await c.get('/cookies', { headers: { cookie: 'other=1' } });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ detail: 'Missing required field at `cookie session_id`' });
  });
});

describe('json body', () => {
  it('decodes and validates the body', async () => {
    const c = client(app());
    const res = await c.post('/echo', { json: { name: 'a', priceCents: 5 } });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ name: 'a', priceCents: 5 });
  });

  it('answers 400 for malformed JSON and 422 for a schema violation, without echoing values', async () => {
    const c = client(app());
    const bad = await c.post('/echo', {
      content: '{"name": "a",',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({
      type: 'malformed-request',
      detail: 'The request body is not valid JSON',
    });
    const invalid = await c.post('/echo', { json: { name: 'secret-name', priceCents: 'secret-price' } });
    expect(invalid.status).toBe(422);
    expect(invalid.json()).toEqual({
      type: 'validation-failed',
      title: 'Validation failed',
      status: 422,
      detail: 'Expected number, got string at `$.priceCents`',
      params: {
        reason: 'Expected number, got string at `$.priceCents`',
        issues: [{ path: '$.priceCents', message: 'Expected number, got string' }],
      },
    });
    expect(invalid.text).not.toContain('secret');
    const missing = await c.post('/echo', { json: { priceCents: 1 } });
    expect(missing.json()).toMatchObject({ status: 422, detail: 'Missing required field at `$.name`' });
  });

  it('accepts application/*+json and a missing content-type; refuses other media types with 415', async () => {
    const c = client(app());
    const body = JSON.stringify({ name: 'a', priceCents: 1 });
    expect(
      (await c.post('/echo', { content: body, headers: { 'content-type': 'application/merge-patch+json' } }))
        .status,
    ).toBe(200);
    expect((await c.post('/echo', { content: body })).status).toBe(200);
    const res = await c.post('/echo', { content: body, headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    const accepted = 'application/json (or another +json type) in UTF-8, without a content-encoding';
    expect(res.json()).toEqual({
      type: 'unsupported-media-type',
      title: 'Unsupported media type',
      status: 415,
      detail: `This operation accepts ${accepted}`,
      params: { accepted },
    });
  });

  it('binds the raw body as bytes', async () => {
    const c = client(app());
    expect((await c.put('/echo', { content: 'héllo' })).json()).toEqual({ length: 6, text: 'héllo' });
  });
});
