import {
  ConsoleSpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';

/**
 * The span exporters `OTEL_TRACES_EXPORTER` names (the standard variable: a comma-separated list).
 * The demo ships what @opentelemetry/sdk-trace-node ships: `console`; `none` (or unset: the
 * default here) exports nothing. Any other name is a startup error, never a silent no-op.
 *
 * @param value - the variable as set (undefined when unset)
 */
export function exportersFromEnv(value: string | undefined): SpanExporter[] {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of names)
    if (name !== 'console' && name !== 'none')
      throw new Error(
        `OTEL_TRACES_EXPORTER=${value}: "${name}" is not an exporter this demo ships (console, none). Fix: OTEL_TRACES_EXPORTER=console, or leave it unset (nothing is exported).`,
      );
  if (names.length === 0 || names.includes('none')) return [];
  return names.map(() => new ConsoleSpanExporter());
}

/**
 * Registers the OpenTelemetry SDK (tracer provider, async-hooks context manager, W3C propagators)
 * when an exporter is asked for; otherwise registers nothing, and the app's `@api/otel` costs what
 * the API's no-op tracer costs. Spans are exported as they end (a simple processor: nothing to
 * flush at exit).
 *
 * @returns the provider, or undefined when tracing is off
 */
export function startTracing(
  env: Readonly<Record<string, string | undefined>>,
): NodeTracerProvider | undefined {
  const exporters = exportersFromEnv(env.OTEL_TRACES_EXPORTER);
  if (exporters.length === 0) return undefined;
  const provider = new NodeTracerProvider({
    spanProcessors: exporters.map((exporter) => new SimpleSpanProcessor(exporter)),
  });
  provider.register();
  return provider;
}
