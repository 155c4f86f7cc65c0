// servers/api.mjs with @api/otel and the OpenTelemetry metrics SDK registered without
// `otelMetricProducer()`: the HTTP server metrics recorded per request through the SDK's
// instruments (the fallback), against `api-metrics` (aggregated in process) and `api-otel-nometrics`.
import { fileURLToPath } from 'node:url';
import { serveVariant } from './api-ops.mjs';

const app = await serveVariant({ otel: true, metricsSdk: true, main: fileURLToPath(import.meta.url) });
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
