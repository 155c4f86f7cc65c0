import { request, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  BaseApp,
  Endpoint,
  FileFormPart,
  serve,
  Struct,
  type LimitsOptions,
  type RunningServer,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger } from './fixtures';

const clients: TestClient[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

class Sink extends Endpoint('/sink') {
  post = this.operation({ json: v.unknown(), returns: Struct('Ok', { ok: v.boolean() }) }, () => ({
    ok: true,
  }));
  put = this.operation({ content: true, returns: Struct('Len', { length: v.number() }) }, ({ content }) => ({
    length: content.length,
  }));
}
class Small extends Endpoint('/small') {
  post = this.operation(
    { content: true, returns: Struct('Len2', { length: v.number() }) },
    ({ content }) => ({ length: content.length }),
  );
}
class Upload extends Endpoint('/upload') {
  post = this.operation(
    { form: Struct('Up', { file: FileFormPart() }), returns: Struct('Size', { size: v.number() }) },
    ({ form }) => ({ size: form.file.content.length }),
  );
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Sink());
    this.includeEndpoint(new Small(), { limits: { maxBodyBytes: 10 } });
    this.includeEndpoint(new Upload());
  }
}
function client(limits: LimitsOptions = {}): TestClient {
  const c = new TestClient(new App({ logger: memoryLogger(), limits }));
  clients.push(c);
  return c;
}

/** Serves the test app on a real socket (closed after the test). */
async function started(limits: LimitsOptions = {}): Promise<RunningServer> {
  const running = await serve(new App({ logger: memoryLogger(), limits }), {
    port: 0,
    signals: false,
    quiet: true,
  });
  servers.push(running);
  return running;
}

/** Sends a PUT whose body is written by `write` (node:http request, so framing stays the test's choice). */
function put(
  url: string,
  headers: Record<string, string>,
  write: (req: ClientRequest) => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    write(req);
  });
}

/** Writes raw bytes on a socket and collects everything until the server closes it. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString()));
    socket.on('close', () => resolve(out));
  });
}

/** The 413 Problem: it names the limit passed and its size. */
const tooLarge = (limit: string, bytes: number) => ({
  type: 'payload-too-large',
  title: 'Payload too large',
  status: 413,
  detail: `The request is over its ${limit} limit of ${bytes} bytes`,
  params: { limit, bytes },
});

