// servers/api.mjs logging through pino to /dev/null, request log off: the baseline of `api-log`.
import { fileURLToPath } from 'node:url';
import { serveVariant } from './api-ops.mjs';

const app = await serveVariant({ pinoToDevNull: true, main: fileURLToPath(import.meta.url) });
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
