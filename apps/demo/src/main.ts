import { serve } from '@api/core';
import { DemoApp } from './app';
import { operatorUrls } from './extensions/front-door';
import { createLogger } from './logging';
import { startTracing } from './tracing';
import { startMetrics } from './metrics';

// Reads PORT (default 8000), HOST (default 127.0.0.1), LOG_LEVEL (default info),
// OTEL_TRACES_EXPORTER (console, or none: the default) and OTEL_METRICS_EXPORTER (prometheus: the
// default, scraped at GET /metrics; or none); the app reads DEMO_DB, DEMO_CORS_ORIGINS and
// DEMO_REDIS_URL. Probes: GET /livez, GET /readyz (503 from SIGTERM on, for 500 ms before the
// server stops accepting). Load shedding: 503 + retry-after past 500 ms of event-loop delay. Logs are pino: JSON lines when stdout is not a terminal, readable in one.
// SIGTERM/SIGINT: stop accepting, end streams and sockets, finish requests, drain the background
// queue (≤ 1 s), then close the store.
const port = Number(process.env.PORT ?? 8000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(2);
}
const logger = createLogger({ level: process.env.LOG_LEVEL });
let metrics: ReturnType<typeof startMetrics>;
try {
  // Before the app: the SDK's context manager must be in place when requests arrive.
  startTracing(process.env);
  metrics = startMetrics(process.env);
} catch (error) {
  logger.error((error as Error).message);
  process.exit(2);
}
const app = new DemoApp({ logger, metrics, loadShedding: { maxEventLoopDelayMs: 500 } });
const running = await serve(app, { port, host: process.env.HOST ?? '127.0.0.1' });
for (const line of operatorUrls(running.url, app.catalogue)) logger.info(line);
