// Issue 22 item 1: framing is the framework's. content-length, transfer-encoding, connection,
// keep-alive, upgrade and trailer never reach the wire as app code gave them: a static one is a
// WiringError at startup, a run-time one a logged 500. Raw sockets, so every byte is seen.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  BytesResponse,
  Endpoint,
  ExceptionResponse,
  HTTPError,
  JSONResponse,
  NoContent,
  NotFoundError,
  Struct,
  WiringError,
  defineExceptionHandler,
  defineMiddleware,
} from '../src/index';
import { defineExtension, defineResponseKind, type ResponseSpec } from '../src/extension';
import { expectWiringError } from './expect-wiring-error';
import { exchangeRaw, listen, parseResponses, raw, startupError, values, type Wire } from './output-fixtures';

const Item = Struct('Item', { name: v.string() });

/** A test response kind written line by line through the sink (what a stream does). */
class Lines {
  constructor(
    readonly lines: readonly string[],
    readonly rawHeaders?: Record<string, string>,
    readonly extra: string[] = [],
  ) {}
}
const LinesKind: ResponseSpec<Lines> = defineResponseKind<Lines>({
  kind: 'lines',
  cls: Lines,
  schema: undefined,
  headers: undefined,
  status: undefined,
  contentType: 'application/x-ndjson',
  compile: (ctx) => async (value, sink) => {
    const lines = value as Lines;
    const head = sink.head(ctx.defaultStatus, 'application/x-ndjson', { rawHeaders: lines.rawHeaders });
    head.push(...lines.extra);
    if (!sink.start(ctx.defaultStatus, head)) return;
    for (const line of lines.lines) {
      sink.write(`${line}\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    sink.end();
  },
});

let rawHeaders: Record<string, string> = {};
let extra: string[] = [];
class Framed extends Endpoint('/framed') {
  get = this.operation(
    { returns: JSONResponse.of(Item) },
    () => new JSONResponse({ json: { name: 'widget' }, rawHeaders }),
  );
}
class Streamed extends Endpoint('/lines') {
  get = this.operation(
    { returns: LinesKind },
    () => new Lines(['{"n":1}', '{"n":2}', '{"n":3}'], rawHeaders, extra),
  );
}
class Plain extends Endpoint('/plain') {
  get = this.operation({ returns: Item }, () => ({ name: 'next' }));
}

function wireAll(w: Wire): void {
  w.endpoint(new Framed());
  w.endpoint(new Streamed());
  w.endpoint(new Plain());
}

/** The examples: what the wire carries for one raw header given by the handler. */
async function framedWith(
  headers: Record<string, string>,
  path: string,
): Promise<ReturnType<typeof parseResponses>> {
  rawHeaders = headers;
  const { port, log } = await listen(wireAll);
  // Two requests on one keep-alive connection: the second answer must be read whole, as sent.
  const data = await exchangeRaw(port, raw('GET', path) + raw('GET', '/plain', {}, true));
  rawHeaders = {};
  const responses = parseResponses(data);
  expect(log.lines.filter((l) => l.startsWith('error'))).toHaveLength(1);
  return responses;
}

describe('framing headers given at run time', () => {
  it('a JSONResponse with rawHeaders content-length: 3 is a logged 500 with one content-length (was two)', async () => {
    const [first, second] = await framedWith({ 'content-length': '3' }, '/framed');
    expect(first!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(values(first!, 'content-length')).toEqual([String(first!.body.length)]);
    expect(JSON.parse(first!.body.toString())).toEqual({
      type: 'internal-server-error',
      title: 'Internal server error',
      status: 500,
    });
    expect(second!.statusLine).toBe('HTTP/1.1 200 OK');
    expect(second!.body.toString()).toBe('{"name":"next"}');
  });

  it('a stream given content-length: 3 never goes out unchunked: a 500, and the next answer on the connection is intact (no desync)', async () => {
    const [first, second, third] = await framedWith({ 'content-length': '3' }, '/lines');
    expect(first!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(values(first!, 'transfer-encoding')).toEqual([]);
    expect(values(first!, 'content-length')).toEqual([String(first!.body.length)]);
    expect(second!.statusLine).toBe('HTTP/1.1 200 OK');
    expect(second!.body.toString()).toBe('{"name":"next"}');
    expect(third).toBeUndefined();
  });

  it('a stream given transfer-encoding: gzip is a 500, never an unframed body beside a length', async () => {
    const [first, second] = await framedWith({ 'transfer-encoding': 'gzip' }, '/lines');
    expect(first!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(values(first!, 'transfer-encoding')).toEqual([]);
    expect(second!.body.toString()).toBe('{"name":"next"}');
  });

  it.each([
    ['connection', 'close'],
    ['keep-alive', 'timeout=1'],
    ['Upgrade', 'h2c'],
    ['trailer', 'x-sum'],
  ])('rawHeaders %s is a logged 500', async (name, value) => {
    const [first] = await framedWith({ [name]: value }, '/framed');
    expect(first!.status).toBe(500);
    expect(first!.head.toLowerCase()).not.toContain(`${name.toLowerCase()}: ${value}`);
  });

  it('a writer putting content-length in the head it gives sink.start is a logged 500 (the stream never starts)', async () => {
    extra = ['content-length', '3'];
    const { port, log } = await listen(wireAll);
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/lines', {}, true)));
    extra = [];
    expect(res!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(log.errors.map(String).join('\n')).toContain('"content-length", a framing header');
  });

  it('a computed hook, an intercept answer, an exception handler and a custom route are held to it too', async () => {
    class Gone extends HTTPError.define({ type: 'gone-away', title: 'Gone away', status: 410 }) {}
    class Raises extends Endpoint('/raises') {
      get = this.operation({ returns: Item }, (): { name: string } => {
        throw new Gone();
      });
    }
    const { port, log } = await listen((w) => {
      w.middleware(
        defineMiddleware({
          interceptMethods: ['GET'],
          intercept: (request) =>
            request.path === '/intercepted'
              ? new NoContent({ statusCode: 202, headers: { connection: 'keep-alive' } as never })
              : undefined,
        }),
      );
      w.handler(
        defineExceptionHandler({
          exception: Gone,
          handleException: () =>
            new ExceptionResponse({ statusCode: 410, json: { gone: true }, headers: { trailer: 'x' } }),
        }),
      );
      w.include(
        defineExtension({
          name: 'probe',
          setup: (wiring) => {
            wiring.addRoute({
              method: 'GET',
              path: '/custom',
              owner: 'probe',
              operation: 'custom',
              handle: (ex) => ex.send(200, ['content-type', 'text/plain', 'content-length', '2'], 'hello'),
            });
          },
        }),
      );
      w.endpoint(new Raises());
      w.endpoint(new Plain(), {
        middleware: [defineMiddleware({ responseHeaders: () => ({ 'transfer-encoding': 'chunked' }) })],
      });
    });
    const all = parseResponses(
      await exchangeRaw(
        port,
        raw('GET', '/intercepted') +
          raw('GET', '/raises') +
          raw('GET', '/custom') +
          raw('GET', '/plain', {}, true),
      ),
    );
    expect(all.map((r) => r.statusLine)).toEqual(Array(4).fill('HTTP/1.1 500 Internal Server Error'));
    for (const r of all) expect(values(r, 'content-length')).toEqual([String(r.body.length)]);
    // The failing hook on /plain fails again on its 500: logged and left out there.
    expect(log.lines.filter((l) => l.startsWith('error')).sort()).toEqual([
      'error GET /custom failed with an uncaught exception',
      'error GET /intercepted failed with an uncaught exception',
      'error GET /plain failed with an uncaught exception',
      'error GET /plain: a response-header hook failed while the 500 error answer was assembled (its headers are left out)',
      'error GET /raises: the exception handler failed while handling Gone',
    ]);
  });

  it('an HTTP error refuses a framing header in withHeaders (a 500), but a 426 may say upgrade', async () => {
    class UpgradeFirst extends HTTPError.define({
      type: 'upgrade-required',
      title: 'Upgrade',
      status: 426,
    }) {}
    class Errors extends Endpoint('/errors') {
      get = this.operation({ returns: Item }, (): { name: string } => {
        throw new NotFoundError().withHeaders({ 'content-length': '0' });
      });
      post = this.operation({ returns: Item }, (): { name: string } => {
        throw new UpgradeFirst().withHeaders({ upgrade: 'websocket' });
      });
    }
    const { port } = await listen((w) => w.endpoint(new Errors()));
    const [get, post] = parseResponses(
      await exchangeRaw(
        port,
        raw('GET', '/errors') + raw('POST', '/errors', { 'content-length': '0' }, true),
      ),
    );
    expect(get!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(post!.statusLine).toBe('HTTP/1.1 426 Upgrade Required');
    expect(values(post!, 'upgrade')).toEqual(['websocket']);
  });
});

describe('framing headers known at wiring', () => {
  it('a typed response headers field that maps to content-length is a WiringError naming the operation', async () => {
    const Headers = Struct('LengthHeaders', { contentLength: v.string() });
    class Typed extends Endpoint('/typed') {
      get = this.operation(
        { returns: JSONResponse.of(Item, { headers: Headers }) },
        () => new JSONResponse({ json: { name: 'a' }, headers: { contentLength: '3' } }),
      );
    }
    const error = await startupError((w) => w.endpoint(new Typed()));
    expect(expectWiringError(error, 'API_WIRING_FRAMING_HEADER', 'Typed.get').message).toBe(
      'Typed.get: the typed response headers declare "contentLength" (sent as "content-length"), a framing header the framework computes for every response. Fix: remove the field; core frames the body itself.',
    );
  });

  it('a constant middleware header keep-alive or trailer is a WiringError naming the declaration or the mount', async () => {
    // One check, where the middleware is declared or mounted (never again per route).
    for (const name of ['keep-alive', 'Trailer']) {
      const where = 'defineMiddleware';
      const define = () => defineMiddleware({ responseHeaders: { [name]: 'x' } });
      expect(expectWiringError(define, 'API_WIRING_FRAMING_HEADER', where).message).toBe(
        `defineMiddleware: responseHeaders sets "${name.toLowerCase()}", a framing header the framework computes for every response. Fix: remove it.`,
      );
      const error = await startupError((w) =>
        w.endpoint(new Plain(), { middleware: [{ responseHeaders: { [name]: 'x' } }] }),
      );
      expect(expectWiringError(error, 'API_WIRING_FRAMING_HEADER', 'Plain mount middleware').message).toBe(
        `Plain mount middleware: responseHeaders sets "${name.toLowerCase()}", a framing header the framework computes for every response. Fix: remove it.`,
      );
    }
  });

  it('a constant contribution header upgrade is a WiringError naming the route', async () => {
    const error = await startupError((w) => {
      w.include(
        defineExtension({
          name: 'bad',
          setup: (wiring) => wiring.addContributor(() => ({ headers: [['Upgrade', 'h2c']] })),
        }),
      );
      w.endpoint(new Plain());
    });
    expect(expectWiringError(error, 'API_WIRING_FRAMING_HEADER', 'Plain.get').message).toBe(
      'Plain.get: a contribution (an extension, CORS or middleware) sets the constant response header "upgrade", a framing header the framework computes for every response. Fix: remove it from that contribution.',
    );
  });

  it('an extension response kind whose typed headers declare transfer-encoding is a WiringError', async () => {
    const Kind = defineResponseKind<Lines>({
      kind: 'lines',
      cls: Lines,
      schema: undefined,
      headers: v.object({ transferEncoding: v.string() }),
      status: undefined,
      contentType: undefined,
      compile: () => () => undefined,
    });
    class Bad extends Endpoint('/bad') {
      get = this.operation({ returns: Kind }, () => new Lines([]));
    }
    const error = await startupError((w) => w.endpoint(new Bad()));
    expectWiringError(error, 'API_WIRING_FRAMING_HEADER', 'Bad.get');
    expect((error as Error).message).toContain(
      'Bad.get: the typed response headers declare "transferEncoding"',
    );
  });

  it('an exception handler declaring a connection header is a WiringError naming the handler', async () => {
    class Teapot extends HTTPError.define({ type: 'teapot', title: 'Teapot', status: 418 }) {}
    const error = await startupError((w) => {
      w.handler(
        defineExceptionHandler({
          exception: Teapot,
          returns: [ExceptionResponse.of(Item, { headers: Struct('H', { connection: v.string() }) })],
          handleException: () =>
            new ExceptionResponse({ statusCode: 418, json: { name: 'a' }, headers: { connection: 'x' } }),
        }),
      );
      w.endpoint(new Plain());
    });
    expect((error as Error).message).toContain(
      'the exception handler for Teapot: the typed response headers declare "connection"',
    );
  });
});

describe('bytes answers', () => {
  it('a BytesResponse with rawHeaders content-length is a 500 too', async () => {
    class Blob extends Endpoint('/blob') {
      get = this.operation(
        { returns: BytesResponse.of() },
        () => new BytesResponse({ content: Buffer.from('abc'), rawHeaders: [['Content-Length', '1']] }),
      );
    }
    const { port } = await listen((w) => w.endpoint(new Blob()));
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/blob', {}, true)));
    expect(res!.status).toBe(500);
  });
});
