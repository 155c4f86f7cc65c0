// The in-process aggregate against the SDK's own histogram aggregation: the same values give the
// same buckets, counts, sum, min and max, read through real readers (cumulative and delta).
import { describe, expect, it } from 'vitest';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import type { ConnectionClose, Exchange } from '@api/core/extension';
import { metricsOf } from './http-metrics';
import { otelMetricProducer } from './producer';
import { HTTP_DURATION_BUCKETS } from './meter';

const facts = { requestScheme: () => 'http' as const, clientAddress: () => undefined };
const none = () => undefined;

/** The part of an exchange the metrics read. */
function exchange(method: string, route: string | undefined, upgrade = false): Exchange {
  return {
    method,
    req: { headers: {} },
    state: {},
    route: route === undefined ? undefined : { path: route },
    upgrade: upgrade ? {} : undefined,
  } as unknown as Exchange;
}

/** A reader with an in-memory exporter of the given temporality, collecting on `read()`. */
function readerOf(temporality: AggregationTemporality, producerTemporality: 'cumulative' | 'delta') {
  const exporter = new InMemoryMetricExporter(temporality);
  const reader = new PeriodicExportingMetricReader({
    exporter,
    exportIntervalMillis: 3_600_000,
    metricProducers: [otelMetricProducer({ temporality: producerTemporality })],
  });
  const provider = new MeterProvider({ readers: [reader] });
  const read = async (name: string): Promise<MetricData | undefined> => {
    exporter.reset();
    await reader.forceFlush();
    const all = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    return all.find((m) => m.descriptor.name === name);
  };
  return { provider, read };
}

/** A point's attributes and histogram, without times. */
function histograms(metric: MetricData | undefined): Array<[Record<string, unknown>, Histogram]> {
  expect(metric?.dataPointType).toBe(DataPointType.HISTOGRAM);
  return (metric!.dataPoints as Array<DataPoint<Histogram>>).map((p) => [p.attributes, p.value]);
}

