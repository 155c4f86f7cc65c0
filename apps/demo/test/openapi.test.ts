// The demo's /openapi.json and /docs through @api/openapi's conformance checks, pointed at the
// live demo: two schema validators, redocly lint (the package's redocly.yaml), openapi-typescript
// types + an openapi-fetch client that type-checks and round-trips, the contract check over the
// round trip's responses, and the docs page in headless Chromium (offline; screenshot kept in
// apps/demo/docs/docs-page.png).
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import { launchChromium } from './helpers/chromium';
import {
  checkContract,
  checkDocsPage,
  documentConformanceTests,
  expectClientTypechecks,
  expectOfflineDocsPage,
  fetchDocument,
  generateTypes,
  recordingFetch,
  type Document,
  type RecordedExchange,
} from './helpers/conformance';
import { AUTH, startDemo } from './helpers/demo';

const SCREENSHOT = fileURLToPath(new URL('../docs/docs-page.png', import.meta.url));
/** The round trip's responses, recorded at openapi-fetch's fetch. */
const roundTrip: RecordedExchange[] = [];
let client: TestClient;
let doc: Document;

beforeAll(async () => {
  ({ client } = await startDemo());
  doc = await fetchDocument(client.url);
});
afterAll(async () => {
  await client?.close();
});

describe('GET /openapi.json', () => {
  it('is the Demo API 0.1.0 document (OpenAPI 3.1) listing every HTTP operation of DEMO.md', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({
      title: 'Demo API',
      version: '0.1.0',
      description: expect.stringContaining('The reference app of @api') as unknown,
    });
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { operationId: string }>>,
    ).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(
      [
        'POST /widgets WidgetResource_create',
        'GET /widgets WidgetResource_readMany',
        'GET /widgets/{widget_id} WidgetResource_readOne',
        'PUT /widgets/{widget_id} WidgetResource_updateFull',
        'PATCH /widgets/{widget_id} WidgetResource_updatePartial',
        'DELETE /widgets/{widget_id} WidgetResource_delete',
        'POST /widgets/{widget_id}/reindex ReindexEndpoint_post',
        'GET /featured-widget FeaturedWidgetEndpoint_get',
        'GET /me MeEndpoint_get',
        'GET /spotlight SpotlightEndpoint_get',
        'GET /profile ProfileEndpoint_get',
        'POST /session SessionEndpoint_post',
        'DELETE /session SessionEndpoint_delete',
        'POST /questions QuestionsEndpoint_post',
        'GET /notifications NotificationsEndpoint_get',
        'GET /healthz HealthEndpoint_get',
        'GET /raw-healthz RawHealthEndpoint_get',
        'POST /form-raw-headers FormRawHeadersEndpoint_post',
        // Better Auth's own routes (/api/auth/…) and the MCP SDK's (/mcp-sdk) are mounted fetch
        // handlers: not listed. The @api routes over Better Auth's session are.
        'GET /account AccountEndpoint_get',
        'POST /account/name AccountNameEndpoint_post',
        'POST /v1/uploads UploadEndpoint_post_v1',
      ].sort(),
    );
  });

  it('documents every error: invalid-token on the bearer mounts (the authenticator raises it, listed nowhere else), 409 on create and 503 on reindex (declared: exception handlers are not in the catalogue)', () => {
    type Responses = Record<string, { content?: Record<string, { schema: unknown }> }>;
    const paths = doc.paths as Record<string, Record<string, { responses: Responses }>>;
    const schemaOf = (path: string, method: string, status: string, type = 'application/problem+json') =>
      paths[path]![method]!.responses[status]!.content![type]!.schema;
    expect(schemaOf('/widgets', 'post', '409')).toEqual({ $ref: '#/components/schemas/ConflictProblem' });
    for (const [path, method] of [
      ['/widgets', 'post'],
      ['/widgets', 'get'],
      ['/widgets/{widget_id}', 'delete'],
      ['/widgets/{widget_id}/reindex', 'post'],
      ['/me', 'get'],
      ['/spotlight', 'get'],
    ] as const)
      expect(JSON.stringify(schemaOf(path, method, '401')), `${method} ${path}`).toContain(
        'InvalidTokenProblem',
      );
    expect(schemaOf('/widgets/{widget_id}/reindex', 'post', '503')).toEqual({
      $ref: '#/components/schemas/ServiceUnavailableProblem',
    });
    // Not every operation can 404 `widget-not-found`: only the item routes.
    expect(paths['/widgets']!.post!.responses['404']).toBeUndefined();
    expect(JSON.stringify(schemaOf('/widgets/{widget_id}', 'get', '404'))).toContain('WidgetNotFoundProblem');
  });

  documentConformanceTests(() => doc, { lintTimeoutMs: 90_000 });
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
    const type: string = created.error.type;
    void type;
  }
  const one = await client.GET('/widgets/{widget_id}', { params: { path: { widget_id: 'w' } }, headers: auth });
  const name: string | undefined = one.data?.name;
  const list = await client.GET('/widgets', { params: { query: { limit: 10, offset: 0 } }, headers: auth });
  const first: number | undefined = list.data?.[0]?.priceCents;
  const patched = await client.PATCH('/widgets/{widget_id}', {
    params: { path: { widget_id: 'w' } },
    body: { priceCents: 3 },
    headers: auth,
  });
  const gone = await client.DELETE('/widgets/{widget_id}', { params: { path: { widget_id: 'w' } }, headers: auth });
  const deleted: true | undefined = gone.data?.deleted;
  const reindex = await client.POST('/widgets/{widget_id}/reindex', { params: { path: { widget_id: 'w' } }, headers: auth });
  const queued: true | undefined = reindex.data?.queued;
  const spotlight = await client.GET('/spotlight');
  const who: string | null | undefined = spotlight.data?.personalizedFor;
  const me = await client.GET('/me', { headers: auth });
  const mayFeature: boolean | undefined = me.data?.maySeeSpotlight;
  const session = await client.POST('/session', { body: { token: 'token' } });
  const health = await client.GET('/healthz');
  const status: string | undefined = health.data?.status;
  const notifications = await client.GET('/notifications', {
    params: { header: { 'last-event-id': '1' } },
    parseAs: 'stream',
  });
  void [name, first, patched, deleted, queued, who, mayFeature, session, status, notifications];

  // @ts-expect-error the path parameter is widget_id, not id
  await client.GET('/widgets/{widget_id}', { params: { path: { id: 'w' } }, headers: auth });
  // @ts-expect-error priceCents is a number
  await client.POST('/widgets', { body: { name: 'x', priceCents: 'many' }, headers: auth });
  // @ts-expect-error there is no such path
  await client.GET('/widget');
  // @ts-expect-error POST /session needs a token
  await client.POST('/session', { body: {} });
}
`;

describe('openapi-typescript + openapi-fetch', () => {
  let types: string;
  beforeAll(async () => {
    types = await generateTypes(new URL('/openapi.json', client.url));
  }, 60_000);

  it('generates types for the demo from its served document', () => {
    for (const fragment of [
      '"/widgets/{widget_id}/reindex"',
      '"/notifications"',
      'WidgetNotFoundProblem',
      'ServiceUnavailableProblem',
      'InvalidTokenProblem',
      'ConflictProblem',
    ])
      expect(types).toContain(fragment);
  });

  it('type-checks a client of the demo, and every @ts-expect-error line holds', async () => {
    await expectClientTypechecks(types, CLIENT);
  }, 90_000);

  it('round-trips against the live demo, and every response matches the document (contract check)', async () => {
    // Typed by hand here: the compile-time side is the test above.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const api = createClient<any>({ baseUrl: client.url, fetch: recordingFetch(roundTrip) });
    const created = await api.POST('/widgets', {
      body: { name: 'From client', priceCents: 7 },
      headers: AUTH,
    });
    expect(created.response.status).toBe(201);
    const id = (created.data as { id: string }).id;
    expect(created.data).toEqual({ id, name: 'From client', priceCents: 7 });
    expect(created.response.headers.get('location')).toBe(`/widgets/${id}`);

    const one = await api.GET('/widgets/{widget_id}', { params: { path: { widget_id: id } }, headers: AUTH });
    expect(one.data).toEqual({ id, name: 'From client', priceCents: 7 });
    const list = await api.GET('/widgets', { params: { query: { limit: 5 } }, headers: AUTH });
    expect(list.data).toEqual([{ id, name: 'From client', priceCents: 7 }]);
    const patched = await api.PATCH('/widgets/{widget_id}', {
      params: { path: { widget_id: id } },
      body: { priceCents: 8 },
      headers: AUTH,
    });
    expect(patched.data).toEqual({ id, name: 'From client', priceCents: 8 });
    const reindex = await api.POST('/widgets/{widget_id}/reindex', {
      params: { path: { widget_id: id } },
      headers: AUTH,
    });
    expect(reindex.response.status).toBe(202);
    expect(reindex.data).toEqual({ widgetId: id, queued: true });

    const conflict = await api.POST('/widgets', {
      body: { name: 'From client', priceCents: 1 },
      headers: AUTH,
    });
    expect(conflict.response.status).toBe(409);
    expect(conflict.error).toEqual({
      type: 'conflict',
      title: 'The request conflicts with the current state of the resource',
      status: 409,
    });
    const invalid = await api.POST('/widgets', { body: { name: 'x', priceCents: 1.5 }, headers: AUTH });
    expect(invalid.response.status).toBe(422);
    expect(invalid.error).toEqual({
      type: 'validation-failed',
      title: 'Validation failed',
      status: 422,
      detail: 'Invalid integer at `$.priceCents`',
      params: {
        reason: 'Invalid integer at `$.priceCents`',
        issues: [{ path: '$.priceCents', message: 'Invalid integer' }],
      },
    });
    const missing = await api.GET('/widgets/{widget_id}', {
      params: { path: { widget_id: 'nope' } },
      headers: AUTH,
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({
      type: 'widget-not-found',
      title: 'Widget not found',
      status: 404,
      detail: 'Widget nope not found',
      params: { widgetId: 'nope' },
    });
    const anonymous = await api.GET('/me', {});
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
    const badToken = await api.GET('/widgets', { headers: { authorization: 'Bearer nope' } });
    expect(badToken.response.status).toBe(401);
    expect(badToken.error).toEqual({ type: 'invalid-token', title: 'Invalid token', status: 401 });
    const gone = await api.DELETE('/widgets/{widget_id}', {
      params: { path: { widget_id: id } },
      headers: AUTH,
    });
    expect(gone.data).toEqual({ id, deleted: true });
    const spotlight = await api.GET('/spotlight', {
      headers: { authorization: 'Bearer no-spotlight-token' },
    });
    expect(spotlight.response.status).toBe(204);
    const question = await api.POST('/questions', { body: { text: 'price?' }, parseAs: 'text' });
    expect(question.response.status).toBe(200);
    expect(question.data).toBe(
      'Prices are integers in cents, so 1999 means 19.99.'
        .split(' ')
        .map((w, i) => `${JSON.stringify({ text: i === 0 ? w : ` ${w}` })}\n`)
        .join(''),
    );

    const report = await checkContract(doc, roundTrip);
    expect(report.violations).toEqual([]);
    expect(report.skipped).toEqual([]);
    expect([...report.covered].sort()).toEqual(
      [
        'WidgetResource_create 201',
        'WidgetResource_create 409',
        'WidgetResource_create 422',
        'WidgetResource_readOne 200',
        'WidgetResource_readOne 404',
        'WidgetResource_readMany 200',
        'WidgetResource_readMany 401',
        'WidgetResource_updatePartial 200',
        'WidgetResource_delete 200',
        'ReindexEndpoint_post 202',
        'MeEndpoint_get 401',
        'SpotlightEndpoint_get 204',
        'QuestionsEndpoint_post 200',
      ].sort(),
    );
  }, 60_000);
});

describe('GET /docs in headless Chromium (offline)', () => {
  let browser: Browser;
  /** A demo as `pnpm demo` runs it behind APP_BASE_URL, so the screenshot shows a stable server URL. */
  let docs: TestClient;
  beforeAll(async () => {
    browser = await launchChromium();
    ({ client: docs } = await startDemo({ env: { APP_BASE_URL: 'http://localhost:8000' } }));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await docs?.close();
  });

  it('renders the operation list with zero off-loopback requests, CSP violations or console errors', async () => {
    const report = await checkDocsPage(`${docs.url}/docs`, {
      browser,
      expectText: '/widgets',
      screenshot: SCREENSHOT,
    });
    expectOfflineDocsPage(report);
    expect(report.text).toContain('Demo API');
    expect(report.text).toContain('/widgets/{widget_id}/reindex');
    expect(report.headers['content-security-policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'",
    );
    expect(report.headers['x-content-type-options']).toBe('nosniff');
    expect(report.requests.map((u) => new URL(u).pathname)).toEqual(
      expect.arrayContaining(['/docs', '/docs/scalar/1.72.1/standalone.js', '/openapi.json']),
    );
    expect(report.requests.every((u) => new URL(u).origin === docs.url)).toBe(true);
    expect(report.text).toContain('http://localhost:8000');
  }, 90_000);
});
