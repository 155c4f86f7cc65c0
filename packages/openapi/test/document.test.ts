// What the generated document says, read over HTTP from the test app (and small one-off apps).
import { beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { Endpoint, mountFetch, Resource, Struct, Tag, type ErrorBodyAdapter } from '@api/core';
import {
  defineExtension,
  defineResponseKind,
  WiringError,
  type CustomRoute,
  type Exchange,
  type RouteCatalogue,
  type RouteInfo,
  type Wiring,
} from '@api/core/extension';
import { TestClient } from '@api/testing';
import { buildDocument, openapi } from '../src/index';
import { TestApp } from './fixtures/app';
import { appOf, documentOf, type Json } from './helpers';

let doc: Json;
let app: TestApp;

beforeAll(async () => {
  app = new TestApp();
  const client = await TestClient.start(app);
  doc = (await client.get('/openapi.json')).json();
  await client.close();
});

const op = (path: string, method: string): Json => doc.paths[path][method];
const schemas = (): Json => doc.components.schemas;

describe('top level', () => {
  it('is OpenAPI 3.1.0 with info from the options, a default server and the tags in order', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({
      title: 'Widgets API',
      version: '1.0.0',
      description: "The test app of **@api/openapi**: the demo's shapes and more.",
    });
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(doc.tags).toEqual([
      { name: 'answers', description: 'Streamed answers.' },
      { name: 'events' },
      { name: 'widgets', description: 'Create, read, and manage widgets.' },
      { name: 'users', description: 'Who is calling.' },
      { name: 'session', description: 'Cookie sessions for browsers.' },
      { name: 'system', description: 'Health and diagnostics.' },
    ]);
  });

  it('never lists the document, the docs page, its script, the favicon or unrouted fallbacks', () => {
    const paths = Object.keys(doc.paths);
    expect(paths).not.toContain('/openapi.json');
    expect(paths).not.toContain('/docs');
    expect(paths.some((p) => p.startsWith('/docs/'))).toBe(false);
    expect(paths).not.toContain('/favicon.ico');
    expect(paths).toEqual([
      '/widgets',
      '/widgets/{widget_id}',
      '/me',
      '/spotlight',
      '/profile',
      '/session',
      '/healthz',
      '/raw-healthz',
      '/form',
      '/featured-widget',
      '/events/latest',
      '/prefs',
      '/legacy',
      '/questions',
      '/download',
    ]);
  });

  it('skips custom routes and kinds other than operation (upgrade routes, assets)', async () => {
    const app = appOf((a) => {
      a.include(
        defineExtension({
          name: 'sockets',
          setup(wiring) {
            wiring.addUpgradeRoute({ path: '/socket', owner: 'ChatSocket', handle: () => undefined });
            wiring.addRoute({
              method: 'GET',
              path: '/asset.css',
              owner: 'assets',
              operation: 'asset',
              hidden: true,
              handle: () => undefined,
            });
            wiring.addRoute({
              method: 'GET',
              path: '/custom',
              owner: 'custom',
              operation: 'x',
              handle: () => undefined,
            });
          },
        }),
      );
      a.include(openapi({ title: 'T', version: '1', docsPath: null }));
    });
    const c = await TestClient.start(app);
    try {
      const kinds = (app as unknown as { catalogue: RouteCatalogue }).catalogue.routes.map((r) => r.kind);
      expect(kinds).toContain('upgrade');
      expect((await c.get('/openapi.json')).json()).toMatchObject({ paths: {} });
    } finally {
      await c.close();
    }
    const withCustom = await documentOf(
      (a) => {
        a.includeEndpoint(
          new (class Ping extends Endpoint('/ping') {
            get = this.operation({ returns: v.string() }, () => 'pong');
          })(),
        );
      },
      { docsPath: null },
    );
    expect(Object.keys(withCustom.paths)).toEqual(['/ping']);
  });
});

