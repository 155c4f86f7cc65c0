// Partial answers pass through untouched (RFC 9110 §14.4: Content-Range counts the bytes of the
// identity body; §15.3.7: a 206 is a part of the selected representation). An encoded 206 breaks a
// resumed download: the client splices compressed bytes into the identity file. The cases are
// ported from @fastify/compress (test/global-compress.test.js, "Range Responses", and "a partial
// Fetch API Response") and Hono's compress middleware ("should not compress 206 Partial Content
// responses"), read here off a raw socket: every byte as the server wrote it.
import { connect } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BytesResponse, Endpoint } from '@api/core';
import { StreamingResponse } from '@api/streaming';
import { compress } from '../src/index';
import { serveApp } from './helpers';

const PART = 'a'.repeat(1024);

class Partial extends Endpoint('/partial') {
  // Hono's /partial: 1024 bytes of a 2048-byte text, 206 with its Content-Range.
  get = this.operation(
    { returns: BytesResponse.of() },
    () =>
      new BytesResponse({
        statusCode: 206,
        content: Buffer.from(PART),
        contentType: 'text/plain',
        rawHeaders: { 'content-range': 'bytes 0-1023/2048' },
      }),
  );
}
class Hello extends Endpoint('/hello') {
  // @fastify/compress's /partial (threshold 0): five bytes of twelve.
  get = this.operation(
    { returns: BytesResponse.of() },
    () =>
      new BytesResponse({
        statusCode: 206,
        content: Buffer.from('hello'),
        contentType: 'text/plain',
        rawHeaders: { 'content-range': 'bytes 0-4/12' },
      }),
  );
}
class RangeOn200 extends Endpoint('/content-range') {
  // @fastify/compress's /content-range: a 200 that carries Content-Range all the same.
  get = this.operation(
    { returns: BytesResponse.of() },
    () =>
      new BytesResponse({
        content: Buffer.from(PART),
        contentType: 'text/plain',
        rawHeaders: { 'content-range': 'bytes 0-1023/2048' },
      }),
  );
}
class Unsatisfiable extends Endpoint('/unsatisfiable') {
  // 416 with the complete length (RFC 9110 §15.5.17), and a body worth compressing.
  get = this.operation(
    { returns: BytesResponse.of() },
    () =>
      new BytesResponse({
        statusCode: 416,
        content: Buffer.from(`range not satisfiable: ${PART}`),
        contentType: 'text/plain',
        rawHeaders: { 'content-range': 'bytes */2048' },
      }),
  );
  // A 416 without Content-Range is a range answer too.
  post = this.operation(
    { returns: BytesResponse.of() },
    () =>
      new BytesResponse({
        statusCode: 416,
        content: Buffer.from(PART),
        contentType: 'text/plain',
      }),
  );
}
class StreamedPart extends Endpoint('/streamed-part') {
  // A 206 streamed (a file read in chunks): chunked identity, never an encoder.
  get = this.operation(
    { returns: StreamingResponse.of({ contentType: 'text/plain' }) },
    () =>
      new StreamingResponse({
        statusCode: 206,
        rawHeaders: { 'content-range': 'bytes 0-1023/2048' },
        stream: (async function* () {
          yield PART.slice(0, 512);
          yield PART.slice(512);
        })(),
      }),
  );
}
class Whole extends Endpoint('/whole') {
  // The control: the same text as a 200 is compressed (so the cases above can fail).
  get = this.operation({ returns: v.string() }, () => PART);
}

/** One request on its own socket (`connection: close`); resolves with everything the server wrote. */
function raw(url: string, method: string, path: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.write(
      `${method} ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept-encoding: gzip, br\r\n` +
        `range: bytes=0-1023\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
    );
  });
}

interface Parsed {
  readonly status: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Splits a raw HTTP/1.1 answer; a chunked body is de-chunked. */
function parse(bytes: Buffer): Parsed {
  const end = bytes.indexOf('\r\n\r\n');
  const [status, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    expect(headers[name], `one ${name} header`).toBeUndefined();
    headers[name] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', at);
      const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (size === 0) break;
      parts.push(body.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status: status!, headers, body };
}

async function app(): Promise<string> {
  const client = await serveApp((w) => {
    w.include(compress({ threshold: 0 }));
    for (const route of [
      new Partial(),
      new Hello(),
      new RangeOn200(),
      new Unsatisfiable(),
      new StreamedPart(),
    ])
      w.endpoint(route);
    w.endpoint(new Whole());
  });
  return client.url;
}

describe('range answers pass through uncompressed', () => {
  it('206 Partial Content (Hono): identity bytes, its content-length and content-range, no vary', async () => {
    const url = await app();
    const res = parse(await raw(url, 'GET', '/partial'));
    expect(res.status).toBe('HTTP/1.1 206 Partial Content');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe('bytes 0-1023/2048');
    expect(res.headers['content-length']).toBe('1024');
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers.vary).toBeUndefined();
    expect(res.body.toString()).toBe(PART);
  });

  it('206 of five bytes with threshold 0 (@fastify/compress)', async () => {
    const url = await app();
    const res = parse(await raw(url, 'GET', '/hello'));
    expect(res.status).toBe('HTTP/1.1 206 Partial Content');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe('bytes 0-4/12');
    expect(res.headers['content-length']).toBe('5');
    expect(res.body.toString()).toBe('hello');
  });

  it('any answer carrying content-range, a 200 too (@fastify/compress)', async () => {
    const url = await app();
    const res = parse(await raw(url, 'GET', '/content-range'));
    expect(res.status).toBe('HTTP/1.1 200 OK');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe('bytes 0-1023/2048');
    expect(res.headers['content-length']).toBe('1024');
    expect(res.body.toString()).toBe(PART);
  });

  it('416 Range Not Satisfiable, with and without content-range', async () => {
    const url = await app();
    const withRange = parse(await raw(url, 'GET', '/unsatisfiable'));
    expect(withRange.status).toBe('HTTP/1.1 416 Range Not Satisfiable');
    expect(withRange.headers['content-encoding']).toBeUndefined();
    expect(withRange.headers['content-range']).toBe('bytes */2048');
    expect(withRange.body.toString()).toBe(`range not satisfiable: ${PART}`);
    const without = parse(await raw(url, 'POST', '/unsatisfiable'));
    expect(without.status).toBe('HTTP/1.1 416 Range Not Satisfiable');
    expect(without.headers['content-encoding']).toBeUndefined();
    expect(without.headers['content-length']).toBe('1024');
    expect(without.body.toString()).toBe(PART);
  });

  it('a streamed 206: chunked identity, the parts in order', async () => {
    const url = await app();
    const res = parse(await raw(url, 'GET', '/streamed-part'));
    expect(res.status).toBe('HTTP/1.1 206 Partial Content');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-range']).toBe('bytes 0-1023/2048');
    expect(res.body.toString()).toBe(PART);
  });

  it('the control: the same text as a 200 without content-range is compressed', async () => {
    const url = await app();
    const res = parse(await raw(url, 'GET', '/whole'));
    expect(res.status).toBe('HTTP/1.1 200 OK');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers['content-range']).toBeUndefined();
    expect(res.body.length).toBeLessThan(100);
    expect(brotliDecompressSync(res.body).toString()).toBe(JSON.stringify(PART));
  });
});
