// Issue 49 items 1 and 3, found by porting the original's wiring tests and reading the answers on a
// raw socket. 1: a field sent once (content-type, location, etag, server, …) never goes out twice,
// whichever path adds it (hooks, contributions, typed headers, rawHeaders, error headers). 3: a JSON
// array never binds where an object or a record is declared (it is a 422 naming the field).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationRequiredError,
  BytesResponse,
  Created,
  Endpoint,
  ExceptionResponse,
  FormPart,
  HTTPError,
  JSONResponse,
  Location,
  NoContent,
  NotFoundError,
  ServiceUnavailableError,
  Struct,
  defineExceptionHandler,
  defineMiddleware,
} from '../src/index';
import { defineExtension, defineResponseKind, mountOption, type MountOptionValue } from '../src/extension';
import { expectWiringError } from './expect-wiring-error';
import {
  exchangeRaw,
  listen,
  parseResponses,
  raw,
  startupError,
  values,
  type WireResponse,
} from './output-fixtures';

const Item = Struct('Item', { name: v.string() });
class Items extends Endpoint('/items') {
  get = this.operation({ returns: Item }, () => ({ name: 'a' }));
}

/** The head as sent, lower-cased names, without `date` (the one line that changes per second). */
function lines(res: WireResponse): string[] {
  return res.headers.filter(([n]) => n !== 'date').map(([n, val]) => `${n}: ${val}`);
}

const INTERNAL = { type: 'internal-server-error', title: 'Internal server error', status: 500 };
const NOT_FOUND = { type: 'not-found', title: 'Not found', status: 404 };

