// servers/api.mjs with @api/otel and the OpenTelemetry metrics SDK registered (no trace SDK): the
// HTTP server metrics recorded for real on every request, against `api-otel-nometrics`.
import { fileURLToPath } from 'node:url';
import { serveVariant } from './api-ops.mjs';

const app = await serveVariant({ otel: true, metricsSdk: true, main: fileURLToPath(import.meta.url) });
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