describe('limits', () => {
  it('refuses a body over the limit with 413, from content-length or while streaming', async () => {
    const c = client({ maxBodyBytes: 1000 });
    const res = await c.put('/sink', { content: 'x'.repeat(1001) });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual(tooLarge('maxBodyBytes', 1000));
    expect((await c.put('/sink', { content: 'x'.repeat(1000) })).json()).toEqual({ length: 1000 });
  });

  it('applies per-mount limits', async () => {
    const c = client();
    expect((await c.post('/small', { content: '0123456789' })).status).toBe(200);
    const over = await c.post('/small', { content: '0123456789A' });
    expect(over.status).toBe(413);
    expect(over.json()).toEqual(tooLarge('maxBodyBytes', 10));
  });

  it('counts chunked bodies as they arrive', async () => {
    const running = await started({ maxBodyBytes: 100 });
    const status = await put(`${running.url}/sink`, { 'transfer-encoding': 'chunked' }, (req) => {
      for (let i = 0; i < 5; i++) req.write('x'.repeat(50));
      req.end();
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body)).toEqual(tooLarge('maxBodyBytes', 100));
  });

  it('refuses JSON nested deeper than the limit with 400, without recursion', async () => {
    const c = client({ maxJsonDepth: 64 });
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await c.post('/sink', { content: deep, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'malformed-request',
      detail: 'JSON nesting is deeper than 64 levels',
    });
    const ok = '['.repeat(64) + ']'.repeat(64);
    expect(
      (await c.post('/sink', { content: ok, headers: { 'content-type': 'application/json' } })).status,
    ).toBe(200);
  });

  it('refuses __proto__ and constructor.prototype keys with 400', async () => {
    const c = client();
    for (const body of ['{"a":{"__proto__":{"admin":true}}}', '[{"constructor":{"prototype":{"x":1}}}]']) {
      const res = await c.post('/sink', { content: body, headers: { 'content-type': 'application/json' } });
      expect(res.status, body).toBe(400);
      expect(res.json()).toMatchObject({
        detail: 'JSON keys "__proto__" and "constructor.prototype" are not accepted',
      });
    }
    expect((await c.post('/sink', { json: { constructor: 'fine', prototype: 1 } })).status).toBe(200);
  });

  it('refuses too many headers with 431', async () => {
    const c = client({ maxHeaders: 20 });
    const headers: [string, string][] = Array.from({ length: 25 }, (_, i) => [`x-h${i}`, 'v']);
    const res = await c.get('/sink', { headers });
    expect(res.status).toBe(431);
    expect(res.json()).toEqual({
      type: 'request-header-fields-too-large',
      title: 'Request header fields too large',
      status: 431,
    });
  });

  it('refuses a file over the multipart limit with 413', async () => {
    const c = client({ multipart: { maxFileSize: 100 } });
    const ok = await c.post('/upload', {
      files: { file: { filename: 'a.bin', content: Buffer.alloc(100) } },
    });
    expect(ok.json()).toEqual({ size: 100 });
    const res = await c.post('/upload', {
      files: { file: { filename: 'a.bin', content: Buffer.alloc(101) } },
    });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual(tooLarge('multipart.maxFileSize', 100));
  });

  it('refuses multipart bodies whose parts together exceed the total limit with 413', async () => {
    const c = client({ multipart: { maxTotalSize: 2000 } });
    const res = await c.post('/upload', {
      files: {
        file: { filename: 'a.bin', content: Buffer.alloc(900) },
        other: [
          { filename: 'b.bin', content: Buffer.alloc(900) },
          { filename: 'c.bin', content: Buffer.alloc(900) },
        ],
      },
    });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual(tooLarge('multipart.maxTotalSize', 2000));
  });

  it('answers 408 when the body does not arrive within the request timeout', async () => {
    const running = await started({ requestTimeoutMs: 300 });
    const result = await put(`${running.url}/sink`, { 'content-length': '100' }, (req) =>
      req.write('only a little'),
    );
    expect(result.status).toBe(408);
    expect(JSON.parse(result.body)).toEqual({
      type: 'request-timeout',
      title: 'Request timeout',
      status: 408,
    });
  });

  it('answers 408 with a Problem when the request head does not arrive in time', async () => {
    const running = await started({ headersTimeoutMs: 300, requestTimeoutMs: 1000 });
    const begin = Date.now();
    const text = await rawExchange(running.port, 'GET /sink HTTP/1.1\r\nHost: x\r\n');
    expect(Date.now() - begin).toBeLessThan(5000);
    expect(text.startsWith('HTTP/1.1 408 Request Timeout\r\n')).toBe(true);
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(
      '{"type":"request-timeout","title":"Request timeout","status":408}',
    );
  });

  it('answers an unparseable request with a 400 Problem', async () => {
    const running = await started();
    const text = await rawExchange(running.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(text.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({
      type: 'malformed-request',
      status: 400,
    });
  });

  it('never accepts a zero or negative limit', () => {
    const zero = expectWiringError(
      () => new App({ limits: { maxBodyBytes: 0 } }),
      'API_WIRING_LIMIT',
      'new App({ limits })',
    );
    expect(zero.problem).toMatch(/^limit "maxBodyBytes" must be a positive number/);
    const negative = () => new App({ limits: { requestTimeoutMs: -1 } });
    expect(expectWiringError(negative, 'API_WIRING_LIMIT', 'new App({ limits })').problem).toMatch(
      /never 0 or unlimited$/,
    );
  });
});
