import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  Accepted,
  BaseApp,
  Bytes,
  BytesResponse,
  Created,
  Endpoint,
  JSONResponse,
  Link,
  Location,
  NoContent,
  Resource,
  SetCookie,
  Struct,
  Text,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger, Widget, WidgetPath } from './fixtures';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
function client(app: BaseApp<unknown>, env: Record<string, string> = {}): TestClient {
  const c = new TestClient(app);
  clients.push(c);
  void env;
  return c;
}

const TraceHeaders = Struct('TraceHeaders', {
  xTraceId: v.string(),
  x_count: v.optional(v.number()),
  xFlag: v.optional(v.boolean()),
  xMeta: v.optional(v.object({ a: v.number() })),
});

class Widgets extends Resource('/widgets', { ref: 'widgets' }) {
  // the handler's object carries an extra field: only declared fields reach the wire
  readMany = this.operation({ returns: v.array(Widget) }, () => [
    { id: '1', name: 'a', priceCents: 1, secret: 'x' } as v.InferOutput<typeof Widget>,
  ]);
  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => ({
    id: path.widget_id,
    name: 'w',
    priceCents: 2,
  }));
  create = this.operation({ returns: Widget }, () => ({ id: 'c', name: 'c', priceCents: 0 }));
}

class Shapes extends Endpoint('/shapes') {
  get = this.operation({ returns: Text }, () => 'plain text ✓');
  post = this.operation({ returns: Bytes }, () => new Uint8Array([1, 2, 3]));
}
class Wrappers extends Endpoint('/wrappers') {
  get = this.operation(
    { returns: JSONResponse.of(Widget, { headers: TraceHeaders }) },
    () =>
      new JSONResponse({
        json: { id: '1', name: 'n', priceCents: 3 },
        statusCode: 203,
        headers: { xTraceId: 't-1', x_count: 2, xFlag: true, xMeta: { a: 1 } },
        rawHeaders: [
          ['X-Raw', 'r1'],
          ['X-Raw', 'r2'],
        ],
        cookies: [new SetCookie('a', '1'), new SetCookie('b', '2', { httpOnly: false })],
        location: Location.fromOperation(Widgets, 'readOne', { path: { widget_id: 'a b/c' } }),
        links: [
          Link.fromRef('widgets.readMany', { rel: 'collection' }),
          Link.fromUrl('https://example.com/x', {
            rel: 'alternate',
            title: 'Ex "ample"',
            mediaType: 'text/html',
          }),
        ],
      }),
  );
  post = this.operation(
    { returns: Created.of(Widget) },
    () =>
      new Created({ json: { id: '2', name: 'n', priceCents: 1 }, location: Location.fromPath('/widgets/2') }),
  );
  put = this.operation(
    { returns: Accepted.of(Widget) },
    () => new Accepted({ json: { id: '3', name: 'n', priceCents: 1 } }),
  );
  delete = this.operation({ returns: NoContent.of() }, () => new NoContent());
  patch = this.operation(
    { returns: NoContent.of() },
    () => new NoContent({ statusCode: 200, location: Location.fromUrl('https://example.com/a b') }),
  );
}
class Union extends Endpoint('/union') {
  get = this.operation({ returns: [JSONResponse.of(Widget), NoContent.of()] }, () => new NoContent());
  post = this.operation({ returns: [Widget, NoContent.of()] }, () => ({ id: 'u', name: 'u', priceCents: 9 }));
}
class Raw extends Endpoint('/raw') {
  get = this.operation(
    { returns: BytesResponse.of() },
    () => new BytesResponse({ content: Buffer.from('{"status":"ok"}') }),
  );
  post = this.operation(
    { returns: BytesResponse.of() },
    () => new BytesResponse({ content: Buffer.from('<b/>'), contentType: 'image/svg+xml' }),
  );
}
class NoReturns extends Endpoint('/nothing') {
  post = this.operation({}, () => undefined);
}
class BadHeader extends Endpoint('/bad-header') {
  get = this.operation(
    { returns: JSONResponse.of(Widget) },
    () =>
      new JSONResponse({
        json: { id: '', name: '', priceCents: 0 },
        rawHeaders: { 'x-evil': 'a\r\nset-cookie: x=1' },
      }),
  );
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeResource(new Widgets());
    for (const e of [new Shapes(), new Wrappers(), new Union(), new Raw(), new NoReturns(), new BadHeader()])
      this.includeEndpoint(e);
  }
}
const app = (env: Record<string, string> = {}): App => new App({ logger: memoryLogger(), env });

describe('plain returns', () => {
  it('encodes a schema value as JSON with only the declared fields', async () => {
    const c = client(app());
    const res = await c.get('/widgets');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text).toBe('[{"id":"1","name":"a","priceCents":1}]');
    expect(res.headers.get('content-length')).toBe(String(res.body.length));
  });

  it('defaults create to 201 and other operations to 200', async () => {
    const c = client(app());
    expect((await c.post('/widgets')).status).toBe(201);
    expect((await c.get('/widgets/1')).status).toBe(200);
  });

  it('sends strings as text/plain and bytes as octet-stream', async () => {
    const c = client(app());
    const text = await c.get('/shapes');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.text).toBe('plain text ✓');
    const bytes = await c.post('/shapes');
    expect(bytes.headers.get('content-type')).toBe('application/octet-stream');
    expect([...bytes.body]).toEqual([1, 2, 3]);
  });

  it('answers 204 with no content-type and no content-length when nothing is declared', async () => {
    const c = client(app());
    const res = await c.post('/nothing');
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeUndefined();
    expect(res.headers.get('content-length')).toBeUndefined();
  });
});