describe('operations', () => {
  it('take operationId <Class>_<operation>, or the explicit one', () => {
    expect(op('/widgets/{widget_id}', 'get').operationId).toBe('WidgetResource_readOne');
    expect(op('/widgets', 'get').operationId).toBe('WidgetResource_readMany');
    expect(op('/prefs', 'get').operationId).toBe('getPreferences');
  });

  it('take the mount prefix as a suffix, so one class under /v1 and /api/v2 keeps unique ids; prefix routes are left out', async () => {
    const Ok = Struct('Ok', { ok: v.boolean() });
    class Things extends Resource('/things') {
      readMany = this.operation({ returns: v.array(Ok) }, () => []);
    }
    const d = await documentOf((a) => {
      a.includeResource(new Things(), { prefix: '/v1' });
      a.includeResource(new Things(), { prefix: '/api/v2' });
      (a as unknown as { include: (e: unknown) => void }).include(
        mountFetch('/api/auth', () => new Response('auth')),
      );
    });
    expect(Object.keys(d.paths)).toEqual(['/v1/things', '/api/v2/things']);
    expect(d.paths['/v1/things'].get.operationId).toBe('Things_readMany_v1');
    expect(d.paths['/api/v2/things'].get.operationId).toBe('Things_readMany_api_v2');
  });

  it('take summary, tags and deprecated from meta (class tags cascade)', () => {
    expect(op('/widgets', 'post')).toMatchObject({ summary: 'Create a widget.', tags: ['widgets'] });
    expect(op('/legacy', 'get').deprecated).toBe(true);
    expect(op('/healthz', 'get').deprecated).toBeUndefined();
    expect(op('/featured-widget', 'get').tags).toBeUndefined();
  });

  it('extend class tags with operation tags, or replace them with replaceTags', async () => {
    const d = await documentOf((a) => {
      a.includeEndpoint(
        new (class Tagged extends Endpoint('/tagged', {
          meta: { tags: ['a'], description: 'Class prose.' },
        }) {
          get = this.operation({ returns: v.string(), meta: { tags: ['b'] } }, () => '');
          post = this.operation({ returns: v.string(), meta: { tags: ['c'], replaceTags: true } }, () => '');
        })(),
      );
    });
    expect(d.paths['/tagged'].get.tags).toEqual(['a', 'b']);
    expect(d.paths['/tagged'].get.description).toBe('Class prose.');
    expect(d.paths['/tagged'].post.tags).toEqual(['c']);
  });

  it('expand path, query, header and cookie parameters with wire names, required, defaults and constraints', () => {
    expect(op('/widgets/{widget_id}', 'get').parameters).toEqual([
      { name: 'widget_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
    ]);
    expect(op('/widgets', 'get').parameters).toEqual([
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      },
      { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
      { name: 'tag', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } } },
    ]);
    expect(op('/prefs', 'get').parameters).toEqual([
      { name: 'x-trace-id', in: 'header', required: false, schema: { type: 'string', maxLength: 64 } },
      {
        name: 'theme',
        in: 'cookie',
        required: false,
        schema: { enum: ['light', 'dark'], type: 'string', default: 'light' },
      },
    ]);
  });

  it('leave Authorization to the security scheme (never a header parameter)', () => {
    for (const item of Object.values(doc.paths) as Json[]) {
      for (const operation of Object.values(item) as Json[]) {
        for (const p of operation.parameters ?? []) expect(p.name).not.toBe('authorization');
      }
    }
  });

  it('reference JSON request bodies from components, with the example their fields compose', () => {
    expect(op('/widgets', 'post').requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/WidgetIn' },
          examples: { WidgetIn: { value: { name: 'Sprocket', priceCents: 250 } } },
        },
      },
    });
  });

  it('reference form bodies from components too: binary files, JSON parts as $ref with their encoding, part headers', () => {
    expect(op('/form', 'post').requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': {
          schema: { $ref: '#/components/schemas/FormIn' },
          encoding: {
            blob: { headers: { 'x-checksum': { required: false, schema: { type: 'string' } } } },
            meta: { contentType: 'application/json' },
          },
        },
      },
    });
    expect(schemas().FormIn).toEqual({
      type: 'object',
      properties: {
        blob: { type: 'string' },
        count: { type: 'integer' },
        attachment: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' },
        meta: { $ref: '#/components/schemas/FormMeta' },
      },
      required: ['blob'],
    });
    expect(schemas().FormMeta).toEqual({
      type: 'object',
      properties: { label: { type: 'string' } },
      required: ['label'],
    });
  });

  it('keep path-, query-, header- and cookie-only schemas out of components', () => {
    for (const name of [
      'WidgetPath',
      'Page',
      'TraceHeaders',
      'PrefCookies',
      'Credentials',
      'SessionCookies',
    ]) {
      expect(schemas()).not.toHaveProperty(name);
    }
  });
});

