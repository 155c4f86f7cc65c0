import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  BaseApp,
  BaseHTTPError,
  ConflictError,
  DataclassHTTPError,
  defineExceptionHandler,
  Endpoint,
  ExceptionResponse,
  HTTPError,
  NotFoundError,
  SetCookie,
  Struct,
  StructHTTPError,
  WiringError,
  type ErrorBodyAdapter,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { clientFactory, memoryLogger } from './fixtures';

const client = clientFactory();

class TeapotError extends HTTPError.define({
  type: 'teapot',
  title: 'I am a teapot',
  status: 418,
  docs: 'https://docs.example/teapot',
}) {}
const ThingParams = Struct('ThingParams', { thingId: v.string(), count: v.number() });
class ThingMissingError extends DataclassHTTPError.define(ThingParams, {
  type: 'thing-missing',
  title: 'Thing missing',
  status: 404,
  detailTemplate: 'Thing {thingId} missing ({count}) {{literal}}',
}) {}
const LegacyBody = Struct('LegacyBody', {
  code: v.string(),
  message: v.string(),
  httpStatus: v.pipe(v.number(), v.integer()),
  extra: Struct('LegacyExtra', { thing: v.string() }),
});
class LegacyError extends StructHTTPError.define(LegacyBody, {
  status: 409,
  description: 'Legacy conflict',
  consts: { code: 'E_LEGACY' },
  templates: { message: 'Conflict on {thing}' },
  statusField: 'httpStatus',
  paramsField: 'extra',
  params: v.object({ thing: v.string() }),
}) {}
class UpstreamError extends Error {}
class UpstreamTimeoutError extends UpstreamError {}
class BrokenHandlerError extends Error {}

class Raiser extends Endpoint('/raise/teapot') {
  get = this.operation({}, () => {
    throw new TeapotError();
  });
}
class RaiseThing extends Endpoint('/raise/thing') {
  get = this.operation({}, () => {
    throw new ThingMissingError({ thingId: 't1', count: 2 });
  });
}
class RaiseLegacy extends Endpoint('/raise/legacy') {
  get = this.operation({}, () => {
    throw new LegacyError({ thing: 'widget' });
  });
}
class RaiseUpstream extends Endpoint('/raise/upstream') {
  get = this.operation({}, () => {
    throw new UpstreamError('db password is hunter2');
  });
  post = this.operation({}, () => {
    throw new UpstreamTimeoutError('timeout');
  });
}
class RaiseBroken extends Endpoint('/raise/broken') {
  get = this.operation({}, async () => {
    throw new BrokenHandlerError('boom');
  });
}
class RaiseUnknown extends Endpoint('/raise/unknown') {
  get = this.operation({}, () => {
    throw new Error('secret internals at /srv/app.ts:12');
  });
}

const ConflictBody = Struct('ConflictBody', { kind: v.string() });
class App extends BaseApp {
  constructor(private readonly withAdapter?: ErrorBodyAdapter) {
    super({ logger: memoryLogger() });
  }
  protected override async wire(): Promise<void> {
    for (const e of [
      new Raiser(),
      new RaiseThing(),
      new RaiseLegacy(),
      new RaiseUpstream(),
      new RaiseBroken(),
      new RaiseUnknown(),
    ])
      this.includeEndpoint(e);
    this.includeExceptionHandler(
      defineExceptionHandler({
        exception: UpstreamError,
        returns: [
          ExceptionResponse.of(ConflictBody, { headers: Struct('RetryHeaders', { retryAfter: v.number() }) }),
        ],
        handleException: (error) =>
          new ExceptionResponse({
            statusCode: 503,
            json: { kind: error.constructor.name },
            headers: { retryAfter: 5 },
            cookies: [new SetCookie('seen', '1')],
          }),
      }),
    );
    this.includeExceptionHandler(
      defineExceptionHandler({ exception: UpstreamTimeoutError, handleException: () => new ConflictError() }),
    );
    this.includeExceptionHandler(
      defineExceptionHandler({
        exception: BrokenHandlerError,
        handleException: () => {
          throw new Error('the handler itself fails');
        },
      }),
    );
    if (this.withAdapter) this.includeErrorAdapter(this.withAdapter);
  }
}

