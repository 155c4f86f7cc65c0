// The test app's document through every outside checker: two schema validators, redocly lint,
// openapi-typescript + openapi-fetch, and the contract check over every response this file makes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import createClient from 'openapi-fetch';
import { TestClient } from '@api/testing';
import {
  checkContract,
  documentConformanceTests,
  expectClientTypechecks,
  fetchDocument,
  generateTypes,
  recordingApp,
  recordingFetch,
  redoclyLint,
  typecheckClient,
  validateWithHyperjump,
  validateWithSeriousme,
  type Document,
  type RecordedExchange,
} from './conformance';
import { TestApp } from './fixtures/app';

const AUTH = { authorization: 'Bearer token' };
const exchanges: RecordedExchange[] = [];
let client: TestClient;
let doc: Document;

beforeAll(async () => {
  client = await TestClient.start(recordingApp(new TestApp(), exchanges));
  doc = await fetchDocument(client.url);
});
afterAll(async () => {
  await client?.close();
});

describe('the document', () => {
  documentConformanceTests(() => doc);

  it('is refused by both validators when broken (the checks can fail)', async () => {
    const broken = structuredClone(doc) as Record<string, unknown>;
    const components = broken.components as { schemas: Record<string, Record<string, unknown>> };
    components.schemas.Widget!.type = 'objekt';
    delete (broken.info as Record<string, unknown>).version;
    expect((await validateWithSeriousme(broken as Document)).valid).toBe(false);
    const hyperjump = await validateWithHyperjump(broken as Document);
    expect(hyperjump.valid).toBe(false);
    expect(hyperjump.errors.join('\n')).toContain('/components/schemas/Widget/type');
  });

  it("with openapiVersion '3.2.0', passes both validators as an OpenAPI 3.2 document", async () => {
    const c = await TestClient.start(new TestApp({ openapi: { openapiVersion: '3.2.0' } }));
    try {
      const d32 = await fetchDocument(c.url);
      expect(d32.openapi).toBe('3.2.0');
      for (const report of [await validateWithSeriousme(d32), await validateWithHyperjump(d32)]) {
        expect(report.errors, report.validator).toEqual([]);
      }
    } finally {
      await c.close();
    }
  });

  it('fails redocly lint on an unresolved $ref, an undefined path parameter and a duplicate operationId', async () => {
    const broken = structuredClone(doc) as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    broken.paths['/healthz']!.get!.operationId = 'WidgetResource_create';
    (broken.paths['/me']!.get!.responses as Record<string, unknown>)['200'] = {
      description: 'x',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } },
    };
    broken.paths['/widgets/{widget_id}']!.get!.parameters = [];
    const report = await redoclyLint(broken as unknown as Document);
    expect(report.exitCode).not.toBe(0);
    expect(new Set(report.errors.map((e) => e.ruleId))).toEqual(
      new Set(['operation-operationId-unique', 'no-unresolved-refs', 'path-parameters-defined']),
    );
  }, 60_000);
});

const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1' });
const auth = { authorization: 'Bearer token' };