describe('form bodies with a bare nested model (core binds one from JSON text)', () => {
  it('document the nested model as a $ref with encoding contentType application/json', () => {
    const Meta = Struct('UploadMeta', { label: v.string() });
    const Upload = Struct('Upload', { meta: Meta, tags: v.optional(v.array(Meta)), note: v.string() });
    const route: RouteInfo = {
      method: 'POST',
      path: '/upload',
      kind: 'operation',
      owner: 'UploadEndpoint',
      ownerClass: undefined,
      operation: 'post',
      spec: { form: Upload },
      classMeta: undefined,
      ref: undefined,
      responses: [],
      defaultStatus: 200,
      mountOptions: {},
      hidden: false,
      facts: new Map(),
      errors: [],
    };
    const catalogue: RouteCatalogue = {
      routes: [route],
      find: () => undefined,
      errorAdapter: undefined,
      exceptionHandlers: [],
    };
    const d = buildDocument(catalogue, { title: 'T', version: '1' }) as Json;
    expect(d.paths['/upload'].post.requestBody.content['multipart/form-data']).toEqual({
      schema: { $ref: '#/components/schemas/Upload' },
      encoding: { meta: { contentType: 'application/json' }, tags: { contentType: 'application/json' } },
    });
    // No file part: core binds it url-encoded too (an HTML form's default), documented beside.
    expect(d.paths['/upload'].post.requestBody.content['application/x-www-form-urlencoded']).toEqual({
      schema: { $ref: '#/components/schemas/Upload' },
    });
    expect(d.components.schemas.Upload.properties).toEqual({
      meta: { $ref: '#/components/schemas/UploadMeta' },
      tags: { type: 'array', items: { $ref: '#/components/schemas/UploadMeta' } },
      note: { type: 'string' },
    });
  });
});

describe('schemas', () => {
  it('come from @valibot/to-json-schema (2020-12) without $schema, with model descriptions', () => {
    expect(schemas().WidgetIn).toEqual({
      type: 'object',
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'Human-readable widget name',
          examples: ['Sprocket'],
        },
        priceCents: { type: 'integer', minimum: 0, description: 'Price in cents', examples: [250] },
      },
      required: ['name', 'priceCents'],
      description: 'The fields needed to create a widget.',
    });
    expect(JSON.stringify(doc)).not.toContain('$schema');
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it('reference nested models under #/components/schemas', () => {
    expect(op('/widgets', 'get').responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Widget' },
    });
    expect(schemas().ErrorReason.properties.issues.items).toEqual({
      $ref: '#/components/schemas/ErrorReasonIssue',
    });
  });

  it('document a tagged union as anyOf + discriminator with mapping', () => {
    expect(op('/events/latest', 'get').responses['200'].content['application/json'].schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/WidgetCreated' }, { $ref: '#/components/schemas/WidgetDeleted' }],
      discriminator: {
        propertyName: 'type',
        mapping: {
          WidgetCreated: '#/components/schemas/WidgetCreated',
          WidgetDeleted: '#/components/schemas/WidgetDeleted',
        },
      },
    });
    expect(schemas().WidgetCreated.properties.type).toEqual({ const: 'WidgetCreated' });
  });

  it('honour a model name override in the component key and every $ref', async () => {
    const Inner = Struct('Inner', { a: v.string() }, { name: 'PublicInner' });
    const d = await documentOf((a) =>
      a.includeEndpoint(
        new (class E extends Endpoint('/x') {
          post = this.operation({ json: Inner, returns: v.array(Inner) }, () => []);
        })(),
      ),
    );
    expect(Object.keys(d.components.schemas)).toContain('PublicInner');
    expect(d.components.schemas).not.toHaveProperty('Inner');
    expect(d.paths['/x'].post.responses['200'].content['application/json'].schema.items).toEqual({
      $ref: '#/components/schemas/PublicInner',
    });
  });

  it('document transforms the converter refuses by their input type, not a crash', async () => {
    const Odd = Struct('Odd', {
      count: v.pipe(v.string(), v.transform(Number), v.number()),
      checked: v.pipe(
        v.string(),
        v.check((s) => s.length > 2),
      ),
      when: v.date(),
      anything: v.custom<string>((x) => typeof x === 'string'),
    });
    const d = await documentOf((a) =>
      a.includeEndpoint(
        new (class E extends Endpoint('/odd') {
          post = this.operation({ json: Odd }, () => undefined);
        })(),
      ),
    );
    expect(d.components.schemas.Odd.properties).toEqual({
      count: { type: 'string' },
      checked: { type: 'string' },
      when: { type: 'string', format: 'date-time' },
      anything: {},
    });
  });
});

