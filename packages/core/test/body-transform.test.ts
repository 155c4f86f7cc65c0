// Issue 25's mechanism: a contribution's body transform sees each answer's final head and encodes
// its body — buffered (async) or streamed (flushed per write) — on every answer kind. A test-only
// gzip transform written against @api/core/extension, read back over raw sockets.
import { gunzipSync, gzip, createGzip } from 'node:zlib';
import { promisify } from 'node:util';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  BytesResponse,
  Bytes,
  Endpoint,
  HTTPError,
  JSONResponse,
  NoContent,
  Struct,
  Text,
  WiringError,
  defineMiddleware,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import {
  defineExtension,
  defineResponseKind,
  type BodyEncoder,
  type FinalHead,
  type RouteContribution,
} from '../src/extension';
import { memoryLogger } from './fixtures';
import {
  exchangeRaw,
  listen,
  parseResponses,
  raw,
  startupError,
  values,
  type Wire,
  type WireResponse,
} from './output-fixtures';

const gzipAsync = promisify(gzip);
const gzipEncoder: BodyEncoder = {
  encode: (body) => gzipAsync(body),
  stream: () => createGzip(),
};

/** What the transform saw, per answer: status, length and the head as it was final. */
const seen: { status: number; length: number | undefined; headers: string[] }[] = [];
let failTransform = false;
let failEncode = false;

function transform(
  ex: { method: string; req: { headers: Record<string, unknown> } },
  head: FinalHead,
): BodyEncoder | undefined {
  seen.push({ status: head.status, length: head.length, headers: [...head.headers] });
  if (failTransform) throw new Error('transform bug');
  head.headers.push('vary', 'accept-encoding');
  if (ex.method === 'HEAD' || head.length === 0) return undefined;
  if (!String(ex.req.headers['accept-encoding'] ?? '').includes('gzip')) return undefined;
  head.headers.push('content-encoding', 'gzip');
  if (failEncode) return { encode: () => Promise.reject(new Error('zlib bug')), stream: () => createGzip() };
  return gzipEncoder;
}

const gzipAll = defineExtension({
  name: 'gzip-all',
  setup: (wiring) => wiring.addContributor((): RouteContribution => ({ transform })),
});

const Item = Struct('Item', { name: v.string() });
const BIG = 'x'.repeat(2000);
class Teapot extends HTTPError.define({ type: 'teapot', title: 'I am a teapot', status: 418 }) {}

