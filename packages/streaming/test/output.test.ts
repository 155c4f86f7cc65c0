// Streams write through core's sink, never the raw response: core frames them (issue 22 item 1),
// fails them closed when a hook fails before the head (item 2), and a route's body transform
// encodes them item by item while every stream guarantee holds (issue 25): teardown on
// disconnect, a cut on a mid-stream failure, backpressure and graceful shutdown.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { constants, createGunzip, createGzip, gunzipSync } from 'node:zlib';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { Endpoint, Struct, defineMiddleware, serve } from '@api/core';
import { defineExtension, type BodyEncoder } from '@api/core/extension';
import { NDJSONStreamingResponse, SSEResponse, StreamingResponse } from '../src/index';
import { TestApp, rawRequest, start, waitFor } from './wire';

const Tick = Struct('Tick', { n: v.number() });
const seen = { setup: 0, teardown: 0, pulls: 0 };
afterEach(() => {
  seen.setup = seen.teardown = seen.pulls = 0;
});

let raw: Record<string, string> = {};
let failAt = -1;
let delayMs = 0;
class Ticks extends Endpoint('/ticks') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    async function* lifecycle() {
      seen.setup++;
      try {
        yield (async function* () {
          for (let n = 0; n < 3; n++) {
            seen.pulls++;
            if (n === failAt) throw new Error('source failed');
            if (n > 0 && delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
            yield { n };
          }
        })();
      } finally {
        seen.teardown++;
      }
    }
    return new NDJSONStreamingResponse({ stream: lifecycle(), rawHeaders: raw });
  });
}
class Next extends Endpoint('/next') {
  get = this.operation({ returns: Tick }, () => ({ n: 42 }));
}

/** Two pipelined requests on one keep-alive socket; everything until the server closes. */
function twoOnOneConnection(port: number, first: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
    socket.write(
      `GET ${first} HTTP/1.1\r\nhost: x\r\n\r\nGET /next HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`,
    );
  });
}

describe('stream framing is core’s', () => {
  it('an NDJSON stream given content-length: 3 is a 500, and the next answer on the connection is read whole (no desync)', async () => {
    raw = { 'content-length': '3' };
    try {
      const { client, app } = await start((a) => {
        a.endpoint(new Ticks());
        a.endpoint(new Next());
      });
      const text = await twoOnOneConnection(Number(new URL(client.url).port), '/ticks');
      const [first, second] = text.split(/(?=HTTP\/1\.1 )/);
      expect(first).toMatch(/^HTTP\/1\.1 500 Internal Server Error\r\n/);
      expect(first).not.toMatch(/transfer-encoding/i);
      expect(first!.match(/content-length: (\d+)/gi)).toHaveLength(1);
      expect(first).toMatch(
        /\r\n\r\n\{"type":"internal-server-error","title":"Internal server error","status":500\}$/,
      );
      expect(second).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\n\{"n":42\}$/);
      expect(seen).toEqual({ setup: 0, teardown: 0, pulls: 0 }); // refused before setup ran
      expect(app.log.lines.filter((l) => l.level === 'error')).toHaveLength(1);
    } finally {
      raw = {};
    }
  });

  it('a byte stream given transfer-encoding: gzip is a 500, never unframed bytes beside a length', async () => {
    class Bytes extends Endpoint('/bytes') {
      get = this.operation(
        { returns: StreamingResponse.of() },
        () =>
          new StreamingResponse({
            stream: (async function* () {
              yield 'abc';
            })(),
            rawHeaders: { 'Transfer-Encoding': 'gzip' },
          }),
      );
    }
    const { client } = await start((a) => {
      a.endpoint(new Bytes());
      a.endpoint(new Next());
    });
    const text = await twoOnOneConnection(Number(new URL(client.url).port), '/bytes');
    const [first, second] = text.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 500 Internal Server Error\r\n/);
    expect(first).not.toContain('abc');
    expect(second).toMatch(/\{"n":42\}$/);
  });

  it('a response-header hook that throws fails the stream closed before its head, and teardown runs', async () => {
    const { client, app } = await start((a) =>
      a.endpoint(new Ticks(), {
        middleware: [
          defineMiddleware({
            responseHeaders: () => {
              throw new Error('hook bug');
            },
          }),
        ],
      }),
    );
    const res = await rawRequest(client.url, '/ticks');
    expect(res.status).toBe(500);
    expect(Buffer.concat(res.chunks).toString()).not.toContain('"n":0');
    expect(seen.teardown).toBe(1);
    expect(app.log.lines.map((l) => `${l.level} ${l.message}`)).toContain(
      'error GET /ticks failed with an uncaught exception',
    );
  });
});

