// The HTTP server and WebSocket metrics aggregated in process and read by the SDK through
// `otelMetricProducer()`: three readers of one MeterProvider (in-memory cumulative, in-memory delta,
// Prometheus), a real server, real sockets. (metrics.test.ts: the same metrics without a producer,
// recorded per request through the SDK's instruments.)
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import { WebSocket as Client } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { BaseApp, Endpoint, Resource, Struct } from '@api/core';
import { TestClient } from '@api/testing';
import { websocket, WebSocketEndpoint } from '@api/ws';
import { HTTP_DURATION_BUCKETS, otel, otelMetricProducer } from '../src/index';

/** An in-memory reader with its own producer, collecting on `read()`. */
function inMemory(temporality: AggregationTemporality) {
  const exporter = new InMemoryMetricExporter(temporality);
  const reader = new PeriodicExportingMetricReader({
    exporter,
    exportIntervalMillis: 3_600_000,
    metricProducers: [
      otelMetricProducer({
        temporality: temporality === AggregationTemporality.DELTA ? 'delta' : 'cumulative',
      }),
    ],
  });
  const read = async (name: string): Promise<MetricData | undefined> => {
    exporter.reset();
    await reader.forceFlush();
    const all = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    const named = all.filter((m) => m.descriptor.name === name);
    // One metric of a name: the SDK's instruments record nothing while a producer aggregates.
    expect(named.length).toBeLessThanOrEqual(1);
    return named[0];
  };
  return { reader, read };
}

const cumulative = inMemory(AggregationTemporality.CUMULATIVE);
const delta = inMemory(AggregationTemporality.DELTA);
const prometheus = new PrometheusExporter({
  preventServerStart: true,
  metricProducers: [otelMetricProducer()],
});
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [cumulative.reader, delta.reader, prometheus] }));

async function scrape(): Promise<string> {
  const { resourceMetrics, errors } = await prometheus.collect();
  expect(errors).toEqual([]);
  return new PrometheusSerializer().serialize(resourceMetrics);
}

function histograms(metric: MetricData | undefined): Map<string, Histogram> {
  return new Map(
    ((metric?.dataPoints ?? []) as Array<DataPoint<Histogram>>).map((p) => [
      JSON.stringify(p.attributes),
      p.value,
    ]),
  );
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const Widget = Struct('Widget', { id: v.string() });
let release: () => void = () => undefined;
let entered: () => void = () => undefined;
class Widgets extends Resource('/widgets') {
  readOne = this.operation(
    { path: Struct('WidgetPath', { widget_id: v.string() }), returns: Widget },
    ({ path }) => ({ id: path.widget_id }),
  );
}
class Held extends Endpoint('/held') {
  get = this.operation({ returns: Widget }, async () => {
    const held = new Promise<void>((resolve) => (release = resolve));
    entered();
    await held;
    return { id: 'held' };
  });
}
class Boom extends Endpoint('/boom') {
  get = this.operation({ returns: Widget }, () => {
    throw new Error('boom');
  });
}
class Room extends WebSocketEndpoint('/rooms/{room}', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler({}, async ({ websocket }) => {
    for await (const message of websocket) if (message === 'bye') return websocket.close(4001, 'done');
  });
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(otel());
    this.includeResource(new Widgets());
    this.includeEndpoint(new Held());
    this.includeEndpoint(new Boom());
    this.include(websocket(new Room(), { pingInterval: 0 }));
  }
}

let client: TestClient;
beforeAll(async () => {
  client = await TestClient.start(new App({ logger: quiet }));
});
afterAll(() => client.close());

const GET = { 'http.request.method': 'GET', 'url.scheme': 'http' };
const key = (attributes: Record<string, unknown>) => JSON.stringify(attributes);

