// servers/api.mjs with an app-wide deadline (`limits.deadlineMs`, 30 s: never reached): a timer
// and a 'close' listener per request, against `api`.
import { fileURLToPath } from 'node:url';
import { serveVariant } from './api-ops.mjs';

const app = await serveVariant({
  options: { limits: { deadlineMs: 30_000 } },
  main: fileURLToPath(import.meta.url),
});
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
