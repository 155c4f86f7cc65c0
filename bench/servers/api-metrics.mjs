// servers/api.mjs with @api/otel and the OpenTelemetry metrics SDK registered (no trace SDK), its
// reader given `otelMetricProducer()`: the HTTP server metrics aggregated in process on every
// request, against `api-otel-nometrics` (and `api-metrics-sdk`: the same metrics recorded per
// request through the SDK's instruments). The reader never collects: what recording costs.
import { fileURLToPath } from 'node:url';
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { otelMetricProducer } from '@api/otel';
import { serveVariant } from './api-ops.mjs';

class IdleReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}
metrics.setGlobalMeterProvider(
  new MeterProvider({ readers: [new IdleReader({ metricProducers: [otelMetricProducer()] })] }),
);
const app = await serveVariant({ otel: true, main: fileURLToPath(import.meta.url) });
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
