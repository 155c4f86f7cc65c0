// servers/api.mjs with core's request log on and a logger that drops every line: what core itself
// spends per request (ids, timing, byte count, the line's fields), without pino's serialization.
import { fileURLToPath } from 'node:url';
import { serveVariant } from './api-ops.mjs';

const app = await serveVariant({ requestLog: true, main: fileURLToPath(import.meta.url) });
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
