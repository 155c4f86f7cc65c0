import { trace, type ProxyTracerProvider, type Tracer, type TracerProvider } from '@opentelemetry/api';

/** The instrumentation scope of every span this package starts. */
export const TRACER_NAME = '@api/otel';

/**
 * The tracer spans start on: the given provider's, else the globally registered provider's — or
 * undefined while no SDK is registered (the API's proxy provider has no delegate yet), so a request
 * or a task then costs this lookup and nothing else. The global provider is looked up again when
 * it changes, so an SDK registered after wiring (or through another copy of the API — its CommonJS
 * build beside the ES module one — whose proxy provider the global then holds) still gets spans.
 *
 * @param given - `tracerProvider` from the options, if any
 */
export function tracerOf(given: TracerProvider | undefined): () => Tracer | undefined {
  if (given !== undefined) {
    const tracer = given.getTracer(TRACER_NAME);
    return () => tracer;
  }
  let provider: TracerProvider | undefined;
  let tracer: Tracer | undefined;
  return () => {
    const current = trace.getTracerProvider();
    if (current === provider && tracer !== undefined) return tracer;
    provider = current;
    const proxy = current as Partial<Pick<ProxyTracerProvider, 'getDelegateTracer'>>;
    tracer =
      typeof proxy.getDelegateTracer === 'function'
        ? proxy.getDelegateTracer(TRACER_NAME)
        : current.getTracer(TRACER_NAME);
    return tracer;
  };
}