class Lines {
  constructor(readonly lines: readonly string[]) {}
}
const LinesKind = defineResponseKind<Lines>({
  kind: 'lines',
  cls: Lines,
  schema: undefined,
  headers: undefined,
  status: undefined,
  contentType: 'application/x-ndjson',
  compile: (ctx) => async (value, sink) => {
    if (!sink.start(ctx.defaultStatus, sink.head(ctx.defaultStatus, 'application/x-ndjson', {}))) return;
    for (const line of (value as Lines).lines) {
      sink.write(`${line}\n`);
      // Each item must arrive on its own: wait until the client saw it (the test's probe).
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    sink.end();
  },
});

class Kinds extends Endpoint('/kinds') {
  get = this.operation({ returns: Item }, () => ({ name: BIG }));
}
class Wrapped extends Endpoint('/wrapped') {
  get = this.operation(
    { returns: JSONResponse.of(Item) },
    () => new JSONResponse({ json: { name: BIG }, statusCode: 203 }),
  );
}
class Texts extends Endpoint('/text') {
  get = this.operation({ returns: Text }, () => BIG);
}
class Blobs extends Endpoint('/bytes') {
  get = this.operation({ returns: Bytes }, () => Buffer.from(BIG));
  post = this.operation(
    { returns: BytesResponse.of() },
    () => new BytesResponse({ content: Buffer.from(BIG), contentType: 'text/csv' }),
  );
}
class Empty extends Endpoint('/empty') {
  get = this.operation({ returns: NoContent.of() }, () => new NoContent());
}
class Fails extends Endpoint('/fails') {
  get = this.operation({ returns: Item }, (): { name: string } => {
    throw new Teapot();
  });
}
class Streams extends Endpoint('/lines') {
  get = this.operation({ returns: LinesKind }, () => new Lines(['{"n":1}', '{"n":2}', '{"n":3}']));
}

function wireAll(w: Wire): void {
  w.include(gzipAll);
  w.middleware(defineMiddleware({ responseHeaders: (_r, status) => ({ 'x-hook': String(status) }) }));
  w.middleware(
    defineMiddleware({
      interceptMethods: ['GET'],
      intercept: (request) =>
        request.path === '/intercepted'
          ? new JSONResponse({ json: { big: BIG }, statusCode: 200 })
          : undefined,
    }),
  );
  w.include(
    defineExtension({
      name: 'files',
      setup: (wiring) => {
        wiring.addRoute({
          method: 'GET',
          path: '/file.txt',
          owner: 'files',
          operation: 'file',
          handle: (ex) => ex.send(200, ['content-type', 'text/plain', 'etag', '"abc"'], BIG),
        });
        wiring.addRoute({
          method: 'GET',
          path: '/cached.txt',
          owner: 'files',
          operation: 'cached',
          handle: (ex) => ex.send(304, ['etag', '"abc"']),
        });
      },
    }),
  );
  w.endpoint(new Kinds());
  w.endpoint(new Wrapped());
  w.endpoint(new Texts());
  w.endpoint(new Blobs());
  w.endpoint(new Empty());
  w.endpoint(new Fails());
  w.endpoint(new Streams());
}

const GZ = { 'accept-encoding': 'gzip' };

function gunzipped(res: WireResponse): string {
  expect(values(res, 'content-encoding')).toEqual(['gzip']);
  expect(values(res, 'content-length')).toEqual([String(res.body.length)]);
  return gunzipSync(res.body).toString();
}

describe('a body transform', () => {
  it('encodes every buffered answer kind, async, with content-length of the encoded body', async () => {
    seen.length = 0;
    const { port } = await listen(wireAll);
    const paths = ['/kinds', '/wrapped', '/text', '/bytes', '/file.txt', '/intercepted'];
    const all = parseResponses(
      await exchangeRaw(port, paths.map((p, i) => raw('GET', p, GZ, i === paths.length - 1)).join('')),
    );
    expect(all.map((r) => r.status)).toEqual([200, 203, 200, 200, 200, 200]);
    expect(gunzipped(all[0]!)).toBe(JSON.stringify({ name: BIG }));
    expect(gunzipped(all[1]!)).toBe(JSON.stringify({ name: BIG }));
    expect(gunzipped(all[2]!)).toBe(BIG);
    expect(gunzipped(all[3]!)).toBe(BIG);
    expect(gunzipped(all[4]!)).toBe(BIG);
    expect(gunzipped(all[5]!)).toBe(JSON.stringify({ big: BIG }));
    for (const r of all) expect(values(r, 'vary')).toEqual(['accept-encoding']);
  });

  it('sees the final head: the route’s own headers, then the tail and computed hooks, and the body length', async () => {
    seen.length = 0;
    const { port } = await listen(wireAll);
    await exchangeRaw(port, raw('GET', '/file.txt', GZ, true));
    expect(seen).toEqual([
      {
        status: 200,
        length: 2000,
        headers: ['content-type', 'text/plain', 'etag', '"abc"', 'x-hook', '200'],
      },
    ]);
  });

  it('sends identity when it declines (no accept-encoding, HEAD) and is not asked about a 204', async () => {
    seen.length = 0;
    const { port } = await listen(wireAll);
    const [plain, head, empty] = parseResponses(
      await exchangeRaw(
        port,
        raw('GET', '/kinds') + raw('HEAD', '/kinds', GZ) + raw('GET', '/empty', GZ, true),
      ),
      [false, true, false],
    );
    expect(plain!.body.toString()).toBe(JSON.stringify({ name: BIG }));
    expect(values(plain!, 'content-encoding')).toEqual([]);
    expect(values(head!, 'content-length')).toEqual([String(JSON.stringify({ name: BIG }).length)]);
    expect(values(head!, 'vary')).toEqual(['accept-encoding']);
    expect(empty!.status).toBe(204);
    expect(values(empty!, 'vary')).toEqual([]);
    expect(seen.map((s) => s.status)).toEqual([200, 200]);
  });

  it('sees a 304 (length 0) so it can keep its vary; nothing is encoded', async () => {
    const { port } = await listen(wireAll);
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/cached.txt', GZ, true)));
    expect(res!.status).toBe(304);
    expect(values(res!, 'vary')).toEqual(['accept-encoding']);
    expect(values(res!, 'content-encoding')).toEqual([]);
  });

  it('reaches error answers: a raised error, a 404 and a 405 (the fallback plan)', async () => {
    const { port } = await listen(wireAll);
    const all = parseResponses(
      await exchangeRaw(
        port,
        raw('GET', '/fails', GZ) + raw('GET', '/nowhere', GZ) + raw('DELETE', '/kinds', GZ, true),
      ),
    );
    expect(all.map((r) => r.status)).toEqual([418, 404, 405]);
    expect(JSON.parse(gunzipped(all[0]!))).toMatchObject({ type: 'teapot', status: 418 });
    expect(JSON.parse(gunzipped(all[1]!))).toMatchObject({ type: 'not-found' });
    expect(JSON.parse(gunzipped(all[2]!))).toMatchObject({ type: 'method-not-allowed' });
    expect(values(all[2]!, 'allow')).toEqual(['GET, HEAD, OPTIONS']);
  });

  it('encodes a stream written through the sink, flushed after every write: each item arrives before the next is written', async () => {
    const { port } = await listen(wireAll);
    const { connect } = await import('node:net');
    const { createGunzip } = await import('node:zlib');
    const socket = connect(port, '127.0.0.1');
    socket.write(raw('GET', '/lines', GZ, true));
    const gunzip = createGunzip();
    let head = '';
    let decoded = '';
    const arrivals: string[] = [];
    gunzip.on('data', (d: Buffer) => {
      decoded += d.toString();
      arrivals.push(decoded);
    });
    let buffered = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      buffered = Buffer.concat([buffered, data]);
      if (head === '') {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        head = buffered.subarray(0, end).toString('latin1');
        buffered = buffered.subarray(end + 4);
      }
      // De-chunk what is complete and feed it to gunzip as it comes.
      for (;;) {
        const lineEnd = buffered.indexOf('\r\n');
        if (lineEnd < 0) return;
        const size = Number.parseInt(buffered.subarray(0, lineEnd).toString('latin1'), 16);
        if (buffered.length < lineEnd + 2 + size + 2) return;
        if (size > 0) gunzip.write(buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
        buffered = buffered.subarray(lineEnd + 2 + size + 2);
      }
    });
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toContain('content-encoding: gzip');
    expect(head).toMatch(/\r\ntransfer-encoding: chunked/i);
    expect(head.toLowerCase()).not.toContain('content-length');
    expect(decoded).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    // Every item was decodable on its own, as it arrived (a flush per write).
    expect(arrivals).toEqual(['{"n":1}\n', '{"n":1}\n{"n":2}\n', '{"n":1}\n{"n":2}\n{"n":3}\n']);
  });

  it('a transform that throws fails a success answer closed (a logged 500, unencoded)', async () => {
    failTransform = true;
    try {
      const { port, log } = await listen(wireAll);
      const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/kinds', GZ, true)));
      expect(res!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
      expect(values(res!, 'content-encoding')).toEqual([]);
      expect(log.lines).toContain('error GET /kinds failed with an uncaught exception');
      expect(log.lines).toContain(
        'error GET /kinds: the body transform failed on the 500 error answer (sent unencoded)',
      );
    } finally {
      failTransform = false;
    }
  });

  it('an encoder that fails is a logged 500, sent unencoded', async () => {
    failEncode = true;
    try {
      const { port, log } = await listen(wireAll);
      const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/kinds', GZ, true)));
      expect(res!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
      expect(values(res!, 'content-encoding')).toEqual([]);
      expect(res!.body.toString()).toBe(
        '{"type":"internal-server-error","title":"Internal server error","status":500}',
      );
      expect(log.errors.map((e) => (e as Error).message)).toContain('zlib bug');
    } finally {
      failEncode = false;
    }
  });

  it('two contributions transforming one route are a WiringError naming it', async () => {
    const error = await startupError((w) => {
      w.include(gzipAll);
      w.include(
        defineExtension({ name: 'again', setup: (wiring) => wiring.addContributor(() => ({ transform })) }),
      );
      w.endpoint(new Kinds());
    });
    expectWiringError(error, 'API_WIRING_CONTRIBUTION_CONFLICT', 'Kinds.get');
    expect((error as Error).message).toMatch(/^Kinds\.get: 2 contributions give a body transform/);
  });

  it('a route it does not cover pays nothing and is sent as it is', async () => {
    seen.length = 0;
    const { port } = await listen((w) => {
      w.include(
        defineExtension({
          name: 'only-text',
          setup: (wiring) =>
            wiring.addContributor((route) => (route.path === '/text' ? { transform } : undefined)),
        }),
      );
      w.endpoint(new Kinds());
      w.endpoint(new Texts());
    }, memoryLogger());
    const [kinds, text] = parseResponses(
      await exchangeRaw(port, raw('GET', '/kinds', GZ) + raw('GET', '/text', GZ, true)),
    );
    expect(values(kinds!, 'content-encoding')).toEqual([]);
    expect(values(kinds!, 'vary')).toEqual([]);
    expect(gunzipped(text!)).toBe(BIG);
    expect(seen).toHaveLength(1);
  });

  it('a mount option set to false is compiled by nobody: a contributor reads it and leaves the mount out', async () => {
    const optional = defineExtension({
      name: 'optional-gzip',
      setup: (wiring) =>
        wiring.addContributor((route) => (route.mountOptions.gzip === false ? undefined : { transform })),
    });
    const { port } = await listen((w) => {
      w.include(optional);
      w.endpoint(new Kinds(), { gzip: false } as object);
      w.endpoint(new Texts());
    });
    const [kinds, text] = parseResponses(
      await exchangeRaw(port, raw('GET', '/kinds', GZ) + raw('GET', '/text', GZ, true)),
    );
    expect(values(kinds!, 'content-encoding')).toEqual([]);
    expect(gunzipped(text!)).toBe(BIG);
  });
});
