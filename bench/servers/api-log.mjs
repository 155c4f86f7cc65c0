// servers/api.mjs with core's request log on, pino writing to /dev/null: one JSON line per request.
import { fileURLToPath } from 'node:url';
import { serveVariant } from './api-ops.mjs';

const app = await serveVariant({
  pinoToDevNull: true,
  requestLog: true,
  main: fileURLToPath(import.meta.url),
});
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