describe('responses', () => {
  it('document the success declaration(s): Created at 201 with Location, a 200/204 union', () => {
    expect(op('/widgets', 'post').responses['201']).toEqual({
      description: 'Created',
      headers: {
        location: {
          description: 'The URL of the created resource, when the handler sets one.',
          schema: { type: 'string' },
        },
      },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Widget' },
          examples: { Widget: { value: { id: '9b1f3c1e', name: 'Sprocket', priceCents: 250 } } },
        },
      },
    });
    const spotlight = op('/spotlight', 'get').responses;
    expect(spotlight['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Spotlight',
    });
    expect(spotlight['204']).toEqual({ description: 'No Content' });
    expect(op('/session', 'delete').responses['204']).toEqual({ description: 'No Content' });
    expect(op('/raw-healthz', 'get').responses['200'].content).toEqual({
      'application/octet-stream': {
        schema: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' },
      },
    });
  });

  it('document typed response headers by wire name', () => {
    expect(op('/prefs', 'get').responses['200'].headers).toEqual({
      'x-served-by': { required: true, schema: { type: 'string' } },
      'x-theme': { required: false, schema: { type: 'string' } },
    });
  });

  it('derive 400/401/404/413/415/422/500 from the sources and the mount', () => {
    const statuses = (path: string, method: string): string[] => Object.keys(op(path, method).responses);
    expect(statuses('/widgets', 'post')).toEqual([
      '201',
      '400',
      '401',
      '404',
      '409',
      '413',
      '415',
      '422',
      '500',
    ]);
    // 400 on an operation without inputs: the authenticator's own (a credential header sent twice).
    expect(statuses('/widgets/{widget_id}', 'get')).toEqual(['200', '400', '401', '404', '500']);
    expect(statuses('/healthz', 'get')).toEqual(['200', '500']);
    expect(statuses('/form', 'post')).toEqual(['200', '400', '413', '415', '422', '500']);
    expect(statuses('/prefs', 'get')).toEqual(['200', '400', '500']);
  });

  it('document Problem errors as <Name>Problem components under application/problem+json', () => {
    expect(op('/widgets', 'post').responses['422']).toEqual({
      description: 'Validation failed',
      content: {
        'application/problem+json': { schema: { $ref: '#/components/schemas/ValidationFailedProblem' } },
      },
    });
    expect(schemas().ValidationFailedProblem).toEqual({
      type: 'object',
      description: 'Validation failed (RFC 9457 Problem Details, type "validation-failed").',
      properties: {
        type: { type: 'string', const: 'validation-failed', description: 'A stable machine-readable code.' },
        title: { type: 'string', examples: ['Validation failed'] },
        status: { type: 'integer', const: 422 },
        detail: { type: 'string' },
        params: { $ref: '#/components/schemas/ErrorReason' },
      },
      required: ['type', 'title', 'status', 'detail', 'params'],
    });
    expect(schemas().ConflictProblem.properties.status).toEqual({ type: 'integer', const: 409 });
    expect(schemas().ConflictProblem.required).toEqual(['type', 'title', 'status']);
    expect(schemas().WidgetNotFoundProblem.properties.params).toEqual({
      $ref: '#/components/schemas/WidgetNotFoundParams',
    });
  });

  it('join several errors on one status into oneOf, descriptions joined " / "', () => {
    expect(op('/me', 'get').responses['401']).toEqual({
      description: 'Authentication required / Invalid token',
      content: {
        'application/problem+json': {
          schema: {
            oneOf: [
              { $ref: '#/components/schemas/AuthenticationRequiredProblem' },
              { $ref: '#/components/schemas/InvalidTokenProblem' },
            ],
          },
        },
      },
    });
  });

  it('let a declared exception replace the derived error of its status (not the ones the mount raises)', () => {
    // WidgetNotFoundError (404) is declared on the resource: the generic not-found of a path is not listed.
    expect(op('/widgets/{widget_id}', 'get').responses['404']).toEqual({
      description: 'Widget not found',
      content: {
        'application/problem+json': { schema: { $ref: '#/components/schemas/WidgetNotFoundProblem' } },
      },
    });
    expect(schemas()).not.toHaveProperty('NotFoundProblem');
    // The authenticator raises authentication-required and invalid-token (its `raises`), on every
    // operation of the mount, declared nowhere in meta.
    for (const [path, method] of [
      ['/widgets', 'post'],
      ['/widgets', 'get'],
      ['/widgets/{widget_id}', 'delete'],
      ['/spotlight', 'get'],
    ])
      expect(op(path!, method!).responses['401'].content['application/problem+json'].schema).toEqual({
        oneOf: [
          { $ref: '#/components/schemas/AuthenticationRequiredProblem' },
          { $ref: '#/components/schemas/InvalidTokenProblem' },
        ],
      });
    // The cookie authenticator raises only its own 401.
    expect(op('/profile', 'get').responses['401']).toEqual({
      description: 'Authentication required',
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/AuthenticationRequiredProblem' },
        },
      },
    });
  });

  it('document a StructHTTPError as its own component: its body Struct with its consts and status field pinned', () => {
    expect(op('/legacy', 'get').responses['410']).toEqual({
      description: 'The legacy endpoint is gone',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/LegacyGoneError' } } },
    });
    expect(schemas().LegacyGoneError).toEqual({
      allOf: [
        { $ref: '#/components/schemas/LegacyBody' },
        {
          type: 'object',
          properties: { code: { const: 'E410' }, httpStatus: { type: 'integer', const: 410 } },
          required: ['code', 'httpStatus'],
        },
      ],
      description: 'The legacy endpoint is gone',
    });
    expect(schemas().LegacyBody.required).toEqual(['code', 'message', 'httpStatus']);
  });

  it('let an explicit responses entry win over the derived one for its status', () => {
    expect(op('/download', 'get').responses['200']).toEqual({
      description: 'The widgets as CSV.',
      content: { 'text/csv': {} },
    });
  });

  it('document a stream kind by its item schema under its media type', () => {
    expect(op('/questions', 'post').responses['200'].content).toEqual({
      'application/x-ndjson': { schema: { $ref: '#/components/schemas/Answer' } },
    });
  });

  it("emit itemSchema for streams with openapiVersion '3.2.0' (SSE items as events)", async () => {
    const Tick = Struct('Tick', { n: v.number() });
    const sse = defineResponseKind<AsyncIterable<unknown>>({
      kind: 'sse',
      cls: undefined,
      schema: Tick,
      headers: undefined,
      status: undefined,
      contentType: 'text/event-stream',
      compile: () => () => undefined,
    });
    const bytes = defineResponseKind<AsyncIterable<Uint8Array>>({
      kind: 'stream',
      cls: undefined,
      schema: undefined,
      headers: undefined,
      status: undefined,
      contentType: 'application/octet-stream',
      compile: () => () => undefined,
    });
    const mount = (a: { includeEndpoint: (e: object) => void }): void => {
      a.includeEndpoint(
        new (class Ticks extends Endpoint('/ticks') {
          get = this.operation({ returns: sse }, () => (async function* () {})());
        })(),
      );
      a.includeEndpoint(
        new (class Blob extends Endpoint('/blob') {
          get = this.operation({ returns: bytes }, () => (async function* () {})());
        })(),
      );
    };
    const d31 = await documentOf(mount);
    expect(d31.paths['/ticks'].get.responses['200'].content).toEqual({
      'text/event-stream': { schema: { $ref: '#/components/schemas/Tick' } },
    });
    const d32 = await documentOf(mount, { openapiVersion: '3.2.0' });
    expect(d32.openapi).toBe('3.2.0');
    expect(d32.paths['/ticks'].get.responses['200'].content['text/event-stream']).toEqual({
      itemSchema: {
        type: 'object',
        properties: {
          event: { type: 'string' },
          id: { type: 'string' },
          retry: { type: 'integer', minimum: 0 },
          data: {
            type: 'string',
            contentMediaType: 'application/json',
            contentSchema: { $ref: '#/components/schemas/Tick' },
          },
        },
        required: ['data'],
      },
    });
    expect(d32.paths['/blob'].get.responses['200'].content['application/octet-stream']).toEqual({
      schema: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' },
    });
  });

  it('follow the error adapter: Problem errors document its body under application/json', async () => {
    const House = Struct('HouseError', { code: v.string(), message: v.string() });
    const adapter: ErrorBodyAdapter<typeof House> = {
      schema: House,
      statusField: 'httpStatus',
      compose: (e) => ({ code: e.type, message: String(e) }),
    };
    const d = buildDocument(app.catalogue, { title: 'T', version: '1', errorAdapter: adapter }) as Json;
    expect(d.paths['/widgets/{widget_id}'].get.responses['404']).toEqual({
      description: 'Widget not found',
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/HouseError' },
              {
                type: 'object',
                properties: { httpStatus: { type: 'integer', const: 404 } },
                required: ['httpStatus'],
              },
            ],
          },
        },
      },
    });
    expect(d.components.schemas).not.toHaveProperty('NotFoundProblem');
    // StructHTTPErrors still render themselves.
    expect(Object.keys(d.paths['/legacy'].get.responses['410'].content)).toEqual(['application/json']);
  });
});

