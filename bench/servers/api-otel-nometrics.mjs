// servers/api.mjs with `otel({ metrics: false })` and no SDK: the baseline of the metrics pairs
// (`api-metrics`: the metrics SDK recording; `api-otel`: metrics on with no SDK, the lookup only).
import { fileURLToPath } from 'node:url';
import { serveVariant } from './api-ops.mjs';

const app = await serveVariant({ otel: 'no-metrics', main: fileURLToPath(import.meta.url) });
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