// ------------------------------------------------------------------- a body transform on streams

const gzipStreams: BodyEncoder = {
  encode: (body) => body,
  stream: () => createGzip(),
};
const gzipAll = defineExtension({
  name: 'gzip-streams',
  setup: (wiring) =>
    wiring.addContributor(() => ({
      transform: (ex, head) => {
        if (head.length !== undefined || ex.method === 'HEAD') return undefined;
        head.headers.push('content-encoding', 'gzip');
        return gzipStreams;
      },
    })),
});

/** Reads a gzip-encoded chunked stream as it arrives: the decoded text after each received chunk. */
function readGzipped(
  port: number,
  path: string,
  onText: (text: string) => void,
): { socket: ReturnType<typeof connect>; head: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  const gunzip = createGunzip();
  gunzip.on('error', () => undefined); // a cut stream ends mid-member
  let decoded = '';
  gunzip.on('data', (d: Buffer) => {
    decoded += d.toString();
    onText(decoded);
  });
  let head = '';
  let pending = Buffer.alloc(0);
  socket.on('data', (data: Buffer) => {
    pending = Buffer.concat([pending, data]);
    if (head === '') {
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      head = pending.subarray(0, end).toString('latin1');
      pending = pending.subarray(end + 4);
    }
    for (;;) {
      const lineEnd = pending.indexOf('\r\n');
      if (lineEnd < 0) return;
      const size = Number.parseInt(pending.subarray(0, lineEnd).toString('latin1'), 16);
      if (pending.length < lineEnd + 2 + size + 2) return;
      if (size > 0) gunzip.write(pending.subarray(lineEnd + 2, lineEnd + 2 + size));
      pending = pending.subarray(lineEnd + 2 + size + 2);
    }
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
  return { socket, head: () => head, closed };
}

describe('a stream under a body transform', () => {
  it('leaves item by item: each NDJSON line decodes before the next one is produced', async () => {
    delayMs = 150;
    try {
      const { client } = await start((a) => {
        a.extension(gzipAll);
        a.endpoint(new Ticks());
      });
      const arrivals: { text: string; pulls: number }[] = [];
      const read = readGzipped(Number(new URL(client.url).port), '/ticks', (text) =>
        arrivals.push({ text, pulls: seen.pulls }),
      );
      await read.closed;
      await waitFor(() => arrivals.length >= 3);
      expect(read.head()).toMatch(/\r\ncontent-encoding: gzip\r\n/);
      expect(read.head()).toMatch(/\r\ntransfer-encoding: chunked/i);
      expect(read.head()).not.toMatch(/content-length/i);
      expect(arrivals.map((a) => a.text)).toEqual([
        '{"n":0}\n',
        '{"n":0}\n{"n":1}\n',
        '{"n":0}\n{"n":1}\n{"n":2}\n',
      ]);
      // Line n arrived while the source was still waiting to produce line n + 1.
      expect(arrivals.map((a) => a.pulls)).toEqual([2, 3, 3]);
      expect(seen.teardown).toBe(1);
    } finally {
      delayMs = 0;
    }
  });

  it('SSE events are flushed one by one through gzip, keepalive pings too', async () => {
    class Events extends Endpoint('/events') {
      get = this.operation({ returns: SSEResponse.of(Tick) }, () => {
        async function* lifecycle() {
          try {
            yield (async function* () {
              yield { n: 1 };
              await new Promise((resolve) => setTimeout(resolve, 250));
              yield { n: 2 };
            })();
          } finally {
            seen.teardown++;
          }
        }
        return new SSEResponse({ stream: lifecycle(), keepalive: 0.1 });
      });
    }
    const { client } = await start((a) => {
      a.extension(gzipAll);
      a.endpoint(new Events());
    });
    const texts: string[] = [];
    const read = readGzipped(Number(new URL(client.url).port), '/events', (t) => texts.push(t));
    await read.closed;
    await waitFor(() => texts.at(-1)?.endsWith('data: {"n":2}\n\n') === true);
    expect(texts[0]).toBe('data: {"n":1}\n\n');
    expect(texts.at(-1)).toMatch(/^data: \{"n":1\}\n\n(: ping\n\n)+data: \{"n":2\}\n\n$/);
  });

  it('a client that leaves stops the source and runs teardown', async () => {
    delayMs = 200;
    try {
      const { client } = await start((a) => {
        a.extension(gzipAll);
        a.endpoint(new Ticks());
      });
      let got = '';
      const read = readGzipped(Number(new URL(client.url).port), '/ticks', (t) => (got = t));
      await waitFor(() => got === '{"n":0}\n');
      read.socket.destroy();
      await waitFor(() => seen.teardown === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen.pulls).toBeLessThanOrEqual(2);
    } finally {
      delayMs = 0;
    }
  });

  it('a mid-stream failure is logged and cut: no terminating chunk', async () => {
    failAt = 2;
    try {
      const { client, app } = await start((a) => {
        a.extension(gzipAll);
        a.endpoint(new Ticks());
      });
      const res = await rawRequest(client.url, '/ticks');
      expect(res.status).toBe(200);
      expect(res.terminated).toBe(false);
      // What was written before the failure still arrived, decodable (the gzip member is incomplete).
      const partial = gunzipSync(Buffer.concat(res.chunks), { finishFlush: constants.Z_SYNC_FLUSH });
      expect(partial.toString()).toBe('{"n":0}\n{"n":1}\n');
      expect(app.log.lines.map((l) => `${l.level} ${l.message}`)).toContain(
        'error error streaming response for GET /ticks',
      );
      expect(seen.teardown).toBe(1);
    } finally {
      failAt = -1;
    }
  });

  it('honours backpressure: a client that reads nothing holds the source to a bounded number of pulls', async () => {
    const flood = { pulls: 0 };
    class Flood extends Endpoint('/flood') {
      get = this.operation({ returns: StreamingResponse.of() }, () => {
        async function* forever() {
          for (;;) {
            flood.pulls++;
            yield randomBytes(64 * 1024); // incompressible: the encoder cannot hide the pressure
          }
        }
        return new StreamingResponse({ stream: forever() });
      });
    }
    const { client } = await start((a) => {
      a.extension(gzipAll);
      a.endpoint(new Flood());
    });
    const socket = connect(Number(new URL(client.url).port), '127.0.0.1');
    socket.pause();
    socket.write('GET /flood HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    await waitFor(() => flood.pulls > 4);
    let last = -1;
    for (let i = 0; i < 20 && flood.pulls !== last; i++) {
      last = flood.pulls;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // Kernel buffers (a few MiB at most on loopback) plus the encoder's: far below unbounded.
    expect(flood.pulls).toBe(last);
    expect(flood.pulls).toBeLessThan(400);
    socket.destroy();
  });

  it('graceful shutdown ends the encoded stream properly: a complete gzip member and the terminating chunk', async () => {
    delayMs = 10_000;
    try {
      const app = new TestApp({
        wire: (a) => {
          a.extension(gzipAll);
          a.endpoint(new Ticks());
        },
      });
      const running = await serve(app, { port: 0, signals: false, quiet: true });
      const response = rawRequest(running.url, '/ticks');
      await waitFor(() => seen.pulls >= 2);
      await running.close();
      const res = await response;
      expect(res.terminated).toBe(true);
      expect(res.head).toMatch(/\r\ncontent-encoding: gzip\r\n/);
      expect(gunzipSync(Buffer.concat(res.chunks)).toString()).toBe('{"n":0}\n');
      expect(seen.teardown).toBe(1);
    } finally {
      delayMs = 0;
    }
  });

  it('HEAD is not encoded and never starts the source', async () => {
    const { client } = await start((a) => {
      a.extension(gzipAll);
      a.endpoint(new Ticks());
    });
    const res = await client.head('/ticks');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeUndefined();
    expect(seen.setup).toBe(0);
  });
});