describe('otelMetricProducer()', () => {
  it("gives the SDK's own histogram for the same values: buckets (upper bounds inclusive), sum, count, min, max", async () => {
    const cumulative = readerOf(AggregationTemporality.CUMULATIVE, 'cumulative');
    // The SDK's aggregation of the same values, as the reference.
    const sdk = cumulative.provider.getMeter('reference').createHistogram('reference', {
      unit: 's',
      advice: { explicitBucketBoundaries: [...HTTP_DURATION_BUCKETS] },
    });
    const metered = metricsOf(none, facts)();
    const valuesMs = [0, 5, 5.0001, 10, 74, 75, 2500, 9999, 10_000, 10_001, 60_000];
    for (const ms of valuesMs) {
      const ex = exchange('GET', '/exact/{id}');
      metered.started(ex);
      metered.ended(ex, 200, ms);
      sdk.record(ms / 1000, {
        'http.request.method': 'GET',
        'url.scheme': 'http',
        'http.route': '/exact/{id}',
        'http.response.status_code': 200,
      });
    }
    const [[attributes, ours]] = histograms(await cumulative.read('http.server.request.duration')) as [
      [Record<string, unknown>, Histogram],
    ];
    const [[, reference]] = histograms(await cumulative.read('reference')) as [
      [Record<string, unknown>, Histogram],
    ];
    expect(attributes).toEqual({
      'http.request.method': 'GET',
      'url.scheme': 'http',
      'http.route': '/exact/{id}',
      'http.response.status_code': 200,
    });
    expect(ours).toEqual(reference);
    // 0.075 s is in the (0.05, 0.075] bucket; 10 s in (7.5, 10]; 10.001 s and 60 s above the last bound.
    expect(ours.buckets.counts).toEqual([2, 2, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 2, 2]);
    expect(ours.count).toBe(11);
    expect(ours.min).toBe(0);
    expect(ours.max).toBe(60);
  });

  it('keeps a series per route, method, scheme, status and error.type; unrouted has no http.route', async () => {
    const { read } = readerOf(AggregationTemporality.CUMULATIVE, 'cumulative');
    const a = metricsOf(none, facts)();
    const fallback = metricsOf(none, { ...facts, requestScheme: () => 'https' as const })();
    const run = (
      metered: typeof a,
      method: string,
      route: string | undefined,
      status: number,
      ms: number,
    ) => {
      const ex = exchange(method, route);
      metered.started(ex);
      metered.ended(ex, status, ms);
    };
    run(a, 'POST', '/series', 201, 1);
    run(a, 'POST', '/series', 201, 20);
    run(a, 'POST', '/series', 503, 1);
    run(a, 'POST', '/series', 0, 1);
    run(a, 'BREW', '/series', 201, 1);
    run(fallback, 'GET', undefined, 404, 1);
    const points = histograms(await read('http.server.request.duration'))
      .filter(([attrs]) => attrs['http.route'] !== '/exact/{id}')
      .map(([attrs, h]) => [attrs, h.count, Number(h.sum!.toFixed(9))]);
    expect(points).toEqual([
      [
        {
          'http.request.method': 'POST',
          'url.scheme': 'http',
          'http.route': '/series',
          'http.response.status_code': 201,
        },
        2,
        0.021,
      ],
      [
        {
          'http.request.method': 'POST',
          'url.scheme': 'http',
          'http.route': '/series',
          'http.response.status_code': 503,
          'error.type': '503',
        },
        1,
        0.001,
      ],
      [
        {
          'http.request.method': 'POST',
          'url.scheme': 'http',
          'http.route': '/series',
          'error.type': '_OTHER',
        },
        1,
        0.001,
      ],
      [
        {
          'http.request.method': '_OTHER',
          'url.scheme': 'http',
          'http.route': '/series',
          'http.response.status_code': 201,
        },
        1,
        0.001,
      ],
      [{ 'http.request.method': 'GET', 'url.scheme': 'https', 'http.response.status_code': 404 }, 1, 0.001],
    ]);
  });

  it('counts active requests up and down by method and scheme, and WebSocket sessions by route', async () => {
    const { read } = readerOf(AggregationTemporality.CUMULATIVE, 'cumulative');
    const metered = metricsOf(none, facts)();
    const value = async (name: string, attrs: Record<string, unknown>) => {
      const metric = await read(name);
      return (metric?.dataPoints as Array<DataPoint<number>>).find(
        (p) => JSON.stringify(p.attributes) === JSON.stringify(attrs),
      )?.value;
    };
    const put = { 'http.request.method': 'PUT', 'url.scheme': 'http' };
    const one = exchange('PUT', '/active');
    const two = exchange('PUT', '/active');
    metered.started(one);
    metered.started(two);
    expect(await value('http.server.active_requests', put)).toBe(2);
    metered.ended(one, 204, 1);
    expect(await value('http.server.active_requests', put)).toBe(1);
    metered.ended(two, 204, 1);
    expect(await value('http.server.active_requests', put)).toBe(0);

    const room = metricsOf(none, facts)();
    const ws = exchange('GET', '/rooms/{room}', true);
    room.started(ws);
    room.ended(ws, 101, 2);
    expect(await value('api.websocket.active_sessions', { 'http.route': '/rooms/{room}' })).toBe(1);
    // The takeover is a session, not a request duration.
    const durations = histograms(await read('http.server.request.duration'));
    expect(durations.some(([attrs]) => attrs['http.route'] === '/rooms/{room}')).toBe(false);
    room.closed(ws, { code: 4001, durationMs: 7000 });
    expect(await value('api.websocket.active_sessions', { 'http.route': '/rooms/{room}' })).toBe(0);
    const sessions = histograms(await read('api.websocket.session.duration'));
    expect(sessions.map(([attrs, h]) => [attrs, h.buckets.counts, h.sum])).toEqual([
      [{ 'http.route': '/rooms/{room}', 'websocket.close.code': 4001 }, [0, 0, 1, 0, 0, 0, 0, 0, 0], 7],
    ]);
  });

  it('gives a delta reader what happened since its previous collection, and a cumulative one everything', async () => {
    const cumulative = readerOf(AggregationTemporality.CUMULATIVE, 'cumulative');
    const delta = readerOf(AggregationTemporality.DELTA, 'delta');
    const metered = metricsOf(none, facts)();
    const run = (ms: number) => {
      const ex = exchange('PATCH', '/delta');
      metered.started(ex);
      metered.ended(ex, 200, ms);
    };
    const mine = async (reader: typeof delta) => {
      const metric = await reader.read('http.server.request.duration');
      return {
        temporality: metric?.aggregationTemporality,
        points: (metric === undefined ? [] : histograms(metric))
          .filter(([attrs]) => attrs['http.route'] === '/delta')
          .map(([, h]) => ({
            counts: h.buckets.counts,
            count: h.count,
            sum: Number(h.sum!.toFixed(9)),
            min: h.min,
          })),
      };
    };
    run(1);
    run(30);
    expect(await mine(delta)).toEqual({
      temporality: AggregationTemporality.DELTA,
      points: [
        { counts: [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], count: 2, sum: 0.031, min: undefined },
      ],
    });
    run(1);
    expect(await mine(delta)).toEqual({
      temporality: AggregationTemporality.DELTA,
      points: [
        { counts: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], count: 1, sum: 0.001, min: undefined },
      ],
    });
    // Nothing since: no point (the SDK's delta storage reports none either).
    expect((await mine(delta)).points).toEqual([]);
    expect(await mine(cumulative)).toEqual({
      temporality: AggregationTemporality.CUMULATIVE,
      points: [{ counts: [2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], count: 3, sum: 0.032, min: 0.001 }],
    });
  });

  it('refuses options it does not know, and a temporality other than cumulative or delta', () => {
    expect(() => otelMetricProducer({ temporality: 'DELTA' as 'delta' })).toThrow(
      expect.objectContaining({ code: 'API_WIRING_INVALID_ARGUMENT' }),
    );
    expect(() => otelMetricProducer({ temporalty: 'delta' } as never)).toThrow(/temporalty/);
    expect(() => otelMetricProducer('delta' as never)).toThrow(/options must be an object/);
  });
});