describe('security', () => {
  it('comes from the authenticators: bearerAuth, an apiKey cookie, anonymous-accepting adds {}', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiKeyAuth: { type: 'apiKey', name: 'session_id', in: 'cookie' },
    });
    expect(op('/widgets', 'post').security).toEqual([{ bearerAuth: [] }]);
    expect(op('/spotlight', 'get').security).toEqual([{ bearerAuth: [] }, {}]);
    expect(op('/profile', 'get').security).toEqual([{ apiKeyAuth: [] }]);
    expect(op('/healthz', 'get').security).toEqual([]);
  });

  it('keeps the derived 401 in both cases', () => {
    expect(op('/spotlight', 'get').responses).toHaveProperty('401');
    expect(op('/profile', 'get').responses).toHaveProperty('401');
  });

  it('renders basicAuth and explicit SecuritySchemes', async () => {
    const { basicAuth, bearerAuth, SecurityScheme } = await import('@api/auth');
    const U = Struct('U', { id: v.string() });
    const H = Struct('H', { authorization: v.string() });
    const basic = basicAuth({ headers: H, user: U, authenticate: () => ({ id: 'x' }) });
    const keyed = bearerAuth({
      headers: Struct('K', { x_api_key: v.string() }),
      user: U,
      openapiSecurity: SecurityScheme.apiKey({
        name: 'x-api-key',
        location: 'header',
        description: 'Issued on request.',
      }),
      authenticate: () => ({ id: 'x' }),
    });
    const jwt = bearerAuth({
      headers: H,
      user: U,
      openapiSecurity: SecurityScheme.httpBearer({ bearerFormat: 'JWT', schemeName: 'jwt' }),
      authenticate: () => ({ id: 'x' }),
    });
    const d = await documentOf((a) => {
      a.includeEndpoint(
        new (class A extends Endpoint('/a') {
          get = this.operation({ returns: U, user: U }, ({ user }) => user);
        })(),
        { auth: basic },
      );
      a.includeEndpoint(
        new (class B extends Endpoint('/b') {
          get = this.operation({ returns: U, user: U }, ({ user }) => user);
        })(),
        { auth: keyed },
      );
      a.includeEndpoint(
        new (class C extends Endpoint('/c') {
          get = this.operation({ returns: U, user: U }, ({ user }) => user);
        })(),
        { auth: jwt },
      );
    });
    expect(d.components.securitySchemes).toEqual({
      basicAuth: { type: 'http', scheme: 'basic' },
      apiKeyAuth: { type: 'apiKey', name: 'x-api-key', in: 'header', description: 'Issued on request.' },
      jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
    expect(d.paths['/c'].get.security).toEqual([{ jwt: [] }]);
  });
});

