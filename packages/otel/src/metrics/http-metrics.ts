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
const kSlot = Symbol('@api/otel.slot');

/** The metrics steps of one route's plan (made at wiring, one per route and one for unrouted answers). */
export interface RouteMetrics {
  started(ex: Exchange): void;
  ended(ex: Exchange, status: number, durationMs: number): void;
  closed(ex: Exchange, closed: ConnectionClose): void;
}

/**
 * One route's metrics: aggregated in this process once an `otelMetricProducer()` exists (a few
 * integer additions per request, no SDK call), else recorded per request through the metrics
 * API's instruments (any `MeterProvider`, at its cost). A request ends the way it started.
 *
 * @param instruments - the instruments of the current meter provider (undefined: none registered)
 * @param facts - the app's trust-proxy facts (`url.scheme`)
 */
export function routeMetrics(instruments: () => Instruments | undefined, facts: RequestFacts): RouteMetrics {
  const series = new RouteSeries();
  return {
    started(ex) {
      if (aggregate.producers > 0) {
        const slot = slotOf(ex.method, facts.requestScheme(ex.req));
        aggregate.activeOf(slot).value++;
        ex.state[kSlot] = slot;
        return;
      }
      const meters = instruments();
      if (meters !== undefined) requestStarted(ex, meters, facts);
    },
    ended(ex, status, durationMs) {
      const slot = ex.state[kSlot] as number | undefined;
      if (slot === undefined) {
        requestEnded(ex, status, durationMs);
        return;
      }
      aggregate.activeOf(slot).value--;
      // A WebSocket's takeover counts a session instead of a request duration.
      if (status === 101 && ex.upgrade !== undefined) series.sessions(ex).value++;
      else series.recordDuration(ex, slot, status, durationMs / 1000);
    },
    closed(ex, closed) {
      if (ex.state[kSlot] === undefined) {
        sessionEnded(ex, closed);
        return;
      }
      series.sessions(ex).value--;
      series.recordSession(ex, closed.code, closed.durationMs / 1000);
    },
  };
}

/** What a request's start recorded: where it counted itself, and with which attributes. */
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
