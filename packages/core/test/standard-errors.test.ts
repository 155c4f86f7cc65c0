// Error bodies from Standard Schemas (zod 4, ArkType 2): `StructHTTPError.define` bodies,
// `DataclassHTTPError` params and `ErrorBodyAdapter` schemas answer over a socket as their valibot
// twins do; each definition rule is checked from the library's JSON Schema.
import { type } from 'arktype';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClient } from '@api/testing';
import {
  BaseApp,
  DataclassHTTPError,
  defineExceptionHandler,
  Endpoint,
  ExceptionResponse,
  HTTPError,
  named,
  StructHTTPError,
  type ErrorBodyAdapter,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { clientFactory, memoryLogger } from './fixtures';

const client = clientFactory();

const ZLegacyBody = named(
  'ZLegacyBody',
  z.object({
    code: z.string(),
    message: z.string(),
    httpStatus: z.int(),
    extra: z.object({ thing: z.string() }),
    hint: z.string().optional(),
  }),
);
class ZLegacyError extends StructHTTPError.define(ZLegacyBody, {
  status: 409,
  description: 'Legacy conflict',
  consts: { code: 'E_LEGACY' },
  templates: { message: 'Conflict on {thing}' },
  statusField: 'httpStatus',
  paramsField: 'extra',
  params: z.object({ thing: z.string() }),
}) {}

const ALegacyBody = type({ code: 'string', message: 'string', httpStatus: 'number.integer' });
class ALegacyError extends StructHTTPError.define(ALegacyBody, {
  status: 410,
  consts: { code: 'E_GONE' },
  templates: { message: 'Gone: {what}' },
  statusField: 'httpStatus',
  params: type({ what: 'string' }),
}) {}

const ZThingParams = named('ZThingParams', z.object({ thingId: z.string(), count: z.number() }));
class ZThingMissingError extends DataclassHTTPError.define(ZThingParams, {
  type: 'thing-missing',
  title: 'Thing missing',
  status: 404,
  detailTemplate: 'Thing {thingId} missing ({count})',
}) {}
class AThingMissingError extends DataclassHTTPError.define(type({ thingId: 'string' }), {
  type: 'ark-thing-missing',
  title: 'Thing missing',
  status: 404,
  detailTemplate: 'Thing {thingId} missing',
}) {}
class TeapotError extends HTTPError.define({ type: 'teapot', title: 'I am a teapot', status: 418 }) {}

const HOSTILE = '<script>alert("secret-token-123")</script>';
class UpstreamError extends Error {}

class Raise extends Endpoint('/raise/{what}') {
  get = this.operation({ path: z.object({ what: z.string() }) }, ({ path }) => {
    switch (path.what) {
      case 'zod-struct':
        throw new ZLegacyError({ thing: 'widget', hint: 'retry later' });
      case 'ark-struct':
        throw new ALegacyError({ what: 'the page' });
      case 'zod-params':
        throw new ZThingMissingError({ thingId: 't1', count: 2 });
      case 'ark-params':
        throw new AThingMissingError({ thingId: 't2' });
      case 'upstream':
        throw new UpstreamError(HOSTILE);
      default:
        throw new TeapotError();
    }
  });
}

const handler = defineExceptionHandler({
  exception: UpstreamError,
  returns: [ZLegacyError],
  handleException: () =>
    new ExceptionResponse({
      statusCode: 409,
      json: {
        code: 'E_LEGACY',
        message: 'from the handler',
        httpStatus: 409,
        extra: { thing: 'x' },
        junk: 1,
      },
    }),
});

class App extends BaseApp {
  constructor(
    readonly adapter?: ErrorBodyAdapter,
    logger = memoryLogger(),
  ) {
    super({ logger });
  }
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Raise());
    this.includeExceptionHandler(handler);
    if (this.adapter) this.includeErrorAdapter(this.adapter);
  }
}