describe('Problem family', () => {
  it('renders a static error as application/problem+json in key order with docs', async () => {
    const res = await client(new App()).get('/raise/teapot');
    expect(res.status).toBe(418);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.text).toBe(
      '{"type":"teapot","title":"I am a teapot","status":418,"docs":"https://docs.example/teapot"}',
    );
  });

  it('renders a parameterized error with detail and params together', async () => {
    const res = await client(new App()).get('/raise/thing');
    expect(res.status).toBe(404);
    expect(res.text).toBe(
      '{"type":"thing-missing","title":"Thing missing","status":404,"detail":"Thing t1 missing (2) {literal}","params":{"thingId":"t1","count":2}}',
    );
  });

  it('keeps families apart: instanceof reflects the hierarchy', () => {
    const e = new ThingMissingError({ thingId: 'x', count: 1 });
    expect(e).toBeInstanceOf(HTTPError);
    expect(e).toBeInstanceOf(BaseHTTPError);
    expect(e.status).toBe(404);
    expect(String(e)).toBe('Thing x missing (1) {literal}');
    expect(String(new NotFoundError())).toBe('Not found');
    expect(new LegacyError({ thing: 'a' })).not.toBeInstanceOf(HTTPError);
  });

  it('turns an uncaught exception into a 500 that leaks nothing', async () => {
    const res = await client(new App()).get('/raise/unknown');
    expect(res.status).toBe(500);
    expect(res.text).toBe('{"type":"internal-server-error","title":"Internal server error","status":500}');
  });
});

describe('StructHTTPError', () => {
  it('composes its own body from consts, templates, status and params', async () => {
    const res = await client(new App()).get('/raise/legacy');
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.json()).toEqual({
      code: 'E_LEGACY',
      message: 'Conflict on widget',
      httpStatus: 409,
      extra: { thing: 'widget' },
    });
    const params = { thing: 'p' };
    const error = new LegacyError(params);
    expect(error.body).toEqual({
      code: 'E_LEGACY',
      message: 'Conflict on p',
      httpStatus: 409,
      extra: { thing: 'p' },
    });
    expect(params).toEqual({ thing: 'p' });
  });

  it('fails at definition for each rule violation', () => {
    const Body = Struct('Body', { a: v.string(), n: v.number(), s: v.pipe(v.number(), v.integer()) });
    const where = 'StructHTTPError.define(Body)';
    const unknown = () => StructHTTPError.define(Body, { status: 400, consts: { zzz: 'x' } as never });
    expect(expectWiringError(unknown, 'API_WIRING_ERROR_FIELD', where).problem).toBe(
      'consts names unknown field "zzz"',
    );
    const twice = () =>
      StructHTTPError.define(Body, { status: 400, consts: { a: 'x' }, templates: { a: 'y' } });
    expect(expectWiringError(twice, 'API_WIRING_DUPLICATE', where).problem).toMatch(
      /^field "a" is fed twice/,
    );
    const nonString = () => StructHTTPError.define(Body, { status: 400, templates: { n: '{x}' } });
    expect(expectWiringError(nonString, 'API_WIRING_ERROR_TEMPLATE', where).problem).toBe(
      'template on non-string field "n"',
    );
    const notInt = () => StructHTTPError.define(Body, { status: 400, statusField: 'n' });
    expect(expectWiringError(notInt, 'API_WIRING_ERROR_FIELD', where).problem).toBe(
      'statusField "n" is not an int field',
    );
    expect(() => StructHTTPError.define(Body, { status: 400, statusField: 's' })).not.toThrow();
    expectWiringError(
      () => StructHTTPError.define(v.string() as never, { status: 400 }),
      'API_WIRING_NOT_A_SCHEMA',
      /^StructHTTPError\.define/,
    );
  });
});

describe('definition-time checks of Problem errors', () => {
  it('rejects a detailTemplate naming an unknown param and a non-error status', () => {
    const nope = () =>
      DataclassHTTPError.define(ThingParams, {
        type: 'x',
        title: 'X',
        status: 400,
        detailTemplate: '{nope}',
      });
    expect(
      expectWiringError(nope, 'API_WIRING_ERROR_TEMPLATE', /^DataclassHTTPError\.define/).problem,
    ).toMatch(/names "\{nope\}"/);
    const ok = () => HTTPError.define({ type: 'x', title: 'X', status: 200 });
    expect(expectWiringError(ok, 'API_WIRING_STATUS', /^HTTPError\.define/).problem).toMatch(
      /not an error status/,
    );
  });
});

