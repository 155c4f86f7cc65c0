// The HTTP server and WebSocket session metrics aggregated here, in the process, instead of by the
// metrics SDK per record: a request finds its series by a small integer key in its route's own map
// (route × method × scheme × status, decided at wiring per route), bumps preallocated bucket
// counts, sum, count, min and max, and an integer of active requests per (method, scheme). No
// attributes are built, hashed or copied per request, and no SDK call is made: the SDK reads the
// finished numbers when a reader collects (`otelMetricProducer()`, producer.ts).
import type { Attributes, HrTime } from '@opentelemetry/api';
import type { Exchange } from '@api/core/extension';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_SCHEME,
  ATTR_WEBSOCKET_CLOSE_CODE,
} from '../http/attributes';
import { HTTP_DURATION_BUCKETS, SESSION_DURATION_BUCKETS } from './meter';

/** The methods the conventions name, then `_OTHER`: a method's index in the active counters. */
const METHODS = ['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'QUERY', 'TRACE'];
const OTHER = METHODS.length;
const METHOD_INDEX: ReadonlyMap<string, number> = new Map(METHODS.map((m, i) => [m, i]));
const SCHEMES = ['http', 'https'] as const;
/** (method, scheme) slots: method index × 2 + (https ? 1 : 0). */
const SLOTS = (METHODS.length + 1) * 2;

/** The current time as OpenTelemetry's `[seconds, nanoseconds]`. */
export function hrNow(): HrTime {
  const ms = Date.now();
  return [Math.floor(ms / 1000), (ms % 1000) * 1e6];
}

/** One histogram series: fixed attributes, preallocated bucket counts, sum, count, min, max. */
export class HistogramSeries {
  readonly counts: number[];
  sum = 0;
  count = 0;
  min = Infinity;
  max = -Infinity;
  readonly startTime: HrTime = hrNow();

  constructor(
    readonly attributes: Attributes,
    readonly boundaries: readonly number[],
  ) {
    this.counts = new Array<number>(boundaries.length + 1).fill(0);
  }

  /** Counts one value: its bucket is the first whose (inclusive) upper bound holds it, as the SDK's. */
  record(value: number): void {
    const boundaries = this.boundaries;
    const n = boundaries.length;
    let i = 0;
    while (i < n && boundaries[i]! < value) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }
}

/** One up-down counter series (active requests of a method and scheme, open sessions of a route). */
export class CounterSeries {
  value = 0;
  readonly startTime: HrTime = hrNow();
  constructor(readonly attributes: Attributes) {}
}

/**
 * Everything aggregated in this process, shared by every app's `otel()` like the global meter
 * provider is: series with equal attributes are one series, whichever app or route made them.
 */
class Aggregate {
  /** Producers made (`otelMetricProducer()`): from the first, requests aggregate here. */
  producers = 0;
  readonly active: Array<CounterSeries | undefined> = new Array<CounterSeries | undefined>(SLOTS).fill(
    undefined,
  );
  readonly durations = new Map<string, HistogramSeries>();
  readonly sessions = new Map<string, CounterSeries>();
  readonly sessionDurations = new Map<string, HistogramSeries>();

  /** The active-requests series of a slot (made on its first request). */
  activeOf(slot: number): CounterSeries {
    let series = this.active[slot];
    if (series === undefined) {
      series = new CounterSeries(
        Object.freeze({
          [ATTR_HTTP_REQUEST_METHOD]: METHODS[slot >> 1] ?? '_OTHER',
          [ATTR_URL_SCHEME]: SCHEMES[slot & 1],
        }),
      );
      this.active[slot] = series;
    }
    return series;
  }
}

export const aggregate = new Aggregate();

/** A request's (method, scheme) slot. */
export function slotOf(method: string, scheme: 'http' | 'https'): number {
  return (METHOD_INDEX.get(method) ?? OTHER) * 2 + (scheme === 'https' ? 1 : 0);
}

/** The series one value of `map` is for `attributes` (equal attributes: one series, process-wide). */
function shared<T>(map: Map<string, T>, attributes: Attributes, make: (a: Attributes) => T): T {
  const key = JSON.stringify(attributes);
  let series = map.get(key);
  if (series === undefined) map.set(key, (series = make(Object.freeze(attributes))));
  return series;
}

/**
 * The series of one route's plan (one per route, and one for unrouted answers), made at wiring:
 * a request finds its duration series by `status × 32 + slot` in a map of small integers.
 */
export class RouteSeries {
  readonly #durations = new Map<number, HistogramSeries>();
  readonly #sessionDurations = new Map<number, HistogramSeries>();
  #sessions: CounterSeries | undefined;

  /** A request of this route ended: its duration in seconds under (method, scheme, status). */
  recordDuration(ex: Exchange, slot: number, status: number, seconds: number): void {
    const key = status * 32 + slot;
    let series = this.#durations.get(key);
    if (series === undefined) {
      series = shared(aggregate.durations, durationAttributes(ex, slot, status), HTTP_SERIES);
      this.#durations.set(key, series);
    }
    series.record(seconds);
  }

  /** The open-sessions series of this route (`http.route`, none when unrouted). */
  sessions(ex: Exchange): CounterSeries {
    if (this.#sessions === undefined) {
      const route = ex.route?.path;
      this.#sessions = shared(
        aggregate.sessions,
        route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route },
        COUNTER,
      );
    }
    return this.#sessions;
  }

  /** A session of this route closed: its duration in seconds under its close code. */
  recordSession(ex: Exchange, code: number | undefined, seconds: number): void {
    const key = code ?? -1;
    let series = this.#sessionDurations.get(key);
    if (series === undefined) {
      const route = ex.route?.path;
      const attributes: Attributes = route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route };
      if (code !== undefined) attributes[ATTR_WEBSOCKET_CLOSE_CODE] = code;
      series = shared(aggregate.sessionDurations, attributes, SESSION_SERIES);
      this.#sessionDurations.set(key, series);
    }
    series.record(seconds);
  }
}

const HTTP_SERIES = (a: Attributes): HistogramSeries => new HistogramSeries(a, HTTP_DURATION_BUCKETS);
const SESSION_SERIES = (a: Attributes): HistogramSeries => new HistogramSeries(a, SESSION_DURATION_BUCKETS);
const COUNTER = (a: Attributes): CounterSeries => new CounterSeries(a);

/** The attributes of a duration series, in the order the SDK path records them. */
function durationAttributes(ex: Exchange, slot: number, status: number): Attributes {
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: METHODS[slot >> 1] ?? '_OTHER',
    [ATTR_URL_SCHEME]: SCHEMES[slot & 1],
  };
  const route = ex.route?.path;
  if (route !== undefined) attributes[ATTR_HTTP_ROUTE] = route;
  if (status !== 0) attributes[ATTR_HTTP_RESPONSE_STATUS_CODE] = status;
  if (status >= 500) attributes[ATTR_ERROR_TYPE] = String(status);
  else if (status === 0) attributes[ATTR_ERROR_TYPE] = '_OTHER';
  return attributes;
}
