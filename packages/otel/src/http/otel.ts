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
import { WiringError } from '@api/core';
import {
  defineExtension,
  type Exchange,
  type Extension,
  type RouteContribution,
  type Wiring,
} from '@api/core/extension';
import { tracerOf } from '../tracer';
import { instrumentsOf, type Instruments } from '../metrics/meter';
import { requestEnded, requestStarted, sessionEnded } from '../metrics/http-metrics';
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

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'tracerProvider',
  'propagator',
  'meterProvider',
  'metrics',
]);
const kSpan = Symbol('@api/otel.span');
/** Apps (by their wiring surface) that already include the extension: a second would double every span. */
const included = new WeakSet<Wiring>();

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
  checkOptions(options);
  return defineExtension({
    name: 'otel',
    setup(wiring) {
      if (included.has(wiring))
        wiring.fail(
          `${wiring.appName}.include(otel())`,
          'otel is already included, so every request would get two server spans',
          'include otel() once',
        );
      included.add(wiring);
      const tracer = tracerOf(options.tracerProvider);
      const instruments = options.metrics === false ? undefined : instrumentsOf(options.meterProvider);
      const contribution = serverSpans(tracer, options.propagator ?? propagation, wiring, instruments);
      wiring.addContributor(() => contribution);
    },
  });
}

/** The contribution every route (and every unrouted answer) gets: one server span around its run. */
function serverSpans(
  tracer: () => Tracer | undefined,
  propagator: Pick<TextMapPropagator, 'extract'>,
  facts: RequestFacts,
  instruments: (() => Instruments | undefined) | undefined,
): RouteContribution {
  return {
    around: (ex, next) => {
      if (instruments !== undefined) {
        const meters = instruments();
        if (meters !== undefined) requestStarted(ex, meters, facts);
      }
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
      if (instruments !== undefined) requestEnded(ex, status, durationMs);
      const span = ex.state[kSpan] as Span | undefined;
      // A taken-over connection (a WebSocket) is one span until it closes: ended below.
      if (span === undefined || (status === 101 && ex.upgrade !== undefined)) return;
      endHttp(span, status);
    },
    observeClose: (ex, closed) => {
      if (instruments !== undefined) sessionEnded(ex, closed);
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

function checkOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new WiringError(
      `otel(options): options must be an object, got ${describe(options)}. Fix: pass { tracerProvider, propagator, meterProvider, metrics } or nothing.`,
    );
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o))
    if (!OPTION_KEYS.has(key))
      throw new WiringError(
        `otel(options): unknown option "${key}". Fix: use only tracerProvider, propagator, meterProvider (each defaults to the globally registered one) and metrics.`,
      );
  if (
    o.meterProvider !== undefined &&
    typeof (o.meterProvider as { getMeter?: unknown })?.getMeter !== 'function'
  )
    throw new WiringError(
      `otel(options): meterProvider has no getMeter(name), got ${describe(o.meterProvider)}. Fix: pass a MeterProvider (e.g. the SDK's MeterProvider), or leave it out for the global one.`,
    );
  if (o.metrics !== undefined && typeof o.metrics !== 'boolean')
    throw new WiringError(
      `otel(options): metrics must be true or false, got ${describe(o.metrics)}. Fix: metrics: false to record no metrics, or leave it out.`,
    );
  if (
    o.tracerProvider !== undefined &&
    typeof (o.tracerProvider as { getTracer?: unknown })?.getTracer !== 'function'
  )
    throw new WiringError(
      `otel(options): tracerProvider has no getTracer(name), got ${describe(o.tracerProvider)}. Fix: pass a TracerProvider (e.g. a NodeTracerProvider), or leave it out for the global one.`,
    );
  if (o.propagator !== undefined && typeof (o.propagator as { extract?: unknown })?.extract !== 'function')
    throw new WiringError(
      `otel(options): propagator has no extract(context, carrier, getter), got ${describe(o.propagator)}. Fix: pass a TextMapPropagator (e.g. W3CTraceContextPropagator), or leave it out for the global one.`,
    );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
