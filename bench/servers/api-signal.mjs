// servers/api.mjs with every operation binding the request's `signal` (`signal: true`): a
// RequestControl per request (a 'close' listener, an AbortController), against `api`.
import { fileURLToPath } from 'node:url';

// Before api.mjs loads (it reads the flag once, when its classes are defined).
process.env.BENCH_SIGNAL = '1';
const { serveVariant } = await import('./api-ops.mjs');
const app = await serveVariant({ main: fileURLToPath(import.meta.url) });
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
