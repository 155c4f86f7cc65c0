import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type MeterProvider,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import {
  defineExtension,
  installAppPolicy,
  type Exchange,
  type Extension,
  type RouteContribution,
} from '@api/core/extension';
import { checkMetricOptions, checkTracingOptions, METRIC_KEYS } from '../options';
import { tracerOf } from '../tracer';
import { instrumentsOf } from '../metrics/meter';
import { metricsOf, type RouteMetrics } from '../metrics/http-metrics';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_WEBSOCKET_CLOSE_CODE,
  requestAttributes,
  spanName,
  startAttributes,
  type RequestFacts,
} from './attributes';

/** Options of `otel(options)`. Every one defaults to what the app registered with the OpenTelemetry API. */
export interface OtelOptions {
  /** Where spans go (default: the global provider, so an SDK registered later still gets them). */
  readonly tracerProvider?: TracerProvider | undefined;
  /** Reads `traceparent`/`tracestate` from requests (default: the global propagator). */
  readonly propagator?: TextMapPropagator | undefined;
  /** Where metrics go (default: the global provider, looked up again when it changes). */
  readonly meterProvider?: MeterProvider | undefined;
  /**
   * Record the HTTP server metrics (`http.server.request.duration`, `http.server.active_requests`)
   * and WebSocket sessions. Default true; false leaves no metrics step on any request.
   */
  readonly metrics?: boolean | undefined;
}

const kSpan = Symbol('@api/otel.span');

/**
 * OpenTelemetry traces for an app: one SERVER span per request, named after the route template
 * (`GET /widgets/{widget_id}`) with the stable HTTP semantic conventions; the caller's W3C
 * `traceparent`/`tracestate` is its parent (a malformed one starts a new trace); the span is the
 * active context inside handlers (user spans and instrumented clients nest under it); a WebSocket
 * session is one span from the upgrade to the close, with the close code. No SDK is started here:
 * the app owns the SDK, and without one the cost is the API's no-op tracer.
 *
 * @param options - a tracer provider or propagator other than the globally registered ones
 * @example
 * // after `new NodeTracerProvider({ … }).register()` in the app's entry point:
 * this.include(otel());
 */
export function otel(options: OtelOptions = {}): Extension<void> {
  checkTracingOptions('otel(options)', options, ['extract'], METRIC_KEYS);
  checkMetricOptions('otel(options)', options);
  return defineExtension({
    name: 'otel',
    setup(wiring) {
      // One include per app: a second would double every span.
      installAppPolicy(wiring, {
        extension: 'otel',
        duplicate: 'otel is already included, so every request would get two server spans',
        duplicateFix: 'include otel() once',
        contribute: () => {
          const tracer = tracerOf(options.tracerProvider);
          const instruments = options.metrics === false ? undefined : instrumentsOf(options.meterProvider);
          const propagator = options.propagator ?? propagation;
          if (instruments === undefined) {
            const contribution = serverSpans(tracer, propagator, wiring, undefined);
            return () => contribution;
          }
          // Metrics on: aggregated per route (a producer exists) or through the instruments, decided now.
          const metricsFor = metricsOf(instruments, wiring);
          return () => serverSpans(tracer, propagator, wiring, metricsFor());
        },
      });
    },
  });
}

/** The contribution every route (and every unrouted answer) gets: one server span around its run. */
function serverSpans(
  tracer: () => Tracer | undefined,
  propagator: Pick<TextMapPropagator, 'extract'>,
  facts: RequestFacts,
  metered: RouteMetrics | undefined,
): RouteContribution {
  return {
    around: (ex, next) => {
      if (metered !== undefined) metered.started(ex);
      const active = tracer();
      if (active === undefined) {
        next(ex);
        return;
      }
      const parent = propagator.extract(ROOT_CONTEXT, ex.req.headers, HEADERS);
      const route = ex.route?.path;
      const span = active.startSpan(
        spanName(ex.method, route),
        { kind: SpanKind.SERVER, attributes: startAttributes(ex, route, facts) },
        parent,
      );
      if (span.isRecording()) span.setAttributes(requestAttributes(ex, facts));
      ex.state[kSpan] = span;
      context.with(trace.setSpan(parent, span), next, undefined, ex);
    },
    observe: (ex, status, durationMs) => {
      if (metered !== undefined) metered.ended(ex, status, durationMs);
      const span = ex.state[kSpan] as Span | undefined;
      // A taken-over connection (a WebSocket) is one span until it closes: ended below.
      if (span === undefined || (status === 101 && ex.upgrade !== undefined)) return;
      endHttp(span, status);
    },
    observeClose: (ex, closed) => {
      if (metered !== undefined) metered.closed(ex, closed);
      const span = ex.state[kSpan] as Span | undefined;
      if (span === undefined) return;
      if (closed.code !== undefined) span.setAttribute(ATTR_WEBSOCKET_CLOSE_CODE, closed.code);
      endHttp(span, 101);
    },
  };
}

/** Records the status (a 5xx is an error: `error.type` is the status) and ends the span. */
function endHttp(span: Span, status: number): void {
  // 0: the client went away before any response was sent; there is no status to record.
  if (status !== 0) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (status >= 500) {
    span.setAttribute(ATTR_ERROR_TYPE, String(status));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** Reads request headers as node:http parsed them (lower-case names). */
const HEADERS = {
  get: (carrier: Exchange['req']['headers'], key: string) => carrier[key],
  keys: (carrier: Exchange['req']['headers']) => Object.keys(carrier),
};
