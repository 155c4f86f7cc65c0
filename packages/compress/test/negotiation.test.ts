// What the wire carries for every Accept-Encoding a client may send, and for the answers that
// must not be compressed (HEAD, 304, 204, small bodies, no-transform, already encoded, images).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  Bytes,
  BytesResponse,
  Endpoint,
  ExceptionResponse,
  JSONResponse,
  NoContent,
  Struct,
  Text,
  defineExceptionHandler,
  defineMiddleware,
} from '@api/core';
import { defineExtension } from '@api/core/extension';
import { Compression, ZSTD_AVAILABLE, compress } from '../src/index';
import { decoded, serveApp, type Wire } from './helpers';

const Widget = Struct('Widget', { id: v.number(), name: v.string(), description: v.string() });
/** About 10 KiB of JSON: the demo's widget list, forty of them. */
const WIDGETS = Array.from({ length: 40 }, (_, id) => ({
  id,
  name: `widget ${id}`,
  description: `a widget of the ${id % 2 ? 'odd' : 'even'} kind, made for compression tests (${'ab'.repeat(id % 7)})`,
}));
const LIST = JSON.stringify(WIDGETS);

class Widgets extends Endpoint('/widgets') {
  get = this.operation({ returns: v.array(Widget) }, () => WIDGETS);
}
class Small extends Endpoint('/small') {
  get = this.operation({ returns: Widget }, () => WIDGETS[0]!);
}
const IfNoneMatch = Struct('IfNoneMatch', { if_none_match: v.optional(v.string()) });
class Tagged extends Endpoint('/tagged') {
  // A conditional GET as a handler writes it: If-None-Match compared weakly (W/ stripped).
  get = this.operation(
    { headers: IfNoneMatch, returns: [JSONResponse.of(v.array(Widget)), NoContent.of()] },
    ({ headers }) =>
      headers.if_none_match?.replace(/^W\//, '') === '"v1"'
        ? new NoContent({ statusCode: 304, rawHeaders: { etag: '"v1"' } })
        : new JSONResponse({ json: WIDGETS, rawHeaders: { etag: '"v1"' } }),
  );
}
class Empty extends Endpoint('/empty') {
  get = this.operation({ returns: NoContent.of() }, () => new NoContent());
}
class Raw extends Endpoint('/raw') {
  get = this.operation(
    { returns: BytesResponse.of() },
    () => new BytesResponse({ content: Buffer.from(LIST), contentType: 'image/png' }),
  );
  post = this.operation(
    { returns: JSONResponse.of(v.array(Widget)) },
    () => new JSONResponse({ json: WIDGETS, rawHeaders: { 'cache-control': 'private, no-transform' } }),
  );
  put = this.operation(
    { returns: BytesResponse.of() },
    () =>
      new BytesResponse({
        content: Buffer.from('already encoded elsewhere'.repeat(100)),
        contentType: 'text/plain',
        rawHeaders: { 'content-encoding': 'identity, x-custom' },
      }),
  );
}
class Texts extends Endpoint('/text') {
  get = this.operation({ returns: Text }, () => LIST);
}
class Blobs extends Endpoint('/blob') {
  get = this.operation({ returns: Bytes }, () => Buffer.from(LIST));
}

function wireAll(w: Wire): void {
  w.include(compress());
  w.endpoint(new Widgets());
  w.endpoint(new Small());
  w.endpoint(new Tagged());
  w.endpoint(new Empty());
  w.endpoint(new Raw());
  w.endpoint(new Texts());
  w.endpoint(new Blobs());
}

describe('Accept-Encoding, every combination', () => {
  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.5', 'br'],
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, *;q=0.1', ZSTD_AVAILABLE ? 'zstd' : 'gzip'],
    ['br;q=0, zstd;q=0, *;q=0.1', 'gzip'],
    ['identity', undefined],
    ['identity, gzip;q=0.9', undefined],
    ['identity;q=0.5, gzip;q=0.5', 'gzip'],
    ['*;q=0', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['identity;q=0', undefined],
    ['deflate', undefined],
    ['zstd', ZSTD_AVAILABLE ? 'zstd' : undefined], // offered where node:zlib has it (not Node 20)
    ['zstd, gzip;q=0.5', ZSTD_AVAILABLE ? 'zstd' : 'gzip'],
    ['br;q=2, gzip;q=0.3', 'gzip'], // a malformed weight ignores its entry
    [undefined, undefined],
  ])('%s → %s', async (accept, coding) => {
    const client = await serveApp(wireAll);
    const res = await client.get(
      '/widgets',
      accept === undefined ? {} : { headers: { 'accept-encoding': accept } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(coding);
    expect(res.headers.getAll('vary')).toEqual(['accept-encoding']);
    expect(res.headers.get('content-length')).toBe(String(res.body.length));
    expect(res.headers.get('transfer-encoding')).toBeUndefined();
    expect(decoded(res)).toBe(LIST);
    if (coding !== undefined) expect(res.body.length).toBeLessThan(LIST.length / 3);
  });
});

describe('answers that are not compressed', () => {
  it('a HEAD gets the identity head with its vary (nothing is encoded for it)', async () => {
    const client = await serveApp(wireAll);
    const res = await client.head('/widgets', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeUndefined();
    expect(res.headers.get('content-length')).toBe(String(LIST.length));
    expect(res.headers.get('vary')).toBe('accept-encoding');
  });

  it('a 304 carries the vary and the weak etag the compressed 200 carries', async () => {
    const client = await serveApp(wireAll);
    const ok = await client.get('/tagged', { headers: { 'accept-encoding': 'gzip' } });
    expect(ok.headers.get('etag')).toBe('W/"v1"');
    expect(ok.headers.get('content-encoding')).toBe('gzip');
    const notModified = await client.get('/tagged', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': ok.headers.get('etag')! },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe('W/"v1"');
    expect(notModified.headers.get('vary')).toBe('accept-encoding');
    expect(notModified.headers.get('content-encoding')).toBeUndefined();
    expect(notModified.body.length).toBe(0);
    const identity = await client.get('/tagged');
    expect(identity.headers.get('etag')).toBe('"v1"');
  });

  it('a 204 gets neither content-encoding nor vary', async () => {
    const client = await serveApp(wireAll);
    const res = await client.get('/empty', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(204);
    expect(res.multiHeaders.map(([name]) => name.toLowerCase())).toEqual([
      'date',
      'connection',
      'keep-alive',
    ]);
  });

  it('a body under the threshold (1 KiB) is sent as is, without vary', async () => {
    const client = await serveApp(wireAll);
    const res = await client.get('/small', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeUndefined();
    expect(res.headers.get('vary')).toBeUndefined();
    expect(res.json()).toEqual(WIDGETS[0]);
  });

  it('no-transform, an existing content-encoding and incompressible media types are left alone', async () => {
    const client = await serveApp(wireAll);
    const gz = { headers: { 'accept-encoding': 'gzip, br' } };
    for (const res of [
      await client.get('/raw', gz),
      await client.post('/raw', gz),
      await client.put('/raw', gz),
      await client.get('/blob', gz),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('vary')).toBeUndefined();
      expect(res.headers.get('content-encoding') ?? 'none').not.toMatch(/gzip|br/);
      expect(res.headers.get('content-length')).toBe(String(res.body.length));
    }
    const text = await client.get('/text', gz);
    expect(text.headers.get('content-encoding')).toBe('br');
    expect(decoded(text)).toBe(LIST);
  });
});

describe('every answer kind is covered', () => {
  it('intercept answers, exception answers, custom routes and 404s go through the same transform', async () => {
    class Boom extends Error {}
    class Fails extends Endpoint('/fails') {
      get = this.operation({ returns: Widget }, (): v.InferOutput<typeof Widget> => {
        throw new Boom();
      });
    }
    const client = await serveApp((w) => {
      w.include(compress());
      w.middleware(
        defineMiddleware({
          interceptMethods: ['GET'],
          intercept: (request) =>
            request.path === '/maintenance'
              ? new JSONResponse({ json: WIDGETS, statusCode: 503 })
              : undefined,
        }),
      );
      w.handler(
        defineExceptionHandler({
          exception: Boom,
          handleException: () => new ExceptionResponse({ statusCode: 502, json: { widgets: WIDGETS } }),
        }),
      );
      w.include(
        defineExtension({
          name: 'files',
          setup: (wiring) =>
            wiring.addRoute({
              method: 'GET',
              path: '/list.json',
              owner: 'files',
              operation: 'list',
              handle: (ex) => ex.send(200, ['content-type', 'application/json'], LIST),
            }),
        }),
      );
      w.endpoint(new Fails());
    });
    const gz = { headers: { 'accept-encoding': 'gzip' } };
    const intercepted = await client.get('/maintenance', gz);
    expect(intercepted.status).toBe(503);
    expect(intercepted.headers.get('content-encoding')).toBe('gzip');
    expect(decoded(intercepted)).toBe(LIST);
    const custom = await client.get('/list.json', gz);
    expect(custom.headers.get('content-encoding')).toBe('gzip');
    expect(decoded(custom)).toBe(LIST);
    const failed = await client.get('/fails', gz);
    expect(failed.status).toBe(502);
    expect(failed.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(decoded(failed))).toEqual({ widgets: WIDGETS });
    const missing = await client.get('/nowhere', gz);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('vary')).toBeUndefined(); // a Problem body is under the threshold
  });

  it('merges accept-encoding into a vary the route already sends (CORS’s Origin)', async () => {
    const client = await serveApp((w) => {
      w.include(compress());
      w.middleware(defineMiddleware({ responseHeaders: { vary: 'Origin' } }));
      w.endpoint(new Widgets());
    });
    const res = await client.get('/widgets', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.getAll('vary')).toEqual(['Origin, accept-encoding']);
  });
});

describe('per mount', () => {
  it('{ compress: false } sends a mount uncompressed; a mount’s own Compression replaces the default', async () => {
    const client = await serveApp((w) => {
      w.include(compress());
      w.endpoint(new Widgets(), { compress: false });
      w.endpoint(new Small(), { compress: new Compression({ threshold: 0, encodings: ['gzip'] }) });
      w.endpoint(new Tagged(), { compress: new Compression({ etag: 'suffix' }) });
    });
    const accept = { headers: { 'accept-encoding': 'br, gzip' } };
    const off = await client.get('/widgets', accept);
    expect(off.headers.get('content-encoding')).toBeUndefined();
    expect(off.headers.get('vary')).toBeUndefined();
    const small = await client.get('/small', accept);
    expect(small.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(decoded(small))).toEqual(WIDGETS[0]);
    const tagged = await client.get('/tagged', accept);
    expect(tagged.headers.get('content-encoding')).toBe('br');
    expect(tagged.headers.get('etag')).toBe('"v1-br"');
  });

  it('a mount’s Compression works without the app-wide compress()', async () => {
    const client = await serveApp((w) => {
      w.endpoint(new Widgets(), { compress: new Compression() });
      w.endpoint(new Texts());
    });
    const accept = { headers: { 'accept-encoding': 'gzip' } };
    expect((await client.get('/widgets', accept)).headers.get('content-encoding')).toBe('gzip');
    expect((await client.get('/text', accept)).headers.get('content-encoding')).toBeUndefined();
  });

  it('compresses large bodies on the thread pool (syncBelow) with the same bytes on the wire', async () => {
    const client = await serveApp((w) => {
      w.endpoint(new Widgets(), { compress: new Compression({ syncBelow: 0 }) });
      w.endpoint(new Texts(), { compress: new Compression({ syncBelow: 1 << 20 }) });
    });
    for (const accept of ['br', 'gzip'])
      for (const path of ['/widgets', '/text']) {
        const res = await client.get(path, { headers: { 'accept-encoding': accept } });
        expect(res.headers.get('content-encoding')).toBe(accept);
        expect(decoded(res)).toBe(LIST);
      }
  });
});
