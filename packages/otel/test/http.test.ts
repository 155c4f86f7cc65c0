// Server spans with the real SDK (InMemorySpanExporter): names from route templates, the stable
// HTTP attributes, the W3C parent, the error status of a 5xx, the active context in handlers.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_QUERY,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions';
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Resource, Struct, WiringError } from '@api/core';
import { TestClient } from '@api/testing';
import { otel, TRACER_NAME } from '../src/index';
import * as own from '../src/http/attributes';
import { exporter, REMOTE, spanNamed } from './helpers/tracing';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const tracer = trace.getTracer('handlers');
const Widget = Struct('Widget', { id: v.string(), name: v.string() });
const WidgetIn = Struct('WidgetIn', { name: v.string() });

class Widgets extends Resource('/widgets') {
  readOne = this.operation(
    { path: Struct('WidgetPath', { widget_id: v.string() }), returns: Widget },
    async ({ path }) => {
      await sleep(2);
      // A user span after an await nests under the request's span.
      return tracer.startActiveSpan('load widget', (span) => {
        span.end();
        return { id: path.widget_id, name: 'gear' };
      });
    },
  );
  create = this.operation({ json: WidgetIn, returns: Widget }, ({ json }) => {
    // After the body was read: still the request's context.
    tracer.startSpan('store widget').end();
    return { id: 'w2', name: json.name };
  });
}
class Boom extends Endpoint('/boom') {
  get = this.operation({ returns: v.string() }, () => {
    throw new Error('the store is gone');
  });
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(otel());
    this.includeResource(new Widgets());
    this.includeEndpoint(new Boom());
  }
}

let client: TestClient;
beforeAll(async () => {
  client = await TestClient.start(new App({ logger: quiet }));
});
afterAll(() => client.close());
afterEach(() => exporter.reset());

