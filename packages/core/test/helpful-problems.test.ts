// Refusals that tell the caller what to do, over a real socket: a 413 names the limit, a 415 the
// media types the route accepts, a 431 head (answered by serve(), not the app) carries the request
// id and is logged as a 413 is, and a query value that does not read as its type says what was
// expected without echoing what was sent.
import { connect } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, serve, Struct, type RunningServer } from '../src/index';

const Ok = Struct('HelpfulOk', { ok: v.boolean() });
class Books extends Endpoint('/books') {
  get = this.operation(
    { params: Struct('BookQuery', { limit: v.optional(v.number(), 10) }), returns: Ok },
    () => ({
      ok: true,
    }),
  );
  post = this.operation({ json: Struct('BookIn', { title: v.string() }), returns: Ok }, () => ({ ok: true }));
}

/** A logger keeping each info line with its fields. */
function fieldLogger(): {
  lines: [string, Record<string, unknown> | undefined][];
  info: (m: string, f?: Record<string, unknown>) => void;
  warn: () => void;
  error: () => void;
} {
  const lines: [string, Record<string, unknown> | undefined][] = [];
  return { lines, info: (m, f) => void lines.push([m, f]), warn: () => undefined, error: () => undefined };
}

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function started(requestLog: boolean) {
  const log = fieldLogger();
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.includeEndpoint(new Books());
    }
  }
  const running = await serve(new App({ logger: log, requestLog, limits: { maxBodyBytes: 64 } }), {
    port: 0,
    signals: false,
    quiet: true,
  });
  servers.push(running);
  return { running, log };
}

/** Writes raw bytes and collects the answer until the server closes the connection. */
function raw(port: number, text: string): Promise<{ head: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const end = out.indexOf('\r\n\r\n');
      resolve({ head: out.slice(0, end).split('\r\n'), body: out.slice(end + 4) });
    });
  });
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Problems that help', () => {
  it('a 413 names the limit and its size', async () => {
    const { running, log } = await started(true);
    const res = await fetch(`${running.url}/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(100) }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('x-request-id')).toMatch(UUID);
    expect(await res.json()).toEqual({
      type: 'payload-too-large',
      title: 'Payload too large',
      status: 413,
      detail: 'The request is over its maxBodyBytes limit of 64 bytes',
      params: { limit: 'maxBodyBytes', bytes: 64 },
    });
    expect(log.lines.find(([m]) => m === 'request finished')?.[1]).toMatchObject({
      status: 413,
      requestId: res.headers.get('x-request-id'),
    });
  });

  it('a 415 lists what the route accepts', async () => {
    const { running } = await started(false);
    const res = await fetch(`${running.url}/books`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"title":"x"}',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      type: 'unsupported-media-type',
      title: 'Unsupported media type',
      status: 415,
      detail:
        'This operation accepts application/json (or another +json type) in UTF-8, without a content-encoding',
      params: {
        accepted: 'application/json (or another +json type) in UTF-8, without a content-encoding',
      },
    });
  });

  it('a 431 head answered by serve() carries a request id and is logged like a 413', async () => {
    const { running, log } = await started(true);
    const { head, body } = await raw(
      running.port,
      `GET /books HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(head[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    const id = head.find((l) => l.startsWith('x-request-id: '))?.slice('x-request-id: '.length);
    expect(id).toMatch(UUID);
    expect(JSON.parse(body)).toEqual({
      type: 'request-header-fields-too-large',
      title: 'Request header fields too large',
      status: 431,
    });
    expect(log.lines).toEqual([
      [
        'request finished',
        {
          status: 431,
          reason: 'the request head is over the server limit (maxHeaderSize)',
          requestId: id,
        },
      ],
    ]);
  });

  it('without the request log, the 431 has no id and logs nothing (as any answer)', async () => {
    const { running, log } = await started(false);
    const { head } = await raw(
      running.port,
      `GET /books HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(head[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(head.some((l) => l.startsWith('x-request-id'))).toBe(false);
    expect(log.lines).toEqual([]);
  });

  it('a query value that is not its type says what was expected, never the value', async () => {
    const { running } = await started(false);
    const res = await fetch(`${running.url}/books?limit=abc-secret`);
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({
      detail: 'Expected number, got other text at `query parameter limit`',
    });
    expect(text).not.toContain('abc-secret');
  });
});
