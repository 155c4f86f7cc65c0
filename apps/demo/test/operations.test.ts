// Operating the demo: pino logs (JSON lines, or pino-pretty's readable lines in a terminal), the
// request log with request ids, a Server-Timing header from a third-party-style extension, and
// traces through @api/otel with the real SDK (an in-memory exporter registered for this file).
import { Writable } from 'node:stream';
import {
  ConsoleSpanExporter,
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logging';
import { exportersFromEnv } from '../src/tracing';
import { AUTH, startDemo, until, type Demo } from './helpers/demo';

const exporter = new InMemorySpanExporter();
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();

/** A stream collecting what a logger writes, line by line. */
function memory(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(line);
      callback();
    },
  });
  return { lines, stream };
}

let demo: Demo;
let written: string[];
beforeAll(async () => {
  const { lines, stream } = memory();
  written = lines;
  demo = await startDemo({ logger: createLogger({ tty: false, destination: stream }) });
});
afterAll(() => demo.client.close());
afterEach(() => exporter.reset());

const json = (): Record<string, unknown>[] =>
  written.map((line) => JSON.parse(line) as Record<string, unknown>);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('logs', () => {
  it('one JSON line per request (the request log): route template, status, and the id the response echoes', async () => {
    const res = await demo.client.get('/widgets/nope', { headers: { ...AUTH, 'x-request-id': 'req-123' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('req-123');
    await until(() => json().some((l) => l.requestId === 'req-123'));
    expect(json().find((l) => l.requestId === 'req-123')).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      method: 'GET',
      route: '/widgets/{widget_id}',
      path: '/widgets/nope',
      status: 404,
      durationMs: expect.any(Number),
      bytes: expect.any(Number),
      requestId: 'req-123',
      msg: 'request finished',
    });
  });

  it('replaces a malformed or over-long x-request-id, never echoes or logs it', async () => {
    for (const bad of ['bad id with spaces', 'x'.repeat(129)]) {
      const res = await demo.client.get('/healthz', { headers: { 'x-request-id': bad } });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      await until(() => json().some((l) => l.requestId === id));
    }
    expect(written.join('\n')).not.toContain('bad id with spaces');
    expect(written.join('\n')).not.toContain('x'.repeat(129));
  });

  it('pino-pretty in a terminal: one readable line per message, not JSON', () => {
    const { lines, stream } = memory();
    const logger = createLogger({ tty: true, destination: stream });
    logger.info({ method: 'GET', status: 200 }, 'request finished');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request finished \{"method":"GET","status":200\}$/,
    );
  });
});

describe('a third-party-style extension', () => {
  it('adds server-timing to every response, unrouted answers included', async () => {
    for (const path of ['/healthz', '/nowhere'])
      expect((await demo.client.get(path)).headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d$/);
  });
});

describe('traces (@api/otel on the SDK)', () => {
  it('one span per request named after its route, continuing the caller’s trace', async () => {
    const res = await demo.client.get('/widgets/nope', {
      headers: { ...AUTH, traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    expect(res.status).toBe(404);
    await until(() => exporter.getFinishedSpans().length > 0);
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('GET /widgets/{widget_id}');
    expect(span!.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(span!.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span!.attributes['http.response.status_code']).toBe(404);
  });

  it('the WidgetEvent a POST /widgets enqueues runs as a span linked to that request', async () => {
    const created = await demo.client.post('/widgets', {
      headers: { ...AUTH, traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      json: { name: 'traced widget', priceCents: 1 },
    });
    expect(created.status).toBe(201);
    const named = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name);
    await until(() => named('process WidgetEvent') !== undefined && named('POST /widgets') !== undefined);
    const request = named('POST /widgets')!;
    const task = named('process WidgetEvent')!;
    expect(request.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(task.links.map((l) => l.context.spanId)).toEqual([request.spanContext().spanId]);
    expect(task.attributes['api.task.outcome']).toBe('processed');
  });
});

describe('OTEL_TRACES_EXPORTER', () => {
  it('console exports to the console; unset and none export nothing; other names fail at startup', () => {
    expect(exportersFromEnv('console').map((e) => e.constructor)).toEqual([ConsoleSpanExporter]);
    expect(exportersFromEnv(undefined)).toEqual([]);
    expect(exportersFromEnv('none')).toEqual([]);
    expect(() => exportersFromEnv('otlp')).toThrow(
      'OTEL_TRACES_EXPORTER=otlp: "otlp" is not an exporter this demo ships (console, none). Fix: OTEL_TRACES_EXPORTER=console, or leave it unset (nothing is exported).',
    );
  });
});
