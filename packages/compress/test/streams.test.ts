// Streams stay live under compression: every item is flushed through the encoder as it is
// written, so a client decodes each event before the server produces the next one. The proof is
// a handshake: the server's source waits until the client has parsed the previous item.
import { request, type IncomingMessage } from 'node:http';
import { createBrotliDecompress, createGunzip, type Gunzip, type BrotliDecompress } from 'node:zlib';
import { createParser } from 'eventsource-parser';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Endpoint, Struct } from '@api/core';
import { NDJSONStreamingResponse, SSEResponse, ServerSentEvent, StreamingResponse } from '@api/streaming';
import { compress } from '../src/index';
import { serveApp } from './helpers';

const Notice = Struct('Notice', { n: v.number(), text: v.string() });

/** The client's side of the handshake: the source waits for `seen(n)` before producing item n + 1. */
class Handshake {
  readonly #waiting = new Map<number, () => void>();
  readonly #seen = new Set<number>();
  /** What the source awaits; rejects if the client has not seen item `n` within `ms`. */
  seenBy(n: number, ms = 3000): Promise<void> {
    if (this.#seen.has(n)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the client did not see item ${n}: not flushed`)), ms);
      this.#waiting.set(n, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  seen(n: number): void {
    this.#seen.add(n);
    this.#waiting.get(n)?.();
  }
}

let handshake = new Handshake();
const produced: number[] = [];

class Feed extends Endpoint('/feed') {
  get = this.operation({ returns: SSEResponse.of(Notice) }, () => {
    async function* events() {
      for (let n = 1; n <= 3; n++) {
        produced.push(n);
        yield new ServerSentEvent({ event: 'notice', id: String(n), data: { n, text: `event ${n}` } });
        await handshake.seenBy(n);
      }
    }
    return new SSEResponse({ stream: events() });
  });
}
class Lines extends Endpoint('/lines') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Notice) }, () => {
    async function* lines() {
      for (let n = 1; n <= 3; n++) {
        produced.push(n);
        yield { n, text: `line ${n}` };
        await handshake.seenBy(n);
      }
    }
    return new NDJSONStreamingResponse({ stream: lines() });
  });
}
class Csv extends Endpoint('/report.csv') {
  get = this.operation(
    { returns: StreamingResponse.of({ contentType: 'text/csv' }) },
    () =>
      new StreamingResponse({
        stream: (async function* () {
          yield 'id,name\n';
          yield '1,sprocket\n';
        })(),
      }),
  );
}
class Blob extends Endpoint('/blob') {
  get = this.operation(
    { returns: StreamingResponse.of() },
    () =>
      new StreamingResponse({
        stream: (async function* () {
          yield Buffer.alloc(4096, 1);
        })(),
      }),
  );
}

async function app(): Promise<string> {
  handshake = new Handshake();
  produced.length = 0;
  const client = await serveApp((w) => {
    w.include(compress());
    w.endpoint(new Feed());
    w.endpoint(new Lines());
    w.endpoint(new Csv());
    w.endpoint(new Blob());
  });
  return client.url;
}

/** GETs `path` and hands the decoded text to `onText` chunk by chunk, as it arrives. */
function stream(
  url: string,
  path: string,
  acceptEncoding: string,
  onText: (text: string) => void,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request(`${url}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const coding = res.headers['content-encoding'];
      const decoder: Gunzip | BrotliDecompress | undefined =
        coding === 'gzip' ? createGunzip() : coding === 'br' ? createBrotliDecompress() : undefined;
      const out = decoder ? res.pipe(decoder) : res;
      out.on('data', (chunk: Buffer) => onText(chunk.toString()));
      out.on('end', () => resolve(res));
      out.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('SSE through gzip, read by eventsource-parser', () => {
  it('each event arrives (and parses) before the server produces the next one', async () => {
    const url = await app();
    const events: { event: string | undefined; id: string | undefined; data: string; produced: number }[] =
      [];
    const parser = createParser({
      onEvent: (event) => {
        events.push({ event: event.event, id: event.id, data: event.data, produced: produced.length });
        handshake.seen(Number(event.id));
      },
    });
    const res = await stream(url, '/feed', 'gzip', (text) => parser.feed(text));
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers['content-length']).toBeUndefined();
    expect(events).toEqual(
      [1, 2, 3].map((n) => ({
        event: 'notice',
        id: String(n),
        data: JSON.stringify({ n, text: `event ${n}` }),
        produced: n, // the source had produced exactly this event when the client parsed it
      })),
    );
  });
});

describe('NDJSON through brotli', () => {
  it('each line decodes before the next is produced', async () => {
    const url = await app();
    let buffered = '';
    const lines: { line: unknown; produced: number }[] = [];
    const res = await stream(url, '/lines', 'br, gzip', (text) => {
      buffered += text;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, nl)) as { n: number };
        buffered = buffered.slice(nl + 1);
        lines.push({ line, produced: produced.length });
        handshake.seen(line.n);
      }
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(lines).toEqual([1, 2, 3].map((n) => ({ line: { n, text: `line ${n}` }, produced: n })));
  });
});

describe('byte streams follow their content type', () => {
  it('text/csv is compressed; application/octet-stream is not', async () => {
    const url = await app();
    let csv = '';
    const csvRes = await stream(url, '/report.csv', 'gzip', (t) => (csv += t));
    expect(csvRes.headers['content-encoding']).toBe('gzip');
    expect(csv).toBe('id,name\n1,sprocket\n');
    let blob = '';
    const blobRes = await stream(url, '/blob', 'gzip', (t) => (blob += t));
    expect(blobRes.headers['content-encoding']).toBeUndefined();
    expect(blobRes.headers.vary).toBeUndefined();
    expect(blob.length).toBe(4096);
  });
});
