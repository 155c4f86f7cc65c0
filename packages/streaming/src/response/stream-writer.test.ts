// The shared writer against core's response-writer contract (ResponseSink: head, start, log,
// exchange), driven over a real socket by a bare node:http server standing in for core.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { Struct } from '@api/core';
import { responseInfo, type CustomWriter, type ResponseSpec } from '@api/core/extension';
import { memoryLogger } from '../../test/fakes';
import { waitFor } from '../../test/wire';
import { StreamRegistry, STREAMS_FACT } from '../extension/registry';
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
async function serveWith(writer: CustomWriter, value: () => unknown, facts = new Map<string, unknown>()): Promise<Harness> {
  const log = memoryLogger();
  const starts: Harness['starts'] = [];
  const failures: unknown[] = [];
  const route = { method: 'GET', path: '/s', facts };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const sink = {
      method: req.method ?? 'GET',
      req,
      res,
      log,
      exchange: { path: '/s', route },
      head: (_status: number, contentType: string | undefined, fields: { rawHeaders?: Record<string, string> }) => {
        const out = contentType === undefined ? [] : ['content-type', contentType];
        for (const [k, val] of Object.entries(fields.rawHeaders ?? {})) out.push(k, val);
        return out;
      },
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

function get(url: string, method = 'GET'): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
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
      'TypeError: Streams.get declares NDJSONStreamingResponse but returned an instance of Object',
    );
  });

  it('registers the open stream with the app registry, which ends it on shutdown', async () => {
    const registry = new StreamRegistry();
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
      new Map([[STREAMS_FACT, registry]]),
    );
    const response = get(h.url);
    await waitFor(() => registry.size === 1);
    await registry.stopAll();
    const res = await response;
    expect(res.body).toBe('{"text":"a"}\n'); // ended properly: 'end' fired, no cut
    expect(torn).toBe(true);
    expect(registry.size).toBe(0);
    expect(h.log.lines).toEqual([]);
  });

  it('warns once per route when no registry is there', async () => {
    const writer = compile(NDJSONStreamingResponse.of(Chunk));
    const h = await serveWith(writer, () => new NDJSONStreamingResponse({ stream: (async function* () {})() }));
    await get(h.url);
    await get(h.url);
    expect(h.log.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('fails wiring of SSE on any method but GET', () => {
    expect(() => compile(SSEResponse.of(Chunk), 'POST')).toThrow(
      /^Streams\.get: SSEResponse is GET-only \(an EventSource can only GET\), but this operation answers POST\. Fix: /,
    );
  });
});