describe('server spans', () => {
  it('use the stable semantic convention names', () => {
    expect(own.ATTR_HTTP_REQUEST_METHOD).toBe(ATTR_HTTP_REQUEST_METHOD);
    expect(own.ATTR_HTTP_REQUEST_METHOD_ORIGINAL).toBe(ATTR_HTTP_REQUEST_METHOD_ORIGINAL);
    expect(own.ATTR_HTTP_ROUTE).toBe(ATTR_HTTP_ROUTE);
    expect(own.ATTR_HTTP_RESPONSE_STATUS_CODE).toBe(ATTR_HTTP_RESPONSE_STATUS_CODE);
    expect(own.ATTR_URL_PATH).toBe(ATTR_URL_PATH);
    expect(own.ATTR_URL_QUERY).toBe(ATTR_URL_QUERY);
    expect(own.ATTR_URL_SCHEME).toBe(ATTR_URL_SCHEME);
    expect(own.ATTR_SERVER_ADDRESS).toBe(ATTR_SERVER_ADDRESS);
    expect(own.ATTR_SERVER_PORT).toBe(ATTR_SERVER_PORT);
    expect(own.ATTR_CLIENT_ADDRESS).toBe(ATTR_CLIENT_ADDRESS);
    expect(own.ATTR_NETWORK_PROTOCOL_VERSION).toBe(ATTR_NETWORK_PROTOCOL_VERSION);
    expect(own.ATTR_USER_AGENT_ORIGINAL).toBe(ATTR_USER_AGENT_ORIGINAL);
    expect(own.ATTR_ERROR_TYPE).toBe(ATTR_ERROR_TYPE);
  });

  it('one SERVER span per request, named after the route template, with the HTTP attributes', async () => {
    const res = await client.get('/widgets/w%201?Signature=secret&page=2', {
      headers: { 'user-agent': 'probe/1' },
    });
    expect(res.status).toBe(200);
    const span = await spanNamed('GET /widgets/{widget_id}');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.instrumentationScope.name).toBe(TRACER_NAME);
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'url.path': '/widgets/w%201',
      'url.scheme': 'http',
      'http.route': '/widgets/{widget_id}',
      'network.protocol.version': '1.1',
      'url.query': 'Signature=REDACTED&page=2',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(client.url).port),
      'client.address': '127.0.0.1',
      'network.peer.address': '127.0.0.1',
      'network.peer.port': expect.any(Number) as number,
      'user_agent.original': 'probe/1',
      'http.response.status_code': 200,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.parentSpanContext).toBeUndefined();
    expect(exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER)).toHaveLength(1);
  });

  it('make the request span the active context in handlers: after awaits, and after the body was read', async () => {
    await client.get('/widgets/w1');
    const server = await spanNamed('GET /widgets/{widget_id}');
    const load = await spanNamed('load widget');
    expect(load.spanContext().traceId).toBe(server.spanContext().traceId);
    expect(load.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect((await client.post('/widgets', { json: { name: 'gear' } })).status).toBe(201);
    const post = await spanNamed('POST /widgets');
    const store = await spanNamed('store widget');
    expect(store.parentSpanContext?.spanId).toBe(post.spanContext().spanId);
  });

  it('continue the caller’s trace from traceparent and keep its tracestate', async () => {
    await client.get('/widgets/w1', {
      headers: { traceparent: REMOTE.traceparent, tracestate: 'vendor=opaque,other=1' },
    });
    const span = await spanNamed('GET /widgets/{widget_id}');
    expect(span.spanContext().traceId).toBe(REMOTE.traceId);
    expect(span.parentSpanContext?.spanId).toBe(REMOTE.spanId);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.spanContext().traceState?.serialize()).toBe('vendor=opaque,other=1');
  });

  it.each([
    ['an unknown version', `ff-${REMOTE.traceId}-${REMOTE.spanId}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${REMOTE.spanId}-01`],
    ['a short span id', `00-${REMOTE.traceId}-00f067aa-01`],
    ['upper-case hex', `00-${REMOTE.traceId.toUpperCase()}-${REMOTE.spanId}-01`],
    ['garbage', 'not a traceparent'],
  ])('start a new trace for a malformed traceparent (%s)', async (_what, traceparent) => {
    expect((await client.get('/widgets/w1', { headers: { traceparent } })).status).toBe(200);
    const span = await spanNamed('GET /widgets/{widget_id}');
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(REMOTE.traceId);
    expect(span.spanContext().traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
  });

  it('mark a 500 as an error (error.type is the status); a 4xx is not', async () => {
    expect((await client.get('/boom')).status).toBe(500);
    const boom = await spanNamed('GET /boom');
    expect(boom.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(boom.attributes['http.response.status_code']).toBe(500);
    expect(boom.attributes['error.type']).toBe('500');
    expect((await client.post('/widgets', { json: { name: 1 } })).status).toBe(422);
    const invalid = await spanNamed('POST /widgets');
    expect(invalid.status.code).toBe(SpanStatusCode.UNSET);
    expect(invalid.attributes['http.response.status_code']).toBe(422);
    expect(invalid.attributes['error.type']).toBeUndefined();
  });

  it('cover unrouted answers: a 404 is named by its method alone, a 405 by the path’s route', async () => {
    expect((await client.get('/nowhere')).status).toBe(404);
    const missing = await spanNamed('GET');
    expect(missing.attributes).toMatchObject({ 'url.path': '/nowhere', 'http.response.status_code': 404 });
    expect(missing.attributes['http.route']).toBeUndefined();
    expect((await client.delete('/widgets')).status).toBe(405);
    expect((await spanNamed('DELETE /widgets')).attributes['http.response.status_code']).toBe(405);
  });

  it('name a method the conventions do not know _OTHER, keeping its spelling', async () => {
    expect((await client.request('PURGE', '/widgets')).status).toBe(405);
    const span = await spanNamed('HTTP /widgets');
    expect(span.attributes).toMatchObject({
      'http.request.method': '_OTHER',
      'http.request.method_original': 'PURGE',
    });
  });
});

describe('otel(options)', () => {
  it('refuses options it cannot use, naming the fix', () => {
    const thrown = (call: () => unknown): string => {
      try {
        call();
      } catch (error) {
        expect(error).toBeInstanceOf(WiringError);
        return (error as Error).message;
      }
      throw new Error('expected a WiringError');
    };
    const any = (value: unknown) => value as Parameters<typeof otel>[0];
    expect(thrown(() => otel(any({ tracer: {} })))).toBe(
      'otel(options): unknown option "tracer". Fix: use only tracerProvider, propagator, meterProvider, metrics (both default to the globally registered ones).',
    );
    expect(thrown(() => otel(any({ tracerProvider: {} })))).toBe(
      'otel(options): tracerProvider has no getTracer(name), got an object. Fix: pass a TracerProvider (e.g. a NodeTracerProvider), or leave it out for the global one.',
    );
    expect(thrown(() => otel(any({ propagator: 'w3c' })))).toBe(
      'otel(options): propagator has no extract(), got a string. Fix: pass a TextMapPropagator (e.g. W3CTraceContextPropagator), or leave it out for the global one.',
    );
  });

  it('fails wiring when included twice (every request would get two spans)', async () => {
    class Twice extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(otel());
        this.include(otel());
      }
    }
    await expect(new Twice({ logger: quiet }).start()).rejects.toThrow(
      'Twice.include(otel()): otel is already included, so every request would get two server spans. Fix: include otel() once.',
    );
  });
});