describe('StructHTTPError with a Standard Schema body', () => {
  it('renders a zod body: consts, templates, status field, params field (the schema output: undeclared keys stripped)', async () => {
    const res = await client(new App()).get('/raise/zod-struct');
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text).toBe(
      '{"code":"E_LEGACY","message":"Conflict on widget","httpStatus":409,' +
        '"extra":{"thing":"widget"},"hint":"retry later"}',
    );
  });

  it('renders an ArkType body (fields in the order of its JSON Schema)', async () => {
    const res = await client(new App()).get('/raise/ark-struct');
    expect(res.status).toBe(410);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text).toBe('{"code":"E_GONE","httpStatus":410,"message":"Gone: the page"}');
  });

  it("encodes an exception handler's ExceptionResponse with the zod body (its output, declared fields)", async () => {
    const res = await client(new App()).get('/raise/upstream');
    expect(res.status).toBe(409);
    expect(res.text).toBe(
      '{"code":"E_LEGACY","message":"from the handler","httpStatus":409,"extra":{"thing":"x"}}',
    );
    expect(res.text).not.toContain('secret-token');
  });

  it('checks every definition rule from the JSON Schema of the body', () => {
    const Body = named('Body', z.object({ s: z.string(), n: z.number(), i: z.int(), o: z.object({}) }));
    const where = 'StructHTTPError.define(Body)';
    const define = (options: object) => () => StructHTTPError.define(Body, options as { status: 400 });
    expectWiringError(define({ status: 400, consts: { zzz: 'x' } }), 'API_WIRING_ERROR_FIELD', where);
    expectWiringError(
      define({ status: 400, consts: { s: 'x' }, templates: { s: 'y' } }),
      'API_WIRING_DUPLICATE',
      where,
    );
    expect(
      expectWiringError(define({ status: 400, templates: { n: '{x}' } }), 'API_WIRING_ERROR_TEMPLATE', where)
        .problem,
    ).toBe('template on non-string field "n"');
    expect(
      expectWiringError(define({ status: 400, statusField: 'n' }), 'API_WIRING_ERROR_FIELD', where).problem,
    ).toBe('statusField "n" is not an int field');
    expect(
      expectWiringError(define({ status: 400, paramsField: 's' }), 'API_WIRING_ERROR_FIELD', where).problem,
    ).toBe('paramsField "s" is not a Struct-typed field');
    expect(
      define({ status: 400, statusField: 'i', paramsField: 'o', templates: { s: '{x}' } }),
    ).not.toThrow();
    expectWiringError(define({ status: 400, params: z.string() }), 'API_WIRING_NOT_A_SCHEMA', where);
    expect(
      expectWiringError(
        () => StructHTTPError.define(z.string() as never, { status: 400 }),
        'API_WIRING_NOT_A_SCHEMA',
        'StructHTTPError.define(body)',
      ).problem,
    ).toMatch(/^B is a Standard Schema whose object fields cannot be read/);
  });
});

describe('DataclassHTTPError with Standard Schema params', () => {
  it('renders zod params (detail from the template, params written by the schema)', async () => {
    const res = await client(new App()).get('/raise/zod-params');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.text).toBe(
      '{"type":"thing-missing","title":"Thing missing","status":404,"detail":"Thing t1 missing (2)",' +
        '"params":{"thingId":"t1","count":2}}',
    );
  });

  it('renders ArkType params', async () => {
    const res = await client(new App()).get('/raise/ark-params');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({
      type: 'ark-thing-missing',
      title: 'Thing missing',
      status: 404,
      detail: 'Thing t2 missing',
      params: { thingId: 't2' },
    });
  });

  it('checks the template against the params fields read from the JSON Schema', () => {
    const where = "DataclassHTTPError.define({ type: 'x' })";
    const options = { type: 'x', title: 'X', status: 404, detailTemplate: 'No {nope}' } as const;
    expect(
      expectWiringError(
        () => DataclassHTTPError.define(z.object({ id: z.string() }), options),
        'API_WIRING_ERROR_TEMPLATE',
        where,
      ).problem,
    ).toBe('detailTemplate names "{nope}", which is not a params field');
    expectWiringError(
      () => DataclassHTTPError.define(z.string(), { ...options, detailTemplate: 'x' }),
      'API_WIRING_NOT_A_SCHEMA',
      where,
    );
  });
});

describe('ErrorBodyAdapter with a Standard Schema', () => {
  const House = z.object({ error: z.string(), message: z.string() });
  const zodAdapter: ErrorBodyAdapter<typeof House> = {
    schema: House,
    statusField: 'code',
    compose: (error) => ({ error: error.type, message: error.title }),
  };

  it('renders every Problem-family error with a zod body', async () => {
    const c = client(new App(zodAdapter));
    const res = await c.get('/raise/zod-params');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text).toBe('{"error":"thing-missing","message":"Thing missing","code":404}');
    expect((await c.get('/nowhere')).text).toBe('{"error":"not-found","message":"Not found","code":404}');
    // StructHTTPErrors render themselves
    expect((await c.get('/raise/ark-struct')).json()).toMatchObject({ code: 'E_GONE' });
  });

  it('renders with an ArkType body; a composed body the schema refuses falls back to the Problem', async () => {
    const Ark = type({ error: 'string' });
    const ark: ErrorBodyAdapter<typeof Ark> = { schema: Ark, compose: (error) => ({ error: error.type }) };
    expect((await client(new App(ark)).get('/raise/teapot')).text).toBe('{"error":"teapot"}');
    const wrong: ErrorBodyAdapter<typeof Ark> = {
      schema: Ark,
      compose: () => ({ error: 5 as unknown as string }),
    };
    const res = await client(new App(wrong)).get('/raise/teapot');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json()).toEqual({ type: 'teapot', title: 'I am a teapot', status: 418 });
  });

  it('refuses a statusField already on the zod body', async () => {
    const clash: ErrorBodyAdapter<typeof House> = { ...zodAdapter, statusField: 'error' };
    const failed: unknown = await new TestClient(new App(clash)).start().catch((e: unknown) => e);
    expect(expectWiringError(failed, 'API_WIRING_ERROR_FIELD', 'App.includeErrorAdapter').problem).toMatch(
      /^statusField "error" already exists/,
    );
  });
});