describe('examples', () => {
  const Created = Struct('Created', { id: v.pipe(v.string(), v.examples(['c-1'])) }, { tag: true });
  const Removed = Struct(
    'Removed',
    { id: v.pipe(v.string(), v.examples(['r-1'])), reason: v.optional(v.string()) },
    { tag: true },
  );
  const Plain = Struct('Plain', { id: v.string(), note: v.optional(v.string()) });

  it('compose one example per union member, named after it; none for a model whose fields declare none', async () => {
    const d = await documentOf((a) => {
      a.includeEndpoint(
        new (class Events extends Endpoint('/events') {
          get = this.operation({ returns: v.union([Created, Removed]) }, () => ({
            type: 'Created' as const,
            id: 'x',
          }));
        })(),
      );
      a.includeEndpoint(
        new (class P extends Endpoint('/plain') {
          get = this.operation({ returns: Plain }, () => ({ id: 'x' }));
        })(),
      );
    });
    expect(d.paths['/events'].get.responses['200'].content['application/json'].examples).toEqual({
      Created: { value: { type: 'Created', id: 'c-1' } },
      Removed: { value: { type: 'Removed', id: 'r-1' } },
    });
    expect(d.paths['/plain'].get.responses['200'].content['application/json']).toEqual({
      schema: { $ref: '#/components/schemas/Plain' },
    });
  });

  it('take the examples a body declares itself, every one of them', async () => {
    const Body = v.pipe(Plain, v.examples([{ id: 'a' }, { id: 'b', note: 'second' }]));
    const d = await documentOf((a) =>
      a.includeEndpoint(
        new (class Q extends Endpoint('/q') {
          post = this.operation({ json: Body, returns: Plain }, ({ json }) => json);
        })(),
      ),
    );
    expect(d.paths['/q'].post.requestBody.content['application/json'].examples).toEqual({
      example: { value: { id: 'a' } },
      example2: { value: { id: 'b', note: 'second' } },
    });
  });

  it('refuse an example that does not match its own schema (WiringError naming the model, not the value)', async () => {
    const Bad = Struct('Bad', { n: v.pipe(v.number(), v.minValue(10), v.examples([3])) });
    const app = appOf((a) => {
      a.includeEndpoint(
        new (class B extends Endpoint('/b') {
          get = this.operation({ returns: Bad }, () => ({ n: 10 }));
        })(),
      );
      a.include(openapi({ title: 'T', version: '1', docsPath: null }));
    });
    const error = await app.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    await app.close();
    expect(error).toBeInstanceOf(WiringError);
    expect((error as Error).message).toBe(
      'B.get: the example "Bad" of Bad does not match its schema (Invalid min value: expected >=10 at `$.n`). Fix: correct the v.examples([...]) of the model or of the field it names.',
    );
  });
});

