// Standard Schema v1 (zod 4, ArkType 2) over a socket: every source binds, validates and answers
// exactly as a valibot route does (statuses, Problem bodies, issue paths), never echoing a value.
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseApp, Created, Endpoint, JSONResponse, Resource, Struct, named } from '../src/index';
import { clientFactory, memoryLogger } from './fixtures';
import { expectWiringError } from './expect-wiring-error';

const client = clientFactory();

const HOSTILE = '<script>alert("secret-token-123")</script>';

const ZItem = z.object({ sku: z.string().min(2), qty: z.number().int().min(1) });
const ZOrder = named(
  'ZOrder',
  z.object({
    customer: z.object({ name: z.string(), email: z.email() }),
    items: z.array(ZItem).min(1),
    kind: z.enum(['retail', 'wholesale']),
    note: z.string().transform((s) => s.length),
  }),
);
const ZQuery = z.object({
  limit: z.coerce.number().int().min(1).default(20),
  strict: z.number().optional(),
  active: z.boolean().optional(),
  tag: z.array(z.string()).optional(),
});
const ZHeaders = z.object({ x_trace_id: z.string().min(3), xCount: z.number().optional() });
const ZCookies = z.object({ session_id: z.string() });
const ZUnique = z.object({ handle: z.string().refine(async (h) => h !== 'taken') });
const ZOut = z.object({ id: z.string(), name: z.string() });

const AOrder = type({
  customer: { name: 'string', email: 'string.email' },
  items: type({ sku: 'string >= 2', qty: 'number.integer >= 1' }).array(),
  kind: "'retail' | 'wholesale'",
});
const AQuery = type({ 'limit?': 'number.integer', 'flag?': 'boolean' });

class ZodOrders extends Endpoint('/zod/orders') {
  post = this.operation({ json: ZOrder, returns: z.unknown() }, ({ json }) => {
    const noteLength: number = json.note; // the transform's output type
    return { ...json, note: noteLength };
  });
  get = this.operation({ params: ZQuery, returns: z.unknown() }, ({ params }) => params);
}
class ZodHeaders extends Endpoint('/zod/headers') {
  get = this.operation({ headers: ZHeaders, cookies: ZCookies, returns: z.unknown() }, (input) => input);
}
class ZodUnique extends Endpoint('/zod/unique') {
  post = this.operation({ json: ZUnique, returns: z.unknown() }, ({ json }) => json);
}
class ZodItems extends Resource('/zod/items') {
  readOne = this.operation(
    { path: z.object({ item_id: z.number().int() }), returns: z.unknown() },
    ({ path }) => ({ itemId: path.item_id }),
  );
}
class ZodOut extends Endpoint('/zod/out') {
  get = this.operation({ params: z.object({ bad: z.boolean().optional() }), returns: ZOut }, ({ params }) =>
    params.bad ? ({ id: 1, name: 'x' } as unknown as { id: string; name: string }) : { id: 'a', name: 'b' },
  );
  post = this.operation(
    {
      json: z.object({ name: z.string() }),
      returns: Created.of(ZOut, { headers: z.object({ x_trace_id: z.string() }) }),
    },
    ({ json }) => new Created({ json: { id: '7', name: json.name }, headers: { x_trace_id: 'tr-1' } }),
  );
  put = this.operation(
    {
      json: z.object({ n: z.number() }),
      returns: JSONResponse.of(z.object({ twice: z.number().transform((n) => n * 2) })),
    },
    ({ json }) => new JSONResponse({ json: { twice: json.n } }),
  );
}
class ZodForm extends Endpoint('/zod/form') {
  post = this.operation(
    {
      form: z.object({ title: z.string(), count: z.number().int(), tags: z.array(z.string()).optional() }),
      returns: z.unknown(),
    },
    ({ form }) => form,
  );
}
class ArkOrders extends Endpoint('/ark/orders') {
  post = this.operation({ json: AOrder, returns: type('unknown') }, ({ json }) => json);
  get = this.operation({ params: AQuery, returns: type('unknown') }, ({ params }) => params);
}
class ArkItems extends Resource('/ark/items') {
  readOne = this.operation(
    { path: type({ item_id: 'number.integer' }), returns: type({ itemId: 'number' }) },
    ({ path }) => ({ itemId: path.item_id }),
  );
}
class Valibot extends Endpoint('/valibot') {
  post = this.operation({ json: Struct('VIn', { n: v.number() }), returns: v.unknown() }, ({ json }) => json);
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new ZodOrders());
    this.includeEndpoint(new ZodHeaders());
    this.includeEndpoint(new ZodUnique());
    this.includeResource(new ZodItems());
    this.includeEndpoint(new ZodOut());
    this.includeEndpoint(new ZodForm());
    this.includeEndpoint(new ArkOrders());
    this.includeResource(new ArkItems());
    this.includeEndpoint(new Valibot());
  }
}
const logger = memoryLogger();
const app = (): App => new App({ logger });

