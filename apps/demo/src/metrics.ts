// The demo's metrics: the OpenTelemetry metrics SDK with a Prometheus reader, scraped at the
// app's own `GET /metrics` (no second port): `@api/otel` aggregates the HTTP metrics itself and
// the reader reads them through `otelMetricProducer()` when scraped.
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { defineExtension, type Extension } from '@api/core/extension';
import { otelMetricProducer } from '@api/otel';

/** The Prometheus text format's media type. */
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Registers the metrics SDK globally with a Prometheus reader (its own HTTP server left off)
 * unless `OTEL_METRICS_EXPORTER` is `none`; any other value than `prometheus` (the default here)
 * is a startup error, never a silent no-op.
 *
 * @param env - the process environment
 * @returns the reader `/metrics` collects from, or undefined when metrics are off
 */
export function startMetrics(
  env: Readonly<Record<string, string | undefined>>,
): PrometheusExporter | undefined {
  const name = (env.OTEL_METRICS_EXPORTER ?? 'prometheus').trim().toLowerCase();
  if (name === 'none') return undefined;
  if (name !== 'prometheus')
    throw new Error(
      `OTEL_METRICS_EXPORTER=${env.OTEL_METRICS_EXPORTER}: this demo ships the prometheus exporter only. Fix: OTEL_METRICS_EXPORTER=prometheus (the default), or none.`,
    );
  const reader = new PrometheusExporter({
    preventServerStart: true,
    metricProducers: [otelMetricProducer()],
  });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return reader;
}

/**
 * `GET /metrics`: what the reader collects, in the Prometheus text format. Hidden from the
 * OpenAPI document; not behind auth (scrape it from the private network, or put it behind the
 * load balancer's own rule).
 *
 * @param reader - what `startMetrics` returned
 */
export function prometheusRoute(reader: PrometheusExporter): Extension<void> {
  const serializer = new PrometheusSerializer();
  return defineExtension({
    name: 'prometheus',
    setup(wiring) {
      wiring.addRoute({
        method: 'GET',
        path: '/metrics',
        owner: 'prometheus',
        operation: 'scrape',
        hidden: true,
        handle: async (ex) => {
          const { resourceMetrics, errors } = await reader.collect();
          for (const error of errors) wiring.log.warn('a metric could not be collected', error);
          ex.send(200, ['content-type', PROMETHEUS_TEXT], serializer.serialize(resourceMetrics));
        },
      });
    },
  });
}