describe('security of cookie and hybrid authenticators', () => {
  const U = Struct('U', { id: v.string() });

  it('documents a hybrid authenticator as alternatives: bearer, or an API key in its cookie', async () => {
    const { hybridAuth } = await import('@api/auth');
    const hybrid = hybridAuth({
      headers: Struct('MaybeBearer', { authorization: v.optional(v.string()) }),
      cookies: Struct('MaybeSession', { sid: v.optional(v.string()) }),
      user: U,
      authenticate: () => ({ id: 'x' }),
    });
    const anonymous = hybridAuth({
      headers: Struct('MaybeBearer', { authorization: v.optional(v.string()) }),
      cookies: Struct('MaybeSession', { sid: v.optional(v.string()) }),
      user: v.nullable(U),
      authenticate: () => null,
    });
    const d = await documentOf((a) => {
      a.includeEndpoint(
        new (class H extends Endpoint('/h') {
          get = this.operation({ returns: U, user: U }, ({ user }) => user);
        })(),
        { auth: hybrid },
      );
      a.includeEndpoint(
        new (class M extends Endpoint('/m') {
          get = this.operation({ returns: U, user: v.nullable(U) }, () => ({ id: 'anonymous' }));
        })(),
        { auth: anonymous },
      );
    });
    expect(d.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiKeyAuth: { type: 'apiKey', name: 'sid', in: 'cookie' },
    });
    expect(d.paths['/h'].get.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }]);
    expect(d.paths['/m'].get.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }, {}]);
  });

  it('documents the 401 of another make of authenticator that only states its auth fact (no raises)', async () => {
    const { SecurityScheme } = await import('@api/auth');
    const { mountOption } = await import('@api/core/extension');
    const scheme = SecurityScheme.httpBearer();
    const homemade = {
      [mountOption]: () => ({ facts: { auth: { anonymous: false, security: [scheme] } } }),
    };
    const d = await documentOf((a) =>
      a.includeEndpoint(
        new (class Home extends Endpoint('/home') {
          get = this.operation({ returns: U }, () => ({ id: 'x' }));
        })(),
        { auth: homemade },
      ),
    );
    expect(d.paths['/home'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(d.paths['/home'].get.responses['401'].content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/AuthenticationRequiredProblem',
    });
  });

  it('documents openapiSecurity given as a list of alternatives', async () => {
    const { cookieAuth, SecurityScheme } = await import('@api/auth');
    const twoCookies = cookieAuth({
      cookies: Struct('TwoCookies', { sid: v.string(), device: v.string() }),
      user: U,
      openapiSecurity: [
        SecurityScheme.apiKey({ name: 'sid', location: 'cookie', schemeName: 'session' }),
        SecurityScheme.apiKey({ name: 'x-api-key', location: 'header', schemeName: 'key' }),
      ],
      authenticate: () => ({ id: 'x' }),
    });
    const d = await documentOf((a) =>
      a.includeEndpoint(
        new (class T extends Endpoint('/t') {
          get = this.operation({ returns: U, user: U }, ({ user }) => user);
        })(),
        { auth: twoCookies },
      ),
    );
    expect(d.paths['/t'].get.security).toEqual([{ session: [] }, { key: [] }]);
    expect(d.components.securitySchemes).toEqual({
      session: { type: 'apiKey', name: 'sid', in: 'cookie' },
      key: { type: 'apiKey', name: 'x-api-key', in: 'header' },
    });
  });
});

