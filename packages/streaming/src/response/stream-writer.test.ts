// The shared writer against core's response-writer contract (ResponseSink: head, start, log,
// exchange), driven over a real socket by a bare node:http server standing in for core.
import { getEventListeners } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { Struct } from '@api/core';
import { responseInfo, type CustomWriter, type ResponseSpec } from '@api/core/extension';
import { memoryLogger } from '../../test/fakes';
import { waitFor } from '../../test/wire';
import { NDJSONStreamingResponse, SSEResponse } from '../index';

const Chunk = Struct('Chunk', { text: v.string() });

interface Harness {
  readonly url: string;
  readonly log: ReturnType<typeof memoryLogger>;
  readonly starts: { status: number; headers: string[] }[];
  readonly failures: unknown[];
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

function compile(spec: ResponseSpec<unknown>, method = 'GET'): CustomWriter {
  const info = responseInfo(spec)!;
  return info.compile!({
    method,
    path: '/s',
    where: 'Streams.get',
    defaultStatus: 200,
    fail: (problem, fix) => {
      throw new Error(`Streams.get: ${problem}. Fix: ${fix}.`);
    },
  });
}

/** Serves `value` through `writer` with a sink built the way the contract describes it. */
async function serveWith(
  writer: CustomWriter,
  value: () => unknown,
  shutdownSignal: AbortSignal = new AbortController().signal,
): Promise<Harness> {
  const log = memoryLogger();
  const starts: Harness['starts'] = [];
  const failures: unknown[] = [];
  const route = { method: 'GET', path: '/s', facts: new Map<string, unknown>() };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const sink = {
      method: req.method ?? 'GET',
      req,
      res,
      log,
      exchange: { path: '/s', route, shutdownSignal },
      head: (
        _status: number,
        contentType: string | undefined,
        fields: { rawHeaders?: Record<string, string> },
      ) => {
        const out = contentType === undefined ? [] : ['content-type', contentType];
        for (const [k, val] of Object.entries(fields.rawHeaders ?? {})) out.push(k, val);
        return out;
      },
      write: (chunk: string | Uint8Array) => res.write(chunk),
      end: () => res.end(),
      cut: () => (res.socket ? res.socket.end() : res.destroy()),
      flushHeaders: () => res.flushHeaders(),
      get writableLength() {
        return res.writableLength;
      },
      on: (event: 'close' | 'drain', listener: () => void) => res.on(event, listener),
      off: (event: 'close' | 'drain', listener: () => void) => res.off(event, listener),
      start: (status: number, headers: string[]) => {
        starts.push({ status, headers: [...headers] });
        res.writeHead(status, [...headers, 'x-tail', 'tail']);
        if (req.method === 'HEAD') {
          res.end();
          return false;
        }
        return true;
      },
    };
    Promise.resolve(writer(value(), sink as never)).catch((error: unknown) => {
      failures.push(error);
      res.writeHead(500).end('funnel');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log, starts, failures };
}

function get(
  url: string,
  method = 'GET',
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${url}/s`, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the stream writer (against the ResponseSink contract)', () => {
  it('runs setup and pulls the first item before start(), then streams', async () => {
    const order: string[] = [];
    const writer = compile(NDJSONStreamingResponse.of(Chunk));
    const h = await serveWith(writer, () => {
      async function* lifecycle() {
        order.push('setup');
        yield (async function* () {
          order.push('first');
          yield { text: 'a' };
          yield { text: 'b' };
        })();
        order.push('teardown');
      }
      return new NDJSONStreamingResponse({ stream: lifecycle() });
    });
    const res = await get(h.url);
    expect(res.body).toBe('{"text":"a"}\n{"text":"b"}\n');
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    expect(res.headers['x-tail']).toBe('tail');
    expect(h.starts).toEqual([{ status: 200, headers: ['content-type', 'application/x-ndjson'] }]);
    expect(order).toEqual(['setup', 'first', 'teardown']);
  });

  it('answers HEAD through start() alone, without touching the stream', async () => {
    let touched = false;
    const writer = compile(SSEResponse.of(Chunk));
    const h = await serveWith(writer, () => {
      async function* lifecycle() {
        touched = true;
        yield (async function* () {})();
      }
      return new SSEResponse({ stream: lifecycle(), statusCode: 203 });
    });
    const res = await get(h.url, 'HEAD');
    expect(res.status).toBe(203);
    expect(h.starts).toEqual([
      { status: 203, headers: ['content-type', 'text/event-stream', 'cache-control', 'no-cache'] },
    ]);
    expect(touched).toBe(false);
  });

  it('keeps a raw content-type and cache-control instead of the defaults', async () => {
    const writer = compile(SSEResponse.of(Chunk));
    const h = await serveWith(writer, () => {
      async function* events() {
        yield 'x';
      }
      return new SSEResponse({
        stream: events(),
        rawHeaders: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' },
      });
    });
    await get(h.url);
    expect(h.starts[0]?.headers).toEqual([
      'Content-Type',
      'text/event-stream; charset=utf-8',
      'Cache-Control',
      'no-store',
    ]);
  });

  it('rejects into the funnel before start() when setup fails, after teardown', async () => {
    let torn = false;
    const writer = compile(NDJSONStreamingResponse.of(Chunk));
    const h = await serveWith(writer, () => {
      async function* lifecycle() {
        try {
          // eslint-disable-next-line require-yield -- the first item fails
          yield (async function* () {
            throw new Error('first item failed');
          })();
        } finally {
          torn = true;
        }
      }
      return new NDJSONStreamingResponse({ stream: lifecycle() });
    });
    const res = await get(h.url);
    expect(res).toMatchObject({ status: 500, body: 'funnel' });
    expect(h.starts).toEqual([]);
    expect(torn).toBe(true);
    expect(String(h.failures[0])).toContain('first item failed');
  });

  it('rejects a returned value that is not its wrapper, naming the operation', async () => {
    const writer = compile(NDJSONStreamingResponse.of(Chunk));
    const h = await serveWith(writer, () => ({ stream: [] }));
    await get(h.url);
    expect(String(h.failures[0])).toBe(
      'TypeError: Streams.get declares NDJSONStreamingResponse but returned an object',
    );
  });

  it("ends the stream when the exchange's shutdownSignal aborts: teardown, then the terminating chunk", async () => {
    const shutdown = new AbortController();
    let torn = false;
    const writer = compile(NDJSONStreamingResponse.of(Chunk));
    const h = await serveWith(
      writer,
      () => {
        async function* lifecycle() {
          try {
            yield (async function* () {
              yield { text: 'a' };
              await new Promise(() => undefined);
            })();
          } finally {
            torn = true;
          }
        }
        return new NDJSONStreamingResponse({ stream: lifecycle() });
      },
      shutdown.signal,
    );
    const response = get(h.url);
    await waitFor(() => getEventListeners(shutdown.signal, 'abort').length === 1);
    await waitFor(() => h.starts.length === 1);
    shutdown.abort();
    const res = await response;
    expect(res.body).toBe('{"text":"a"}\n'); // ended properly: 'end' fired, no cut
    expect(torn).toBe(true);
    expect(getEventListeners(shutdown.signal, 'abort')).toEqual([]);
    expect(h.log.lines).toEqual([]);
  });

  it('removes its shutdown listener whenever the stream ends: completed, failed setup, client gone', async () => {
    const shutdown = new AbortController();
    const listeners = (): number => getEventListeners(shutdown.signal, 'abort').length;
    let mode: 'complete' | 'fail' | 'hang' | 'stuck' = 'complete';
    let torn = 0;
    const writer = compile(NDJSONStreamingResponse.of(Chunk));
    const h = await serveWith(
      writer,
      () => {
        const current = mode;
        async function* lifecycle() {
          if (current === 'fail') throw new Error('setup failed');
          try {
            yield (async function* () {
              yield { text: current };
              if (current === 'hang') await new Promise(() => undefined);
            })();
          } finally {
            torn++;
            if (current === 'stuck') await new Promise(() => undefined); // a teardown that never settles
          }
        }
        return new NDJSONStreamingResponse({ stream: lifecycle() });
      },
      shutdown.signal,
    );
    expect((await get(h.url)).body).toBe('{"text":"complete"}\n');
    await waitFor(() => listeners() === 0);
    mode = 'fail';
    expect((await get(h.url)).status).toBe(500);
    await waitFor(() => listeners() === 0);
    mode = 'hang';
    const req = request(`${h.url}/s`);
    req.on('error', () => undefined);
    req.end();
    await waitFor(() => h.starts.length === 2 && listeners() === 1);
    req.destroy(); // the client leaves mid-stream
    await waitFor(() => torn === 2 && listeners() === 0);
    mode = 'stuck';
    const stuck = request(`${h.url}/s`);
    stuck.on('error', () => undefined);
    stuck.end();
    await waitFor(() => h.starts.length === 3 && listeners() === 1);
    stuck.destroy(); // the client leaves; teardown never settles, the listener goes anyway
    await waitFor(() => torn === 3 && listeners() === 0);
  });

  it('ends a stream that starts after shutdown began right after its first item', async () => {
    const shutdown = new AbortController();
    shutdown.abort();
    let pulled = 0;
    const writer = compile(NDJSONStreamingResponse.of(Chunk));
    const h = await serveWith(
      writer,
      () =>
        new NDJSONStreamingResponse({
          stream: (async function* () {
            for (;;) {
              pulled++;
              yield { text: 'late' };
            }
          })(),
        }),
      shutdown.signal,
    );
    const res = await get(h.url);
    expect(res).toMatchObject({ status: 200, body: '{"text":"late"}\n' });
    expect(pulled).toBe(1);
    expect(getEventListeners(shutdown.signal, 'abort')).toEqual([]);
  });

  it('fails wiring of SSE on any method but GET', () => {
    expect(() => compile(SSEResponse.of(Chunk), 'POST')).toThrow(
      /^Streams\.get: SSEResponse is GET-only \(an EventSource can only GET\), but this operation answers POST\. Fix: /,
    );
    expect(() => compile(SSEResponse.of(Chunk), 'POST')).toThrow(
      expect.objectContaining({ code: 'API_WIRING_STREAMING_METHOD', where: 'Streams.get' }),
    );
  });
});
