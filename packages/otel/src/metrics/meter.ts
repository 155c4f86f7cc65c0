import {
  createNoopMeter,
  metrics,
  ValueType,
  type Histogram,
  type MeterProvider,
  type UpDownCounter,
} from '@opentelemetry/api';
import { TRACER_NAME } from '../tracer';

/**
 * The explicit bucket boundaries the HTTP semantic conventions advise for
 * `http.server.request.duration` (seconds).
 */
export const HTTP_DURATION_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/** The bucket boundaries of `api.websocket.session.duration` (seconds). */
export const SESSION_DURATION_BUCKETS: readonly number[] = [1, 5, 15, 60, 300, 900, 3600, 14400];

/** The instruments' descriptions (the same whether the SDK aggregates or `otelMetricProducer()` does). */
export const DESCRIPTIONS = {
  requestDuration: 'Duration of HTTP server requests.',
  activeRequests: 'Number of active HTTP server requests.',
  activeSessions: 'Number of open WebSocket sessions (connections taken over by an upgrade route).',
  sessionDuration: 'Duration of WebSocket sessions, from the upgrade request to the close.',
} as const;

/** The instrument names this package records. */
export const METRIC_HTTP_SERVER_REQUEST_DURATION = 'http.server.request.duration';
export const METRIC_HTTP_SERVER_ACTIVE_REQUESTS = 'http.server.active_requests';
/** No convention names WebSocket sessions yet: `api.`-prefixed, like the task attributes. */
export const METRIC_WEBSOCKET_ACTIVE_SESSIONS = 'api.websocket.active_sessions';
export const METRIC_WEBSOCKET_SESSION_DURATION = 'api.websocket.session.duration';
/** The messaging conventions' run duration; the queue depth has no convention yet. */
export const METRIC_TASK_PROCESS_DURATION = 'messaging.process.duration';
export const METRIC_TASK_QUEUE_DEPTH = 'api.task.queue.depth';

/** Every instrument, made once per meter provider. */
export interface Instruments {
  readonly requestDuration: Histogram;
  readonly activeRequests: UpDownCounter;
  readonly activeSessions: UpDownCounter;
  readonly sessionDuration: Histogram;
  readonly taskDuration: Histogram;
}

/**
 * The instruments records go to: the given provider's, else the globally registered provider's —
 * or undefined while none is registered (the API's no-op provider), so a request then costs this
 * lookup and nothing else. The global provider is looked up again when it changes (the metrics
 * API has no proxy provider: instruments made before `setGlobalMeterProvider` would stay no-ops).
 *
 * @param given - `meterProvider` from the options, if any
 */
export function instrumentsOf(given: MeterProvider | undefined): () => Instruments | undefined {
  if (given !== undefined) {
    const made = make(given);
    return () => made;
  }
  let provider: MeterProvider | undefined;
  let instruments: Instruments | undefined;
  return () => {
    const current = metrics.getMeterProvider();
    if (current === provider) return instruments;
    provider = current;
    instruments = make(current);
    return instruments;
  };
}

function make(provider: MeterProvider): Instruments | undefined {
  const meter = provider.getMeter(TRACER_NAME);
  if (meter === createNoopMeter()) return undefined;
  return {
    requestDuration: meter.createHistogram(METRIC_HTTP_SERVER_REQUEST_DURATION, {
      description: DESCRIPTIONS.requestDuration,
      unit: 's',
      advice: { explicitBucketBoundaries: [...HTTP_DURATION_BUCKETS] },
    }),
    activeRequests: meter.createUpDownCounter(METRIC_HTTP_SERVER_ACTIVE_REQUESTS, {
      description: DESCRIPTIONS.activeRequests,
      unit: '{request}',
      valueType: ValueType.INT,
    }),
    activeSessions: meter.createUpDownCounter(METRIC_WEBSOCKET_ACTIVE_SESSIONS, {
      description: DESCRIPTIONS.activeSessions,
      unit: '{session}',
      valueType: ValueType.INT,
    }),
    sessionDuration: meter.createHistogram(METRIC_WEBSOCKET_SESSION_DURATION, {
      description: DESCRIPTIONS.sessionDuration,
      unit: 's',
      advice: { explicitBucketBoundaries: [...SESSION_DURATION_BUCKETS] },
    }),
    taskDuration: meter.createHistogram(METRIC_TASK_PROCESS_DURATION, {
      description: 'Duration of one run of a background task item.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...HTTP_DURATION_BUCKETS] },
    }),
  };
}