describe('otel() with otelMetricProducer()', () => {
  it('exports http.server.request.duration by route, method, scheme, status and error.type, to every reader', async () => {
    expect((await client.get('/widgets/a')).status).toBe(200);
    expect((await client.get('/widgets/b')).status).toBe(200);
    expect((await client.get('/boom')).status).toBe(500);
    expect((await client.get('/nowhere')).status).toBe(404);
    const metric = await cumulative.read('http.server.request.duration');
    expect(metric?.descriptor).toEqual({
      name: 'http.server.request.duration',
      description: 'Duration of HTTP server requests.',
      unit: 's',
      valueType: 1,
    });
    expect(metric?.aggregationTemporality).toBe(AggregationTemporality.CUMULATIVE);
    const points = histograms(metric);
    expect([...points.keys()]).toEqual([
      key({ ...GET, 'http.route': '/widgets/{widget_id}', 'http.response.status_code': 200 }),
      key({ ...GET, 'http.route': '/boom', 'http.response.status_code': 500, 'error.type': '500' }),
      key({ ...GET, 'http.response.status_code': 404 }),
    ]);
    const ok = points.get(
      key({ ...GET, 'http.route': '/widgets/{widget_id}', 'http.response.status_code': 200 }),
    )!;
    expect(ok.count).toBe(2);
    expect(ok.buckets.boundaries).toEqual(HTTP_DURATION_BUCKETS);
    expect(ok.buckets.counts.reduce((a, b) => a + b, 0)).toBe(2);
    // Seconds: two quick loopback requests take well under a second each.
    expect(ok.sum).toBeGreaterThan(0);
    expect(ok.sum).toBeLessThan(2);
    expect(ok.min).toBeGreaterThan(0);
    expect(ok.max).toBeGreaterThanOrEqual(ok.min!);

    // The delta reader's first collection: the same counts.
    const first = histograms(await delta.read('http.server.request.duration'));
    expect([...first.values()].map((h) => h.count)).toEqual([2, 1, 1]);
    expect((await client.get('/widgets/c')).status).toBe(200);
    const second = await delta.read('http.server.request.duration');
    expect(second?.aggregationTemporality).toBe(AggregationTemporality.DELTA);
    expect([...histograms(second).entries()].map(([k, h]) => [k, h.count])).toEqual([
      [key({ ...GET, 'http.route': '/widgets/{widget_id}', 'http.response.status_code': 200 }), 1],
    ]);

    // Prometheus: one family, the semconv buckets, cumulative counts.
    const text = await scrape();
    expect(text.match(/# TYPE http_server_request_duration histogram/g)).toHaveLength(1);
    expect(text).toContain('# UNIT http_server_request_duration s');
    expect(text).toMatch(
      /http_server_request_duration_count\{[^}]*http_request_method="GET",url_scheme="http",http_route="\/widgets\/\{widget_id\}",http_response_status_code="200"[^}]*\} 3/,
    );
    expect(text).toMatch(/http_server_request_duration_bucket\{[^}]*http_route="\/boom"[^}]*le="\+Inf"\} 1/);
    expect(text).toMatch(/http_server_request_duration_bucket\{[^}]*error_type="500"[^}]*le="10"\} 1/);
    expect(text).not.toContain('/widgets/a');
  });

  it('counts a request in flight while a reader collects, and takes it back when it ends', async () => {
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const pending = client.get('/held');
    await inFlight;
    const active = async (read: typeof cumulative.read) =>
      ((await read('http.server.active_requests'))?.dataPoints as Array<DataPoint<number>>).map((p) => [
        p.attributes,
        p.value,
      ]);
    expect(await active(cumulative.read)).toEqual([[GET, 1]]);
    // Up-down counters stay cumulative for a delta reader (as the SDK's delta preference has them).
    expect(await active(delta.read)).toEqual([[GET, 1]]);
    expect(await scrape()).toMatch(
      /http_server_active_requests\{[^}]*http_request_method="GET",url_scheme="http"[^}]*\} 1/,
    );
    release();
    expect((await pending).status).toBe(200);
    expect(await active(cumulative.read)).toEqual([[GET, 0]]);
    const held = histograms(await cumulative.read('http.server.request.duration'));
    expect(held.get(key({ ...GET, 'http.route': '/held', 'http.response.status_code': 200 }))?.count).toBe(1);
  });

  it('counts open WebSocket sessions and records their duration with the close code', async () => {
    const sessions = async () =>
      (
        (await cumulative.read('api.websocket.active_sessions'))?.dataPoints as
          | Array<DataPoint<number>>
          | undefined
      )?.map((p) => [p.attributes, p.value]);
    const socket = new Client(`${client.url.replace(/^http/, 'ws')}/rooms/blue`);
    await once(socket, 'open');
    for (let i = 0; i < 200 && (await sessions())?.[0]?.[1] !== 1; i++) await sleep(5);
    expect(await sessions()).toEqual([[{ 'http.route': '/rooms/{room}' }, 1]]);
    socket.send('bye');
    await once(socket, 'close');
    for (let i = 0; i < 200 && (await sessions())?.[0]?.[1] !== 0; i++) await sleep(5);
    expect(await sessions()).toEqual([[{ 'http.route': '/rooms/{room}' }, 0]]);
    const durations = histograms(await cumulative.read('api.websocket.session.duration'));
    expect([...durations.entries()].map(([k, h]) => [k, h.count, h.buckets.boundaries])).toEqual([
      [
        key({ 'http.route': '/rooms/{room}', 'websocket.close.code': 4001 }),
        1,
        [1, 5, 15, 60, 300, 900, 3600, 14400],
      ],
    ]);
    // The upgrade request is a session, not a request duration.
    const requests = histograms(await cumulative.read('http.server.request.duration'));
    expect([...requests.keys()].some((k) => k.includes('/rooms/'))).toBe(false);
  });
});

describe('otel({ metrics: false }) with a producer', () => {
  it('records nothing', async () => {
    class Off extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(otel({ metrics: false }));
        this.includeResource(new Widgets());
      }
    }
    const total = async () =>
      [...histograms(await cumulative.read('http.server.request.duration')).values()].reduce(
        (n, h) => n + h.count,
        0,
      );
    const before = await total();
    const off = await TestClient.start(new Off({ logger: quiet }));
    try {
      expect((await off.get('/widgets/z')).status).toBe(200);
    } finally {
      await off.close();
    }
    expect(await total()).toBe(before);
    // …while the app with metrics on still counts.
    expect((await client.get('/widgets/z')).status).toBe(200);
    expect(await total()).toBe(before + 1);
  });
});
