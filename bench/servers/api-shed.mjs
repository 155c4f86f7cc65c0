// servers/api.mjs with load shedding on (`loadShedding`: event-loop delay past 1 s, RSS past 4 GiB;
// never reached): one flag read per request, measured once a second off the request path.
import { fileURLToPath } from 'node:url';
import { serveVariant } from './api-ops.mjs';

const app = await serveVariant({
  options: { loadShedding: { maxEventLoopDelayMs: 1000, maxRssBytes: 4 * 2 ** 30 } },
  main: fileURLToPath(import.meta.url),
});
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;
