// servers/api.mjs with @api/otel and no OpenTelemetry SDK registered (the API's no-op tracer): a
// server span started and ended around every request, recording nothing.
import { fileURLToPath } from 'node:url';
import { serveVariant } from './api-ops.mjs';

const app = await serveVariant({ otel: true, main: fileURLToPath(import.meta.url) });
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
