// The HTTP server metrics of the stable semantic conventions, and WebSocket sessions, recorded
// from core's exchange by the same contribution that starts the server spans.
import type { Attributes } from '@opentelemetry/api';
import type { ConnectionClose, Exchange } from '@api/core/extension';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_SCHEME,
  ATTR_WEBSOCKET_CLOSE_CODE,
  methodAttribute,
  type RequestFacts,
} from '../http/attributes';
import { aggregate, RouteSeries, slotOf } from './aggregate';
import type { Instruments } from './meter';

const kMetered = Symbol('@api/otel.metered');

/** The metrics steps of one route's plan (made at wiring, one per route and one for unrouted answers). */
export interface RouteMetrics {
  started(ex: Exchange): void;
  ended(ex: Exchange, status: number, durationMs: number): void;
  closed(ex: Exchange, closed: ConnectionClose): void;
}

/**
 * The metrics of an app's routes, decided when it is wired: aggregated in this process when an
 * `otelMetricProducer()` exists by then (a few integer additions per request, no SDK call, nothing
 * kept on the exchange), else recorded per request through the metrics API's instruments (any
 * `MeterProvider`, at its cost).
 *
 * @param instruments - the instruments of the current meter provider (undefined: none registered)
 * @param facts - the app's trust-proxy facts (`url.scheme`)
 * @returns the steps of each route (called once per route at wiring)
 */
export function metricsOf(
  instruments: () => Instruments | undefined,
  facts: RequestFacts,
): () => RouteMetrics {
  if (aggregate.producers > 0) return () => aggregated(facts);
  const perRecord: RouteMetrics = {
    started(ex) {
      const meters = instruments();
      if (meters !== undefined) requestStarted(ex, meters, facts);
    },
    // No provider: nothing was started, and the exchange's state is left unmade.
    ended(ex, status, durationMs) {
      if (instruments() !== undefined) requestEnded(ex, status, durationMs);
    },
    closed(ex, closed) {
      if (instruments() !== undefined) sessionEnded(ex, closed);
    },
  };
  return () => perRecord;
}

/** One route's aggregated metrics: its own series, found per request by small integers. */
function aggregated(facts: RequestFacts): RouteMetrics {
  const series = new RouteSeries();
  return {
    started(ex) {
      aggregate.activeOf(slotOf(ex.method, facts.requestScheme(ex.req))).value++;
    },
    ended(ex, status, durationMs) {
      // The same (method, scheme) as at the start: both are read from the same request head.
      const slot = slotOf(ex.method, facts.requestScheme(ex.req));
      aggregate.activeOf(slot).value--;
      // A WebSocket's takeover counts a session instead of a request duration.
      if (status === 101 && ex.upgrade !== undefined) series.sessions(ex).value++;
      else series.recordDuration(ex, slot, status, durationMs / 1000);
    },
    closed(ex, closed) {
      series.sessions(ex).value--;
      series.recordSession(ex, closed.code, closed.durationMs / 1000);
    },
  };
}

/** What a request's start recorded (per-record path): where it counted itself, and with which attributes. */
interface Metered {
  readonly instruments: Instruments;
  readonly attributes: Attributes;
}

/** A request began: `http.server.active_requests` +1 (method, scheme). */
export function requestStarted(ex: Exchange, instruments: Instruments, facts: RequestFacts): void {
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: methodAttribute(ex.method),
    [ATTR_URL_SCHEME]: facts.requestScheme(ex.req),
  };
  instruments.activeRequests.add(1, attributes);
  ex.state[kMetered] = { instruments, attributes } satisfies Metered;
}

/**
 * A request ended (its response closed, or the connection was taken over): active −1, and
 * `http.server.request.duration` in seconds by route template, method, scheme, status and
 * `error.type` (a 5xx: the status; a client gone before the head: `_OTHER`). A WebSocket's
 * takeover counts a session instead of a request duration.
 */
export function requestEnded(ex: Exchange, status: number, durationMs: number): void {
  const metered = ex.state[kMetered] as Metered | undefined;
  if (metered === undefined) return;
  const { instruments, attributes } = metered;
  instruments.activeRequests.add(-1, attributes);
  const route = ex.route?.path;
  if (status === 101 && ex.upgrade !== undefined) {
    instruments.activeSessions.add(1, route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route });
    return;
  }
  const recorded: Attributes = { ...attributes };
  if (route !== undefined) recorded[ATTR_HTTP_ROUTE] = route;
  if (status !== 0) recorded[ATTR_HTTP_RESPONSE_STATUS_CODE] = status;
  if (status >= 500) recorded[ATTR_ERROR_TYPE] = String(status);
  else if (status === 0) recorded[ATTR_ERROR_TYPE] = '_OTHER';
  instruments.requestDuration.record(durationMs / 1000, recorded);
}

/** A WebSocket session closed: sessions −1, its duration in seconds (route, close code). */
export function sessionEnded(ex: Exchange, closed: ConnectionClose): void {
  const metered = ex.state[kMetered] as Metered | undefined;
  if (metered === undefined) return;
  const route = ex.route?.path;
  const attributes: Attributes = route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route };
  metered.instruments.activeSessions.add(-1, attributes);
  if (closed.code !== undefined) attributes[ATTR_WEBSOCKET_CLOSE_CODE] = closed.code;
  metered.instruments.sessionDuration.record(closed.durationMs / 1000, attributes);
}