describe('wrappers', () => {
  it('emits typed headers, cookies, raw headers, Location and Link in that order', async () => {
    const c = client(app());
    const res = await c.get('/wrappers');
    expect(res.status).toBe(203);
    expect(res.json()).toEqual({ id: '1', name: 'n', priceCents: 3 });
    const names = res.multiHeaders
      .map(([k]) => k.toLowerCase())
      .filter((k) => !['date', 'connection', 'keep-alive'].includes(k));
    expect(names).toEqual([
      'content-type',
      'x-trace-id',
      'x-count',
      'x-flag',
      'x-meta',
      'set-cookie',
      'set-cookie',
      'x-raw',
      'x-raw',
      'location',
      'link',
      'content-length',
    ]);
    expect(res.headers.get('x-trace-id')).toBe('t-1');
    expect(res.headers.get('x-count')).toBe('2');
    expect(res.headers.get('x-flag')).toBe('true');
    expect(res.headers.get('x-meta')).toBe('{"a":1}');
    expect(res.multiHeaders.filter(([k]) => k === 'set-cookie').map(([, val]) => val)).toEqual([
      'a=1; Path=/; Secure; HttpOnly; SameSite=Lax',
      'b=2; Path=/; Secure; SameSite=Lax',
    ]);
    expect(res.multiHeaders.filter(([k]) => k === 'X-Raw').map(([, val]) => val)).toEqual(['r1', 'r2']);
    expect(res.headers.get('location')).toBe('/widgets/a%20b%2Fc');
    expect(res.headers.get('link')).toBe(
      '</widgets>; rel="collection", <https://example.com/x>; rel="alternate"; title="Ex \\"ample\\""; type="text/html"',
    );
  });

  it('forces 201 for Created and 202 for Accepted', async () => {
    const c = client(app());
    const created = await c.post('/wrappers');
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/widgets/2');
    expect((await c.put('/wrappers')).status).toBe(202);
  });

  it('sends NoContent at 204 without content headers, and frames other statuses with content-length: 0', async () => {
    const c = client(app());
    const res = await c.delete('/wrappers');
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeUndefined();
    expect(res.headers.get('content-length')).toBeUndefined();
    const other = await c.patch('/wrappers');
    expect(other.status).toBe(200);
    expect(other.headers.get('content-length')).toBe('0');
    expect(other.headers.get('content-type')).toBeUndefined();
    expect(other.headers.get('location')).toBe('https://example.com/a%20b');
  });

  it('dispatches union returns per value', async () => {
    const c = client(app());
    expect((await c.get('/union')).status).toBe(204);
    const plain = await c.post('/union');
    expect(plain.status).toBe(200);
    expect(plain.json()).toEqual({ id: 'u', name: 'u', priceCents: 9 });
  });

  it('sends BytesResponse as octet-stream unless told otherwise', async () => {
    const c = client(app());
    const res = await c.get('/raw');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.text).toBe('{"status":"ok"}');
    expect((await c.post('/raw')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('never lets CR/LF reach a header: the response becomes a 500', async () => {
    const logger = memoryLogger();
    const c = client(new App({ logger }));
    const res = await c.get('/bad-header');
    expect(res.status).toBe(500);
    expect(res.headers.get('set-cookie')).toBeUndefined();
    expect(res.json()).toEqual({
      type: 'internal-server-error',
      title: 'Internal server error',
      status: 500,
    });
  });
});

describe('URL base', () => {
  it('prefixes path-based targets with APP_BASE_URL', async () => {
    const c = client(app({ APP_BASE_URL: 'https://api.example.com/v1/' }));
    expect((await c.post('/wrappers')).headers.get('location')).toBe('https://api.example.com/v1/widgets/2');
    // fromUrl is verbatim
    expect((await c.patch('/wrappers')).headers.get('location')).toBe('https://example.com/a%20b');
  });

  it('rebuilds the origin from X-Forwarded-* with APP_TRUST_FORWARDED, falling back to Host', async () => {
    const c = client(app({ APP_TRUST_FORWARDED: '1' }));
    const res = await c.post('/wrappers', {
      headers: {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'public.example',
        'x-forwarded-port': '8443',
        'x-forwarded-prefix': '/api',
      },
    });
    expect(res.headers.get('location')).toBe('https://public.example:8443/api/widgets/2');
    const fallback = await c.post('/wrappers', { headers: { host: 'internal:9000' } });
    expect(fallback.headers.get('location')).toBe('http://internal:9000/widgets/2');
  });

  it('refuses both variables at once with a WiringError', async () => {
    const c = new TestClient(app({ APP_TRUST_FORWARDED: '1', APP_BASE_URL: 'https://x.example' }));
    const error: unknown = await c.start().catch((e: unknown) => e);
    expect(expectWiringError(error, 'API_WIRING_ENV', 'App').problem).toBe(
      'both APP_BASE_URL and APP_TRUST_FORWARDED are set',
    );
  });
});
