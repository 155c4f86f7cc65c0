// `otelMetricProducer()`: what the app gives its metrics reader so that the SDK reads the HTTP
// server and WebSocket session metrics aggregated in this process (aggregate.ts) when it collects,
// as finished histograms and sums — cumulative, or delta for a reader that asks for it.
import { ValueType, type HrTime } from '@opentelemetry/api';
import type {
  AggregationTemporality,
  CollectionResult,
  DataPoint,
  DataPointType,
  Histogram,
  MetricData,
  MetricProducer,
  ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { checkKnownKeys, describeValue, isPlainObject, wiringError } from '@api/core/extension';
import { TRACER_NAME } from '../tracer';
import { aggregate, hrNow, type CounterSeries, type HistogramSeries } from './aggregate';
import {
  DESCRIPTIONS,
  METRIC_HTTP_SERVER_ACTIVE_REQUESTS,
  METRIC_HTTP_SERVER_REQUEST_DURATION,
  METRIC_WEBSOCKET_ACTIVE_SESSIONS,
  METRIC_WEBSOCKET_SESSION_DURATION,
} from './meter';

/** Options of `otelMetricProducer(options)`. */
export interface OtelMetricProducerOptions {
  /**
   * The temporality of the histograms, as the reader this producer is given to selects it:
   * `'cumulative'` (default; Prometheus, and OTLP by default) or `'delta'` (an OTLP exporter
   * preferring delta). The up-down counters are cumulative either way, as the SDK's delta
   * preference has them.
   */
  readonly temporality?: 'cumulative' | 'delta' | undefined;
}

// The SDK's enums, by value: this package does not load the SDK (only its types, for the app's reader).
const DELTA = 0 as AggregationTemporality.DELTA;
const CUMULATIVE = 1 as AggregationTemporality.CUMULATIVE;
const HISTOGRAM = 0 as DataPointType.HISTOGRAM;
const SUM = 3 as DataPointType.SUM;

/** The histogram of a series at the previous delta collection. */
interface Snapshot {
  readonly counts: number[];
  readonly sum: number;
  readonly count: number;
  readonly time: HrTime;
}

/**
 * A metric producer for one metrics reader (`metricProducers: [otelMetricProducer()]`): every app
 * wired after the first one is made aggregates, in `otel()`, the HTTP server metrics
 * (`http.server.request.duration`, `http.server.active_requests`) and the WebSocket session
 * metrics in place — a request costs a few integer additions, no SDK call — and the reader gets
 * finished histograms with the semconv buckets when it collects. Make it where the reader is
 * made, before the app starts; give each reader its own. Without one, `otel()` records through the
 * metrics API per request (any `MeterProvider` gets the same metrics, at the SDK's cost).
 *
 * @param options - `temporality: 'delta'` for a reader that selects delta histograms
 * @returns the producer to list in the reader's `metricProducers`
 * @example
 * const reader = new PrometheusExporter({ port: 9464, metricProducers: [otelMetricProducer()] });
 * metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
 */
export function otelMetricProducer(options: OtelMetricProducerOptions = {}): MetricProducer {
  const where = 'otelMetricProducer(options)';
  if (!isPlainObject(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `options must be an object, got ${describeValue(options)}`,
      "pass { temporality: 'delta' } or nothing",
    );
  checkKnownKeys(where, options, ['temporality'], 'temporality defaults to cumulative');
  const temporality = options.temporality ?? 'cumulative';
  if (temporality !== 'cumulative' && temporality !== 'delta')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `temporality must be 'cumulative' or 'delta', got ${describeValue(temporality)}`,
      "match the reader's temporality: 'delta' for a delta-preferring OTLP exporter, else leave it out",
    );
  aggregate.producers++;
  const snapshots = temporality === 'delta' ? new Map<HistogramSeries, Snapshot>() : undefined;
  return {
    collect: () => Promise.resolve(collect(snapshots)),
  };
}

/** The metrics aggregated so far, as the SDK's `CollectionResult`. */
function collect(snapshots: Map<HistogramSeries, Snapshot> | undefined): CollectionResult {
  const now = hrNow();
  const metrics: MetricData[] = [];
  const histogram = (name: string, description: string, series: Iterable<HistogramSeries>): void => {
    const dataPoints: Array<DataPoint<Histogram>> = [];
    for (const s of series) {
      const point = snapshots === undefined ? cumulative(s, now) : delta(s, now, snapshots);
      if (point !== undefined) dataPoints.push(point);
    }
    if (dataPoints.length > 0)
      metrics.push({
        descriptor: { name, description, unit: 's', valueType: ValueType.DOUBLE },
        aggregationTemporality: snapshots === undefined ? CUMULATIVE : DELTA,
        dataPointType: HISTOGRAM,
        dataPoints,
      });
  };
  const upDown = (
    name: string,
    description: string,
    unit: string,
    series: Iterable<CounterSeries | undefined>,
  ): void => {
    const dataPoints: Array<DataPoint<number>> = [];
    for (const s of series)
      if (s !== undefined)
        dataPoints.push({ startTime: s.startTime, endTime: now, attributes: s.attributes, value: s.value });
    if (dataPoints.length > 0)
      metrics.push({
        descriptor: { name, description, unit, valueType: ValueType.INT },
        aggregationTemporality: CUMULATIVE,
        dataPointType: SUM,
        isMonotonic: false,
        dataPoints,
      });
  };
  histogram(METRIC_HTTP_SERVER_REQUEST_DURATION, DESCRIPTIONS.requestDuration, aggregate.durations.values());
  upDown(METRIC_HTTP_SERVER_ACTIVE_REQUESTS, DESCRIPTIONS.activeRequests, '{request}', aggregate.active);
  upDown(
    METRIC_WEBSOCKET_ACTIVE_SESSIONS,
    DESCRIPTIONS.activeSessions,
    '{session}',
    aggregate.sessions.values(),
  );
  histogram(
    METRIC_WEBSOCKET_SESSION_DURATION,
    DESCRIPTIONS.sessionDuration,
    aggregate.sessionDurations.values(),
  );
  const resourceMetrics: ResourceMetrics = {
    // The reader keeps its MeterProvider's resource and takes only the scope metrics from here.
    resource: EMPTY_RESOURCE,
    scopeMetrics: metrics.length === 0 ? [] : [{ scope: { name: TRACER_NAME }, metrics }],
  };
  return { resourceMetrics, errors: [] };
}

/** A series since its start (copied: an exporter may keep what it was given). */
function cumulative(s: HistogramSeries, now: HrTime): DataPoint<Histogram> | undefined {
  if (s.count === 0) return undefined;
  return {
    startTime: s.startTime,
    endTime: now,
    attributes: s.attributes,
    value: {
      buckets: { boundaries: [...s.boundaries], counts: s.counts.slice() },
      sum: s.sum,
      count: s.count,
      min: s.min,
      max: s.max,
    },
  };
}

/**
 * A series since this producer's previous collection (none when nothing was recorded since).
 * The interval's min and max are not known from the running totals: a delta point has neither.
 */
function delta(
  s: HistogramSeries,
  now: HrTime,
  snapshots: Map<HistogramSeries, Snapshot>,
): DataPoint<Histogram> | undefined {
  const previous = snapshots.get(s);
  const count = s.count - (previous?.count ?? 0);
  if (count === 0) return undefined;
  const counts = s.counts.slice();
  snapshots.set(s, { counts, sum: s.sum, count: s.count, time: now });
  return {
    startTime: previous?.time ?? s.startTime,
    endTime: now,
    attributes: s.attributes,
    value: {
      buckets: {
        boundaries: [...s.boundaries],
        counts: previous === undefined ? counts.slice() : counts.map((n, i) => n - previous.counts[i]!),
      },
      sum: s.sum - (previous?.sum ?? 0),
      count,
    },
  };
}

/** An empty resource (the reader replaces it with its MeterProvider's). */
const EMPTY_RESOURCE: ResourceMetrics['resource'] = {
  attributes: {},
  merge: (other) => other ?? EMPTY_RESOURCE,
  getRawAttributes: () => [],
};