describe('document-level options', () => {
  it('take servers and a Tag list; a bare name and a described Tag agree', async () => {
    const d = await documentOf(
      (a) =>
        a.includeResource(
          new (class R extends Resource('/r', { meta: { tags: ['things'] } }) {
            readMany = this.operation({ returns: v.array(v.string()) }, () => []);
          })(),
        ),
      {
        servers: ['https://api.example.com', { url: 'http://localhost:8000', description: 'local' }],
        tags: [new Tag('things', 'All the things.')],
      },
    );
    expect(d.servers).toEqual([
      { url: 'https://api.example.com' },
      { url: 'http://localhost:8000', description: 'local' },
    ]);
    expect(d.tags).toEqual([{ name: 'things', description: 'All the things.' }]);
  });

  it('defaults servers to APP_BASE_URL when it is set', async () => {
    process.env.APP_BASE_URL = 'https://widgets.example.com/api/';
    try {
      const d = await documentOf(() => undefined, { docsPath: null });
      expect(d.servers).toEqual([{ url: 'https://widgets.example.com/api' }]);
    } finally {
      delete process.env.APP_BASE_URL;
    }
  });

  it('documents an app with no operations as an empty paths object', async () => {
    const d = await documentOf(() => undefined);
    expect(d.paths).toEqual({});
    expect(d).not.toHaveProperty('components');
  });

  it('builds the same document from buildDocument(app.catalogue) as it serves', () => {
    const built = buildDocument(app.catalogue, {
      title: 'Widgets API',
      version: '1.0.0',
      description: "The test app of **@api/openapi**: the demo's shapes and more.",
      tags: [new Tag('answers', 'Streamed answers.'), 'events'],
    });
    expect(JSON.parse(JSON.stringify(built))).toEqual(doc);
  });
});

describe('an app-level error adapter', () => {
  it('is read from the catalogue the extension receives (catalogue.errorAdapter)', async () => {
    // Core is adding `errorAdapter` to the catalogue; this drives the extension with a catalogue
    // that carries it, through the same Wiring surface core gives every extension.
    const House = Struct('HouseError', { code: v.string() });
    const routes: CustomRoute[] = [];
    let wired: ((c: RouteCatalogue) => void | Promise<void>) | undefined;
    const wiring = {
      appName: 'Fake',
      env: {},
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      addRoute: (r: CustomRoute) => routes.push(r),
      onWired: (cb: (c: RouteCatalogue) => void) => (wired = cb),
      fail: (where: string, problem: string, fix: string) => {
        throw new WiringError(`${where}: ${problem}. Fix: ${fix}.`);
      },
    } as unknown as Wiring;
    openapi({ title: 'T', version: '1', docsPath: null }).setup(wiring);
    const adapter: ErrorBodyAdapter = { schema: House, compose: (e) => ({ code: e.type }) };
    await wired!({
      routes: app.catalogue.routes,
      find: app.catalogue.find,
      errorAdapter: adapter,
    } as RouteCatalogue);
    let body: Uint8Array | string | undefined;
    const route = routes.find((r) => r.operation === 'document')!;
    await route.handle(
      {
        req: { headers: {} },
        send: (_status: number, _headers: string[], b?: Uint8Array | string) => (body = b),
      } as unknown as Exchange,
      {},
    );
    const d = JSON.parse(Buffer.from(body as Uint8Array).toString('utf8')) as Json;
    expect(d.paths['/widgets/{widget_id}'].get.responses['404'].content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/HouseError' } },
    });
  });
});
