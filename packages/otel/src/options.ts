import { checkKnownKeys, describeValue, isPlainObject, wiringError } from '@api/core/extension';

const KEYS: readonly string[] = ['tracerProvider', 'propagator'];
const NOTE = 'both default to the globally registered ones';

/**
 * The options `otel()` and `taskContext()` share: an object of `tracerProvider` (with
 * `getTracer`) and `propagator` (with `extract`, and `inject` where context is captured too),
 * each optional. Mistakes are coded `WiringError`s at `where`.
 *
 * @param where - The call, e.g. `otel(options)`.
 * @param options - What the app passed.
 * @param propagates - The propagator methods used: `['extract']` or `['inject', 'extract']`.
 * @param moreKeys - Further keys the caller accepts (`otel()`'s metric options).
 */
export function checkTracingOptions(
  where: string,
  options: unknown,
  propagates: readonly string[],
  moreKeys: readonly string[] = [],
): void {
  if (!isPlainObject(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `options must be an object, got ${describeValue(options)}`,
      'pass { tracerProvider, propagator } or nothing',
    );
  checkKnownKeys(where, options, [...KEYS, ...moreKeys], NOTE);
  const provider = options.tracerProvider as { getTracer?: unknown } | undefined;
  if (provider !== undefined && typeof provider?.getTracer !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `tracerProvider has no getTracer(name), got ${describeValue(provider)}`,
      'pass a TracerProvider (e.g. a NodeTracerProvider), or leave it out for the global one',
    );
  const propagator = options.propagator as Record<string, unknown> | undefined;
  if (propagator !== undefined && propagates.some((m) => typeof propagator?.[m] !== 'function'))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `propagator has no ${propagates.map((m) => `${m}()`).join(' and ')}, got ${describeValue(propagator)}`,
      'pass a TextMapPropagator (e.g. W3CTraceContextPropagator), or leave it out for the global one',
    );
}

/** The metric options `otel()` takes beside the tracing ones. */
export const METRIC_KEYS: readonly string[] = ['meterProvider', 'metrics'];

/**
 * Checks `otel()`'s metric options: `meterProvider` (with `getMeter`) and `metrics` (a boolean).
 *
 * @param where - The call, e.g. `otel(options)`.
 * @param options - What the app passed (already known to be an object).
 */
export function checkMetricOptions(where: string, options: object): void {
  const o = options as Record<string, unknown>;
  const provider = o.meterProvider as { getMeter?: unknown } | undefined;
  if (provider !== undefined && typeof provider?.getMeter !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `meterProvider has no getMeter(name), got ${describeValue(provider)}`,
      "pass a MeterProvider (e.g. the SDK's MeterProvider), or leave it out for the global one",
    );
  if (o.metrics !== undefined && typeof o.metrics !== 'boolean')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `metrics must be true or false, got ${describeValue(o.metrics)}`,
      'metrics: false to record no metrics, or leave it out',
    );
}