const order = {
  customer: { name: 'Ann', email: 'ann@example.com' },
  items: [{ sku: 'ab', qty: 2 }],
  kind: 'retail',
  note: 'hello',
};

function problem(status: number, path: string, message: string, more: object[] = []): object {
  const type = status === 422 ? 'validation-failed' : 'malformed-request';
  const title = status === 422 ? 'Validation failed' : 'Malformed request';
  const detail = `${message} at \`${path}\``;
  return { type, title, status, detail, params: { reason: detail, issues: [{ path, message }, ...more] } };
}

describe('zod: JSON body', () => {
  it('binds the output (transforms applied)', async () => {
    const res = await client(app()).post('/zod/orders', { json: order });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ...order, note: 5 });
  });

  it('answers 422 with nested and array paths, never echoing hostile values', async () => {
    const res = await client(app()).post('/zod/orders', {
      json: {
        customer: { name: HOSTILE, email: HOSTILE },
        items: [
          { sku: 'ok', qty: 1 },
          { sku: HOSTILE, qty: HOSTILE },
        ],
        kind: HOSTILE,
        note: 'x',
      },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual(
      problem(422, '$.customer.email', 'Invalid email', [
        { path: '$.items[1].qty', message: 'Expected number, got string' },
        { path: '$.kind', message: 'Expected ("retail" | "wholesale"), got string' },
      ]),
    );
    expect(res.text).not.toContain('secret');
    expect(res.text).not.toContain('script');
  });

  it('says a missing field is missing, and an empty array is too small', async () => {
    const res = await client(app()).post('/zod/orders', {
      json: { ...order, items: [], customer: undefined },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual(
      problem(422, '$.customer', 'Missing required field', [
        { path: '$.items', message: 'Invalid min length: expected >=1' },
      ]),
    );
  });

  it('awaits an async refinement: 200 when it passes, 422 when it fails', async () => {
    const c = client(app());
    const ok = await c.post('/zod/unique', { json: { handle: 'free' } });
    expect([ok.status, ok.json()]).toEqual([200, { handle: 'free' }]);
    const taken = await c.post('/zod/unique', { json: { handle: 'taken' } });
    expect(taken.status).toBe(422);
    expect(taken.json()).toEqual(problem(422, '$.handle', 'Invalid value'));
  });

  it('keeps the JSON body rules: 400 malformed, 415 other media type', async () => {
    const c = client(app());
    const bad = await c.post('/zod/orders', {
      content: '{"a":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    const other = await c.post('/zod/orders', { content: 'x', headers: { 'content-type': 'text/plain' } });
    expect(other.status).toBe(415);
  });
});

describe('zod: query, path, headers, cookies', () => {
  it('converts query text by the JSON type (z.number() and z.coerce.number() alike), defaults apply', async () => {
    const c = client(app());
    expect((await c.get('/zod/orders')).json()).toEqual({ limit: 20 });
    expect((await c.get('/zod/orders?limit=5&strict=1.5&active=true&tag=a&tag=b')).json()).toEqual({
      limit: 5,
      strict: 1.5,
      active: true,
      tag: ['a', 'b'],
    });
  });

  it('answers 400 naming the parameter, not the value', async () => {
    const res = await client(app()).get(`/zod/orders?strict=${encodeURIComponent(HOSTILE)}`);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual(problem(400, 'query parameter strict', 'Expected number, got other text'));
    expect(res.text).not.toContain('secret');
  });

  it('binds a path slot as a number; a value that does not convert is a bare 404', async () => {
    const c = client(app());
    const ok = await c.get('/zod/items/12');
    expect([ok.status, ok.json()]).toEqual([200, { itemId: 12 }]);
    const bad = await c.get('/zod/items/abc');
    expect(bad.status).toBe(404);
    expect(bad.text).not.toContain('abc');
  });

  it('binds headers by wire name and cookies by name; a bad header is a 400 naming the header', async () => {
    const c = client(app());
    const ok = await c.get('/zod/headers', {
      headers: { 'x-trace-id': 'abcd', 'x-count': '3', cookie: 'session_id=s1' },
    });
    expect([ok.status, ok.json()]).toEqual([
      200,
      { headers: { x_trace_id: 'abcd', xCount: 3 }, cookies: { session_id: 's1' } },
    ]);
    const bad = await c.get('/zod/headers', { headers: { 'x-trace-id': 'a', cookie: 'session_id=s1' } });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual(
      problem(400, 'header x-trace-id', 'Invalid min length: expected >=3'),
    );
    const noCookie = await c.get('/zod/headers', { headers: { 'x-trace-id': 'abcd' } });
    expect(noCookie.status).toBe(400);
    expect(noCookie.json()).toEqual(problem(400, 'cookie session_id', 'Missing required field'));
  });
});

describe('zod: responses and forms', () => {
  it('validates a returned value and writes it; a mismatch is a logged 500 naming the path', async () => {
    const c = client(app());
    const ok = await c.get('/zod/out');
    expect([ok.status, ok.text]).toEqual([200, '{"id":"a","name":"b"}']);
    const bad = await c.get('/zod/out?bad=true');
    expect(bad.status).toBe(500);
    expect(bad.text).not.toContain('"id":1');
    expect(JSON.stringify(logger.lines)).toContain('$.id');
  });

  it('writes Created with typed headers, and a response transform runs on the way out', async () => {
    const c = client(app());
    const created = await c.post('/zod/out', { json: { name: 'n' } });
    expect([created.status, created.headers.get('x-trace-id'), created.json()]).toEqual([
      201,
      'tr-1',
      { id: '7', name: 'n' },
    ]);
    const twice = await c.put('/zod/out', { json: { n: 4 } });
    expect([twice.status, twice.json()]).toEqual([200, { twice: 8 }]);
  });

  it('binds an urlencoded form (text converted by the JSON type); a bad field is a 422', async () => {
    const c = client(app());
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const ok = await c.post('/zod/form', { content: 'title=Hi&count=3&tags=a&tags=b', headers });
    expect([ok.status, ok.json()]).toEqual([200, { title: 'Hi', count: 3, tags: ['a', 'b'] }]);
    const bad = await c.post('/zod/form', {
      content: `title=Hi&count=${encodeURIComponent(HOSTILE)}`,
      headers,
    });
    expect(bad.status).toBe(422);
    expect(bad.json()).toEqual(problem(422, 'form count', 'Expected number, got other text'));
  });
});

describe('ArkType', () => {
  it('binds a body, query and path', async () => {
    const c = client(app());
    const { note: _note, ...arkOrder } = order;
    const ok = await c.post('/ark/orders', { json: arkOrder });
    expect([ok.status, ok.json()]).toEqual([200, arkOrder]);
    expect((await c.get('/ark/orders?limit=3&flag=false')).json()).toEqual({ limit: 3, flag: false });
    const item = await c.get('/ark/items/9');
    expect([item.status, item.json()]).toEqual([200, { itemId: 9 }]);
    expect((await c.get('/ark/items/x')).status).toBe(404);
  });

  it('answers 422 without the values ArkType quotes in its messages', async () => {
    const res = await client(app()).post('/ark/orders', {
      json: {
        customer: { name: 'A', email: HOSTILE },
        items: [{ sku: HOSTILE, qty: 0 }],
        kind: HOSTILE,
      },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual(
      problem(422, '$.customer.email', 'Invalid email', [
        { path: '$.items[0].qty', message: 'Invalid min value: expected >=1' },
        { path: '$.kind', message: 'Expected ("retail" | "wholesale"), got string' },
      ]),
    );
    expect(res.text).not.toContain('secret');
    expect(res.text).not.toContain('was');
  });

  it('answers 400 for a query value that is not a number', async () => {
    const res = await client(app()).get(`/ark/orders?limit=${encodeURIComponent(HOSTILE)}`);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual(problem(400, 'query parameter limit', 'Expected number, got other text'));
  });
});

describe('valibot keeps its own path', () => {
  it('answers as before', async () => {
    const res = await client(app()).post('/valibot', { json: { n: 'x' } });
    expect(res.json()).toEqual(problem(422, '$.n', 'Expected number, got string'));
  });
});

describe('wiring', () => {
  const mount = (route: object): Promise<unknown> => {
    class W extends BaseApp {
      protected override async wire(): Promise<void> {
        if (route instanceof Resource('/x')) this.includeResource(route as never);
        else this.includeEndpoint(route as never);
      }
    }
    return new W({ logger: memoryLogger() }).start();
  };

  it('refuses a path field with a default', async () => {
    class R extends Resource('/r') {
      // @ts-expect-error -- a compile error too (standard-path.test-d.ts); the run-time check is for JavaScript callers
      readOne = this.operation({ path: z.object({ r_id: z.string().default('x') }) }, () => undefined);
    }
    class W extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeResource(new R());
      }
    }
    const error = await new W({ logger: memoryLogger() }).start().catch((e: unknown) => e);
    expectWiringError(error, 'API_WIRING_PATH_BINDING', /R/);
  });

  it('refuses a query schema whose fields cannot be read (not an object)', async () => {
    class E extends Endpoint('/e') {
      get = this.operation({ params: z.string() as never }, () => undefined);
    }
    const error = await mount(new E()).catch((e: unknown) => e);
    expectWiringError(error, 'API_WIRING_NOT_A_SCHEMA', /E/);
  });

  it('names a model with named(), and refuses a valibot one', () => {
    expectWiringError(() => named('X', v.string() as never), 'API_WIRING_NOT_A_SCHEMA', 'named("X")');
    expectWiringError(() => named('', z.string()), 'API_WIRING_INVALID_ARGUMENT', 'named("")');
  });
});