describe('a header hook never doubles a field the response sends itself', () => {
  it("the issue's middleware (responseHeaders content-type) is a WiringError at startup, was two content-type lines on every answer", async () => {
    const error = await startupError((w) => {
      w.middleware({ responseHeaders: { 'content-type': 'text/plain' } });
      w.endpoint(new Items());
    });
    expect(expectWiringError(error, 'API_WIRING_OWNED_HEADER', 'WiredApp.includeMiddleware').message).toBe(
      'WiredApp.includeMiddleware: responseHeaders sets "content-type", a field each response sends itself (the hook would add a second line to every answer, errors and 404s included). Fix: remove it; the content type is the response declaration\'s (e.g. Text, BytesResponse.of({ contentType })).',
    );
    expect(
      expectWiringError(
        () => defineMiddleware({ responseHeaders: { 'Content-Type': 'text/plain' } }),
        'API_WIRING_OWNED_HEADER',
        'defineMiddleware',
      ).message,
    ).toBe(
      'defineMiddleware: responseHeaders sets "content-type", a field each response sends itself (the hook would add a second line to every answer, errors and 404s included). Fix: remove it; the content type is the response declaration\'s (e.g. Text, BytesResponse.of({ contentType })).',
    );
  });

  it.each([
    ['location', 'remove it; give the response a location (Location.fromPath(…))'],
    ['ETag', 'remove it; set it on the response that describes the body (its headers or rawHeaders)'],
    [
      'last-modified',
      'remove it; set it on the response that describes the body (its headers or rawHeaders)',
    ],
    [
      'content-encoding',
      'remove it; set it on the response that describes the body (its headers or rawHeaders)',
    ],
  ])('a constant middleware header %s is a WiringError too', (name, fix) => {
    const error = expectWiringError(
      () => defineMiddleware({ responseHeaders: { [name]: 'x' } }),
      'API_WIRING_OWNED_HEADER',
      'defineMiddleware',
    );
    expect(error.fix).toBe(fix);
  });

  it('list fields and fields a hook may own stay allowed (vary, cache-control, link, server)', async () => {
    const { port } = await listen((w) => {
      w.middleware({
        responseHeaders: {
          vary: 'accept',
          'cache-control': 'no-store',
          link: '</a>; rel="x"',
          server: 'api',
        },
      });
      w.endpoint(new Items());
    });
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/items', {}, true)));
    expect(lines(res!)).toEqual([
      'content-type: application/json',
      'vary: accept',
      'cache-control: no-store',
      'link: </a>; rel="x"',
      'server: api',
      'content-length: 12',
      'connection: close',
    ]);
  });

  it("a contribution's constant content-type is a WiringError naming the route", async () => {
    const error = await startupError((w) => {
      w.include(
        defineExtension({
          name: 'typed-everything',
          setup: (wiring) => wiring.addContributor(() => ({ headers: [['Content-Type', 'text/plain']] })),
        }),
      );
      w.endpoint(new Items());
    });
    expect(expectWiringError(error, 'API_WIRING_OWNED_HEADER', 'Items.get').message).toBe(
      'Items.get: a contribution (an extension, CORS or middleware) sets the constant response header "content-type", a field each response sends itself (it would go out twice). Fix: remove it; the content type is the response declaration\'s (e.g. Text, BytesResponse.of({ contentType })).',
    );
  });

  it('a computed hook naming content-type fails the answer closed: one content-type line on the 500 and on a 404 (was two)', async () => {
    const { port, log } = await listen((w) => {
      w.middleware(defineMiddleware({ responseHeaders: () => ({ 'content-type': 'text/plain' }) }));
      w.endpoint(new Items());
    });
    const [ok, missing] = parseResponses(
      await exchangeRaw(port, raw('GET', '/items') + raw('GET', '/nowhere', {}, true)),
    );
    expect(ok!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(lines(ok!)).toEqual([
      'content-type: application/problem+json',
      `content-length: ${ok!.body.length}`,
      'connection: keep-alive',
      'keep-alive: timeout=5',
    ]);
    expect(JSON.parse(ok!.body.toString())).toEqual(INTERNAL);
    expect(missing!.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(lines(missing!)).toEqual([
      'content-type: application/problem+json',
      `content-length: ${missing!.body.length}`,
      'connection: close',
    ]);
    expect(JSON.parse(missing!.body.toString())).toEqual(NOT_FOUND);
    expect(log.lines.filter((l) => l.startsWith('error'))).toEqual([
      'error GET /items failed with an uncaught exception',
      'error GET /items: a response-header hook failed while the 500 error answer was assembled (its headers are left out)',
      'error GET /nowhere: a response-header hook failed while the 404 error answer was assembled (its headers are left out)',
    ]);
    expect(String(log.errors[0])).toContain(
      'a response-header hook sets "content-type", a field the response itself sends',
    );
  });

  it('a computed hook adding a field sent once that a constant hook already set fails closed (one server line)', async () => {
    const { port, log } = await listen((w) => {
      w.middleware(defineMiddleware({ responseHeaders: { server: 'api' } }));
      w.endpoint(new Items(), {
        middleware: [defineMiddleware({ responseHeaders: () => ({ Server: 'items' }) })],
      });
    });
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/items', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(values(res!, 'server')).toEqual(['api']);
    expect(String(log.errors[0])).toBe(
      'Error: a response-header hook failed: a response-header hook adds "server", which the answer already carries; it is sent once (two lines are read as one comma-joined value). Fix: set it in one place only.',
    );
  });

  it("a constant hook's field sent once that the response gives itself fails closed; an error answer keeps its own line", async () => {
    class Own extends Endpoint('/own') {
      get = this.operation(
        { returns: JSONResponse.of(Item) },
        () => new JSONResponse({ json: { name: 'a' }, rawHeaders: { Server: 'own' } }),
      );
      post = this.operation({ returns: Item }, (): { name: string } => {
        throw new ServiceUnavailableError().withHeaders({ 'retry-after': '30' });
      });
    }
    const { port, log } = await listen((w) => {
      w.middleware(defineMiddleware({ responseHeaders: { server: 'api', 'retry-after': '5' } }));
      w.endpoint(new Own());
    });
    const [get, post] = parseResponses(
      await exchangeRaw(port, raw('GET', '/own') + raw('POST', '/own', { 'content-length': '0' }, true)),
    );
    expect(get!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(values(get!, 'server')).toEqual(['api']);
    expect(post!.statusLine).toBe('HTTP/1.1 503 Service Unavailable');
    expect(values(post!, 'retry-after')).toEqual(['30']);
    expect(values(post!, 'server')).toEqual(['api']);
    expect(log.lines.filter((l) => l.startsWith('error'))).toEqual([
      'error GET /own failed with an uncaught exception',
      'error POST /own: the 503 error answer keeps its own header',
    ]);
    expect(log.errors.map(String)).toEqual([
      'TypeError: a constant response header hook adds "server", which the answer already carries (its rawHeaders, or an error\'s withHeaders); it is sent once. Fix: set it in one place only.',
      'TypeError: a constant response header hook adds "retry-after", which the answer already carries (its rawHeaders, or an error\'s withHeaders); it is sent once. Fix: set it in one place only.',
    ]);
  });

  it('an error-header hook naming content-type is logged and left out: the 401 keeps one content-type', async () => {
    const gate: MountOptionValue = {
      [mountOption]: () => ({
        before: () => {
          throw new AuthenticationRequiredError();
        },
        errorHeaders: () => [
          ['www-authenticate', 'Bearer'],
          ['content-type', 'text/plain'],
        ],
      }),
    };
    const { port, log } = await listen((w) => w.endpoint(new Items(), { gate } as object));
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/items', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    expect(values(res!, 'content-type')).toEqual(['application/problem+json']);
    expect(values(res!, 'www-authenticate')).toEqual([]);
    expect(log.lines).toContain(
      'error GET /items: an error-header hook failed on the 401 answer (its headers are left out)',
    );
  });

  it("an HTTP error's withHeaders content-type is refused where it is called (a 500 with one content-type)", async () => {
    class Errors extends Endpoint('/errors') {
      get = this.operation({ returns: Item }, (): { name: string } => {
        throw new NotFoundError().withHeaders({ 'Content-Type': 'text/plain' });
      });
    }
    expect(
      expectWiringError(
        () => new NotFoundError().withHeaders({ 'content-type': 'text/plain' }),
        'API_WIRING_OWNED_HEADER',
        'NotFoundError.withHeaders',
      ).message,
    ).toBe(
      'NotFoundError.withHeaders: "content-type" is a field the error answer sends itself (the media type of its rendered body). Fix: remove it; an error adapter decides how errors render.',
    );
    const { port } = await listen((w) => w.endpoint(new Errors()));
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/errors', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(values(res!, 'content-type')).toEqual(['application/problem+json']);
  });
});

describe("a response's own headers never double a field sent once", () => {
  it('typed headers declaring contentType on a JSON response are a WiringError; on bytes they set the one content-type', async () => {
    const Typed = Struct('TypedCT', { contentType: v.string() });
    class Json extends Endpoint('/json') {
      get = this.operation(
        { returns: JSONResponse.of(Item, { headers: Typed }) },
        () => new JSONResponse({ json: { name: 'a' }, headers: { contentType: 'text/plain' } }),
      );
    }
    const error = await startupError((w) => w.endpoint(new Json()));
    expect(expectWiringError(error, 'API_WIRING_OWNED_HEADER', 'Json.get').message).toBe(
      'Json.get: the typed response headers declare "contentType" (sent as "content-type"), but the response sends the content type of its declaration (it would go out twice). Fix: remove it; the content type is the response declaration\'s (e.g. Text, BytesResponse.of({ contentType })).',
    );

    class Blob extends Endpoint('/blob') {
      get = this.operation(
        { returns: BytesResponse.of({ headers: Typed }) },
        () => new BytesResponse({ content: Buffer.from('abc'), headers: { contentType: 'text/csv' } }),
      );
    }
    const { port } = await listen((w) => w.endpoint(new Blob()));
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/blob', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 200 OK');
    expect(values(res!, 'content-type')).toEqual(['text/csv']);
    expect(res!.body.toString()).toBe('abc');
  });

  it('two typed fields sent under one name are a WiringError', async () => {
    const Twice = Struct('Twice', { lastModified: v.string(), last_modified: v.string() });
    class Dated extends Endpoint('/dated') {
      get = this.operation(
        { returns: JSONResponse.of(Item, { headers: Twice }) },
        () => new JSONResponse({ json: { name: 'a' }, headers: { lastModified: 'x', last_modified: 'y' } }),
      );
    }
    const error = await startupError((w) => w.endpoint(new Dated()));
    expect(expectWiringError(error, 'API_WIRING_DUPLICATE', 'Dated.get').message).toBe(
      'Dated.get: the typed response headers declare "lastModified" and "last_modified", both sent as "last-modified". Fix: keep one of them.',
    );
  });

  let rawHeaders: Record<string, string | string[]> | [string, string][] = {};
  let location: Location | undefined;
  class Raw extends Endpoint('/raw') {
    get = this.operation(
      { returns: JSONResponse.of(Item) },
      () =>
        new JSONResponse({
          json: { name: 'a' },
          rawHeaders,
          ...(location ? { location } : {}),
        }),
    );
  }
  class RawBytes extends Endpoint('/raw-bytes') {
    get = this.operation(
      { returns: BytesResponse.of() },
      () => new BytesResponse({ content: Buffer.from('abc'), contentType: 'text/csv', rawHeaders }),
    );
  }

  /** The answer to GET `path` with the handler's rawHeaders (and location) set as given. */
  async function answerWith(
    path: string,
    given: typeof rawHeaders,
    at?: Location,
  ): Promise<{ res: WireResponse; errors: string[] }> {
    rawHeaders = given;
    location = at;
    const { port, log } = await listen((w) => {
      w.endpoint(new Raw());
      w.endpoint(new RawBytes());
    });
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', path, {}, true)));
    rawHeaders = {};
    location = undefined;
    return { res: res!, errors: log.errors.map(String) };
  }

  it('rawHeaders content-type on a JSON response is a logged 500 with one content-type (was application/json, text/plain)', async () => {
    const { res, errors } = await answerWith('/raw', { 'content-type': 'text/plain' });
    expect(res.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(lines(res)).toEqual([
      'content-type: application/problem+json',
      `content-length: ${res.body.length}`,
      'connection: close',
    ]);
    expect(JSON.parse(res.body.toString())).toEqual(INTERNAL);
    expect(errors).toEqual([
      'TypeError: the response\'s rawHeaders adds "content-type", which the answer already carries; it is sent once (two lines are read as one comma-joined value). Fix: remove it; the content type is the response declaration\'s (e.g. Text, BytesResponse.of({ contentType })).',
    ]);
  });

  it('rawHeaders giving a field sent once twice (a list value, repeated pairs, two spellings) is a 500', async () => {
    for (const given of [
      { etag: ['"a"', '"b"'] },
      [
        ['etag', '"a"'],
        ['ETag', '"b"'],
      ] as [string, string][],
      { 'retry-after': '1', 'Retry-After': '2' },
    ]) {
      const { res } = await answerWith('/raw', given);
      expect(res.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
      expect(values(res, 'etag')).toEqual([]);
      expect(values(res, 'retry-after')).toEqual([]);
    }
  });

  it('rawHeaders may repeat a list field, and give one etag', async () => {
    const { res } = await answerWith('/raw', [
      ['vary', 'accept'],
      ['vary', 'origin'],
      ['etag', '"a"'],
    ]);
    expect(res.statusLine).toBe('HTTP/1.1 200 OK');
    expect(lines(res)).toEqual([
      'content-type: application/json',
      'vary: accept',
      'vary: origin',
      'etag: "a"',
      'content-length: 12',
      'connection: close',
    ]);
  });

  it('rawHeaders location beside a location field is a 500, never two locations', async () => {
    const { res } = await answerWith('/raw', { location: '/elsewhere' }, Location.fromPath('/items/1'));
    expect(res.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(values(res, 'location')).toEqual([]);
  });

  it("a BytesResponse's rawHeaders content-type still replaces its default, but only once", async () => {
    const one = await answerWith('/raw-bytes', { 'content-type': 'text/plain' });
    expect(one.res.statusLine).toBe('HTTP/1.1 200 OK');
    expect(values(one.res, 'content-type')).toEqual(['text/plain']);
    const two = await answerWith('/raw-bytes', [
      ['content-type', 'text/plain'],
      ['Content-Type', 'text/html'],
    ]);
    expect(two.res.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(values(two.res, 'content-type')).toEqual(['application/problem+json']);
  });

  it("an intercept's JSONResponse with headers content-type, and an exception handler's, are 500s with one content-type", async () => {
    class Teapot extends HTTPError.define({ type: 'teapot', title: 'Teapot', status: 418 }) {}
    class Brew extends Endpoint('/brew') {
      get = this.operation({ returns: Item }, (): { name: string } => {
        throw new Teapot();
      });
    }
    const { port } = await listen((w) => {
      w.middleware(
        defineMiddleware({
          interceptMethods: ['GET'],
          intercept: (request) =>
            request.path === '/intercepted'
              ? new JSONResponse({ json: { a: 1 }, headers: { 'content-type': 'text/plain' } as never })
              : undefined,
        }),
      );
      w.handler(
        defineExceptionHandler({
          exception: Teapot,
          handleException: () =>
            new ExceptionResponse({
              statusCode: 418,
              json: { short: true },
              headers: { 'content-type': 'text/plain' },
            }),
        }),
      );
      w.endpoint(new Brew());
    });
    const all = parseResponses(
      await exchangeRaw(port, raw('GET', '/intercepted') + raw('GET', '/brew', {}, true)),
    );
    expect(all.map((r) => r.statusLine)).toEqual(Array(2).fill('HTTP/1.1 500 Internal Server Error'));
    for (const res of all) expect(values(res, 'content-type')).toEqual(['application/problem+json']);
  });

  it("a streamed response kind whose value's rawHeaders name content-type is a 500, never two lines", async () => {
    class Lines {
      constructor(readonly rawHeaders: Record<string, string>) {}
    }
    const LinesKind = defineResponseKind<Lines>({
      kind: 'lines',
      cls: Lines,
      schema: undefined,
      headers: undefined,
      status: undefined,
      contentType: 'application/x-ndjson',
      compile: (ctx) => (value, sink) => {
        const head = sink.head(ctx.defaultStatus, 'application/x-ndjson', {
          rawHeaders: (value as Lines).rawHeaders,
        });
        if (!sink.start(ctx.defaultStatus, head)) return;
        sink.end('{"n":1}\n');
      },
    });
    class Streamed extends Endpoint('/lines') {
      get = this.operation({ returns: LinesKind }, () => new Lines({ 'content-type': 'text/plain' }));
    }
    const { port } = await listen((w) => w.endpoint(new Streamed()));
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/lines', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(values(res!, 'content-type')).toEqual(['application/problem+json']);
  });

  it('a NoContent keeps its one rawHeaders content-type where no body type is declared', async () => {
    class Empty extends Endpoint('/empty') {
      get = this.operation(
        { returns: NoContent.of() },
        () => new NoContent({ statusCode: 200, rawHeaders: { 'content-type': 'text/plain' } }),
      );
    }
    const { port } = await listen((w) => w.endpoint(new Empty()));
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/empty', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 200 OK');
    expect(values(res!, 'content-type')).toEqual(['text/plain']);
  });
});

describe('an array never binds where an object or a record is declared', () => {
  const Labels = v.record(v.string(), v.string());
  const Meta = Struct('Meta', { title: v.optional(v.string()), tags: v.optional(v.array(v.string())) });
  class Forms extends Endpoint('/form') {
    post = this.operation(
      { form: Struct('LabelsForm', { labels: Labels }), returns: Created.of(v.unknown()) },
      ({ form }) => new Created({ json: form.labels }),
    );
  }
  class Parts extends Endpoint('/part') {
    post = this.operation(
      { form: Struct('LabelsPart', { labels: FormPart(Labels) }), returns: Created.of(v.unknown()) },
      ({ form }) => new Created({ json: form.labels.value }),
    );
  }
  class Bodies extends Endpoint('/json') {
    post = this.operation(
      {
        json: Struct('LabelsBody', { labels: Labels, metas: v.optional(v.array(Meta)) }),
        returns: Created.of(v.unknown()),
      },
      ({ json }) => new Created({ json }),
    );
  }
  class Metas extends Endpoint('/meta') {
    post = this.operation(
      { json: Meta, returns: Created.of(v.unknown()) },
      ({ json }) => new Created({ json }),
    );
  }
  class Either extends Endpoint('/either') {
    post = this.operation(
      { json: v.union([v.array(v.string()), Labels]), returns: Created.of(v.unknown()) },
      ({ json }) => new Created({ json }),
    );
  }
  class Query extends Endpoint('/query') {
    get = this.operation(
      { params: Struct('LabelsQuery', { labels: v.optional(Labels) }), returns: v.unknown() },
      ({ params }) => params,
    );
  }

  /** One POST on a raw socket (the connection closes after it). */
  async function post(path: string, type: string, body: string): Promise<WireResponse> {
    const { port } = await listen((w) => {
      for (const route of [new Forms(), new Parts(), new Bodies(), new Metas(), new Either(), new Query()])
        w.endpoint(route);
    });
    const request =
      `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: ${type}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
    const [res] = parseResponses(await exchangeRaw(port, request));
    return res!;
  }
  const boundary = 'wire-defects';
  const FORM = `multipart/form-data; boundary=${boundary}`;
  const part = (name: string, text: string): string =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n--${boundary}--\r\n`;
  const invalid = (path: string): unknown => ({
    type: 'validation-failed',
    title: 'Validation failed',
    status: 422,
    detail: `Expected Object, got array at \`${path}\``,
    params: {
      reason: `Expected Object, got array at \`${path}\``,
      issues: [{ path, message: 'Expected Object, got array' }],
    },
  });

  it('the issue\'s form field: a record given the part ["x"] is a 422 naming the field (was 201 with {"0":"x"})', async () => {
    const res = await post('/form', FORM, part('labels', '["x"]'));
    expect(res.statusLine).toBe('HTTP/1.1 422 Unprocessable Entity');
    expect(values(res, 'content-type')).toEqual(['application/problem+json']);
    expect(JSON.parse(res.body.toString())).toEqual(invalid('form labels'));
    const ok = await post('/form', FORM, part('labels', '{"a":"x"}'));
    expect(ok.statusLine).toBe('HTTP/1.1 201 Created');
    expect(ok.body.toString()).toBe('{"a":"x"}');
  });

  it('a FormPart record given a JSON array is a 422 naming the part', async () => {
    const res = await post('/part', FORM, part('labels', '["x"]'));
    expect(res.statusLine).toBe('HTTP/1.1 422 Unprocessable Entity');
    expect(JSON.parse(res.body.toString())).toEqual(invalid('form labels'));
  });

  it('a JSON body: an array for a record field, for a nested Struct, or for the whole body is a 422 with its path', async () => {
    const field = await post('/json', 'application/json', '{"labels":["x"]}');
    expect(field.statusLine).toBe('HTTP/1.1 422 Unprocessable Entity');
    expect(JSON.parse(field.body.toString())).toEqual(invalid('$.labels'));
    const nested = await post('/json', 'application/json', '{"labels":{},"metas":[{"title":"a"},[]]}');
    expect(JSON.parse(nested.body.toString())).toEqual(invalid('$.metas[1]'));
    // A Struct of optional fields took [] as {} (its fast path refused it; valibot did not).
    const whole = await post('/meta', 'application/json', '[]');
    expect(whole.statusLine).toBe('HTTP/1.1 422 Unprocessable Entity');
    expect(JSON.parse(whole.body.toString())).toEqual(invalid('$'));
    const ok = await post('/json', 'application/json', '{"labels":{"a":"x"},"metas":[{"tags":["t"]}]}');
    expect(ok.statusLine).toBe('HTTP/1.1 201 Created');
    expect(ok.body.toString()).toBe('{"labels":{"a":"x"},"metas":[{"tags":["t"]}]}');
  });

  it('a union of an array and a record binds an array as the array, an object as the record', async () => {
    const list = await post('/either', 'application/json', '["x"]');
    expect(list.statusLine).toBe('HTTP/1.1 201 Created');
    expect(list.body.toString()).toBe('["x"]');
    const record = await post('/either', 'application/json', '{"a":"x"}');
    expect(record.body.toString()).toBe('{"a":"x"}');
  });

  it('the query binder never builds an array for a record field: ?labels=["x"] is a 400', async () => {
    const { port } = await listen((w) => w.endpoint(new Query()));
    const [res] = parseResponses(
      await exchangeRaw(port, raw('GET', `/query?labels=${encodeURIComponent('["x"]')}`, {}, true)),
    );
    expect(res!.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(res!.body.toString())).toEqual({
      type: 'malformed-request',
      title: 'Malformed request',
      status: 400,
      detail: 'Expected Object, got other text at `query parameter labels`',
      params: {
        reason: 'Expected Object, got other text at `query parameter labels`',
        issues: [{ path: 'query parameter labels', message: 'Expected Object, got other text' }],
      },
    });
  });
});