export async function calls(): Promise<void> {
  const created = await client.POST('/widgets', { body: { name: 'Sprocket', priceCents: 250 }, headers: auth });
  if (created.data) {
    const id: string = created.data.id;
    const price: number = created.data.priceCents;
    void [id, price];
  }
  if (created.error) {
    const code: string = created.error.type;
    void code;
  }
  const one = await client.GET('/widgets/{widget_id}', { params: { path: { widget_id: 'w' } }, headers: auth });
  const name: string | undefined = one.data?.name;
  const list = await client.GET('/widgets', { params: { query: { limit: 10, offset: 0 } }, headers: auth });
  const first: number | undefined = list.data?.[0]?.priceCents;
  const event = await client.GET('/events/latest');
  if (event.data && event.data.type === 'WidgetCreated') {
    const widgetId: string = event.data.widgetId;
    void widgetId;
  }
  const spotlight = await client.GET('/spotlight');
  const who: string | null | undefined = spotlight.data?.personalizedFor;
  const prefs = await client.GET('/prefs', { params: { header: { 'x-trace-id': 't' }, cookie: { theme: 'dark' } } });
  const theme: 'light' | 'dark' | undefined = prefs.data?.theme;
  void [name, first, who, theme];

  // @ts-expect-error the path parameter is widget_id, not id
  await client.GET('/widgets/{widget_id}', { params: { path: { id: 'w' } }, headers: auth });
  // @ts-expect-error priceCents is a number
  await client.POST('/widgets', { body: { name: 'x', priceCents: 'many' }, headers: auth });
  // @ts-expect-error there is no such path
  await client.GET('/widget');
}
`;

describe('openapi-typescript + openapi-fetch', () => {
  let types: string;
  beforeAll(async () => {
    types = await generateTypes(new URL('/openapi.json', client.url));
  }, 60_000);

  it('generates types from the served document', () => {
    expect(types).toContain('"/widgets/{widget_id}"');
    expect(types).toContain('WidgetNotFoundProblem');
  });

  it('type-checks a client, and every @ts-expect-error line holds', async () => {
    await expectClientTypechecks(types, CLIENT);
  }, 60_000);

  it('rejects the wrong path parameter once its @ts-expect-error is removed (the check can fail)', async () => {
    const report = await typecheckClient(
      types,
      CLIENT.replace('  // @ts-expect-error the path parameter is widget_id, not id\n', ''),
    );
    expect(report.ok).toBe(false);
    expect(report.diagnostics).toMatch(/client\.ts\(\d+,\d+\): error TS2353?\d*/);
    expect(report.diagnostics).toContain("'id'");
  }, 60_000);

  it('returns the documented data from the live app', async () => {
    // Typed by hand here: the compile-time side is the test above.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const api = createClient<any>({ baseUrl: client.url, fetch: recordingFetch(exchanges) });
    const created = await api.POST('/widgets', {
      body: { name: 'From client', priceCents: 7 },
      headers: AUTH,
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'From client', priceCents: 7 });
    const id = (created.data as { id: string }).id;
    const one = await api.GET('/widgets/{widget_id}', { params: { path: { widget_id: id } }, headers: AUTH });
    expect(one.data).toEqual({ id, name: 'From client', priceCents: 7 });
    const missing = await api.GET('/widgets/{widget_id}', {
      params: { path: { widget_id: 'nope' } },
      headers: AUTH,
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ type: 'widget-not-found', params: { widgetId: 'nope' } });
    const list = await api.GET('/widgets', { params: { query: { limit: 5 } }, headers: AUTH });
    expect(list.data).toContainEqual({ id, name: 'From client', priceCents: 7 });
    const prefs = await api.GET('/prefs', { params: { header: { 'x-trace-id': 'abc' } } });
    expect(prefs.data).toEqual({ theme: 'light', traceId: 'abc' });
  });
});

describe('contract check', () => {
  /** Requests that produce every documented kind of answer (successes and errors). */
  async function exercise(): Promise<void> {
    const post = (json: unknown, headers: Record<string, string> = AUTH) =>
      client.post('/widgets', { json, headers });
    const created = await post({ name: 'Contract', priceCents: 3 });
    expect(created.status).toBe(201);
    const id = (created.json() as { id: string }).id;
    expect((await post({ name: 'Contract', priceCents: 4 })).status).toBe(409);
    expect((await post({ name: '', priceCents: 4 })).status).toBe(422);
    expect(
      (
        await client.post('/widgets', {
          content: '{"name":',
          headers: { ...AUTH, 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await client.post('/widgets', { content: 'x', headers: { ...AUTH, 'content-type': 'text/plain' } }))
        .status,
    ).toBe(415);
    expect((await post({ name: 'x', priceCents: 1 }, {})).status).toBe(401);
    expect((await post({ name: 'x', priceCents: 1 }, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await client.get('/widgets', { headers: AUTH, params: { limit: 500 } })).status).toBe(400);
    expect((await client.get('/widgets', { headers: AUTH, params: { tag: ['a', 'b'] } })).status).toBe(200);
    expect((await client.get(`/widgets/${id}`, { headers: AUTH })).status).toBe(200);
    expect((await client.get('/widgets/missing', { headers: AUTH })).status).toBe(404);
    expect(
      (await client.put(`/widgets/${id}`, { json: { name: 'Renamed', priceCents: 9 }, headers: AUTH }))
        .status,
    ).toBe(200);
    expect((await client.patch(`/widgets/${id}`, { json: { priceCents: 10 }, headers: AUTH })).status).toBe(
      200,
    );
    expect((await client.delete(`/widgets/${id}`, { headers: AUTH })).status).toBe(200);
    expect((await client.delete(`/widgets/${id}`, { headers: AUTH })).status).toBe(404);
    expect((await client.get('/me', { headers: AUTH })).status).toBe(200);
    expect((await client.get('/me', { headers: { authorization: 'Basic x' } })).status).toBe(401);
    expect((await client.get('/spotlight')).status).toBe(200);
    expect((await client.get('/spotlight', { headers: AUTH })).status).toBe(200);
    expect(
      (await client.get('/spotlight', { headers: { authorization: 'Bearer no-spotlight-token' } })).status,
    ).toBe(204);
    expect((await client.get('/spotlight', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await client.post('/session', { json: { token: 'token' } })).status).toBe(204);
    expect((await client.post('/session', { json: { token: 'bad' } })).status).toBe(401);
    expect((await client.get('/profile', { cookies: { session_id: 'token' } })).status).toBe(200);
    expect((await client.get('/profile')).status).toBe(401);
    expect((await client.delete('/session')).status).toBe(204);
    expect((await client.get('/healthz')).status).toBe(200);
    expect((await client.head('/healthz')).status).toBe(200);
    expect((await client.get('/raw-healthz')).status).toBe(200);
    const form = await client.post('/form', {
      data: { blob: 'hello', count: '2' },
      files: { attachment: { filename: 'a.bin', content: Buffer.from([1, 2, 3]) } },
    });
    expect(form.status).toBe(200);
    expect((await client.post('/form', { json: { blob: 'x' } })).status).toBe(415);
    expect((await client.get('/featured-widget')).status).toBe(200);
    expect((await client.get('/events/latest')).status).toBe(200);
    expect(
      (await client.get('/prefs', { cookies: { theme: 'dark' }, headers: { 'x-trace-id': 't-1' } })).status,
    ).toBe(200);
    expect((await client.get('/prefs', { cookies: { theme: 'blue' } })).status).toBe(400);
    expect((await client.get('/legacy')).status).toBe(410);
    expect((await client.post('/questions', { json: { text: 'what is a widget' } })).status).toBe(200);
    expect((await client.get('/download')).status).toBe(200);
    // Not operations: skipped by the check.
    expect((await client.get('/nowhere')).status).toBe(404);
    expect((await client.get('/docs')).status).toBe(200);
  }

  it('every response the tests produced validates against the declared status, media type and schema', async () => {
    await exercise();
    const report = await checkContract(doc, exchanges);
    expect(report.violations).toEqual([]);
    expect(report.checked).toBeGreaterThan(40);
    for (const pair of [
      'WidgetResource_create 201',
      'WidgetResource_create 400',
      'WidgetResource_create 401',
      'WidgetResource_create 409',
      'WidgetResource_create 415',
      'WidgetResource_create 422',
      'WidgetResource_readOne 404',
      'SpotlightEndpoint_get 204',
      'FormEndpoint_post 200',
      'LegacyEndpoint_get 410',
      'QuestionsEndpoint_post 200',
      'getPreferences 400',
    ]) {
      expect(report.covered, pair).toContain(pair);
    }
    expect(report.skipped).toContain('GET /nowhere → 404');
  }, 60_000);

  it('reports a body that breaks its schema, an undeclared status and an undeclared media type', async () => {
    const json = (value: unknown) => Buffer.from(JSON.stringify(value));
    const report = await checkContract(doc, [
      {
        method: 'GET',
        path: '/healthz',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: json({ status: 1 }),
      },
      {
        method: 'GET',
        path: '/healthz',
        status: 418,
        headers: { 'content-type': 'application/json' },
        body: json({}),
      },
      {
        method: 'GET',
        path: '/healthz',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: Buffer.from('<p>'),
      },
      {
        method: 'GET',
        path: '/widgets/w1',
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
        body: json({ type: 'gone', title: 'x', status: 404 }),
      },
      {
        method: 'POST',
        path: '/questions',
        status: 200,
        headers: { 'content-type': 'application/x-ndjson' },
        body: Buffer.from('{"text":"a"}\n{"txt":"b"}\n'),
      },
    ]);
    expect(report.violations).toHaveLength(5);
    expect(report.violations[0]).toMatch(/^GET \/healthz → 200 application\/json: body does not match/);
    expect(report.violations[1]).toBe(
      'GET /healthz → 418: status 418 is not documented for HealthEndpoint_get',
    );
    expect(report.violations[2]).toMatch(/media type text\/html is not declared/);
    expect(report.violations[3]).toMatch(
      /^GET \/widgets\/w1 → 404 application\/problem\+json: body does not match/,
    );
    expect(report.violations[4]).toMatch(/line 2 does not match/);
  });
});