describe('exception handlers', () => {
  it('replaces the exception with an ExceptionResponse (typed headers, cookies)', async () => {
    const res = await client(new App()).get('/raise/upstream');
    expect(res.status).toBe(503);
    expect(res.json()).toEqual({ kind: 'UpstreamError' });
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('set-cookie')).toBe('seen=1; Path=/; Secure; HttpOnly; SameSite=Lax');
    expect(res.text).not.toContain('hunter2');
  });

  it('picks the nearest class in the prototype chain', async () => {
    const res = await client(new App()).post('/raise/upstream');
    expect(res.status).toBe(409);
    expect(res.json()).toEqual({
      type: 'conflict',
      title: 'The request conflicts with the current state of the resource',
      status: 409,
    });
  });

  it('sends the generic 500 when a handler fails, without dispatching again', async () => {
    const res = await client(new App()).get('/raise/broken');
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({
      type: 'internal-server-error',
      title: 'Internal server error',
      status: 500,
    });
  });

  it('rejects a status outside 400–599', () => {
    // A literal outside 400–599 is a type error (see response.test-d.ts); a computed one throws here.
    const computed: number = 302;
    const response = () => new ExceptionResponse({ statusCode: computed, json: {} });
    expect(expectWiringError(response, 'API_WIRING_STATUS', 'ExceptionResponse').problem).toBe(
      'statusCode 302 is outside 400–599',
    );
  });

  it('rejects two handlers for one exception class at wiring', async () => {
    class Dup extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Raiser());
        this.includeExceptionHandler(
          defineExceptionHandler({ exception: UpstreamError, handleException: () => undefined }),
        );
        this.includeExceptionHandler(
          defineExceptionHandler({ exception: UpstreamError, handleException: () => undefined }),
        );
      }
    }
    const error: unknown = await new TestClient(new Dup({ logger: memoryLogger() })).start().catch((e) => e);
    expect(expectWiringError(error, 'API_WIRING_DUPLICATE', 'Dup.includeExceptionHandler').problem).toBe(
      'two handlers for UpstreamError',
    );
  });
});

describe('ErrorBodyAdapter', () => {
  const House = Struct('House', { error: v.string(), message: v.string() });
  const adapter: ErrorBodyAdapter<typeof House> = {
    schema: House,
    statusField: 'code',
    compose: (error) => ({ error: error.type, message: String(error) }),
  };

  it('renders every Problem-family error, including framework ones', async () => {
    const c = client(new App(adapter));
    const thing = await c.get('/raise/thing');
    expect(thing.headers.get('content-type')).toBe('application/json');
    expect(thing.text).toBe(
      '{"error":"thing-missing","message":"Thing t1 missing (2) {literal}","code":404}',
    );
    expect((await c.get('/nowhere')).json()).toEqual({ error: 'not-found', message: 'Not found', code: 404 });
    // StructHTTPErrors render themselves
    expect((await c.get('/raise/legacy')).json()).toMatchObject({ code: 'E_LEGACY' });
  });

  it('falls back to the Problem body when compose fails', async () => {
    const failing: ErrorBodyAdapter<typeof House> = {
      schema: House,
      compose: () => {
        throw new Error('adapter bug');
      },
    };
    const res = await client(new App(failing)).get('/raise/teapot');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json()).toMatchObject({ type: 'teapot', status: 418 });
  });

  it('allows one adapter per app and refuses a statusField already on B', async () => {
    class Twice extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Raiser());
        this.includeErrorAdapter(adapter);
        this.includeErrorAdapter(adapter);
      }
    }
    const twice: unknown = await new TestClient(new Twice({ logger: memoryLogger() }))
      .start()
      .catch((e) => e);
    expect(expectWiringError(twice, 'API_WIRING_DUPLICATE', 'Twice.includeErrorAdapter').problem).toBe(
      'an error adapter is already registered',
    );
    const clash: ErrorBodyAdapter<typeof House> = {
      schema: House,
      statusField: 'error',
      compose: () => ({ error: '', message: '' }),
    };
    const exists: unknown = await new TestClient(new App(clash)).start().catch((e) => e);
    expect(expectWiringError(exists, 'API_WIRING_ERROR_FIELD', 'App.includeErrorAdapter').problem).toMatch(
      /^statusField "error" already exists/,
    );
  });
});
