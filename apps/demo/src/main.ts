import { serve } from '@api/core';
import { DemoApp } from './app';

// Reads PORT (default 8000) and HOST (default 127.0.0.1); the app reads DEMO_DB, DEMO_CORS_ORIGINS
// and DEMO_REDIS_URL. SIGTERM/SIGINT: stop accepting, end streams and sockets, finish requests,
// drain the background queue (≤ 1 s), then close the store.
const port = Number(process.env.PORT ?? 8000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(2);
}
await serve(new DemoApp(), { port, host: process.env.HOST ?? '127.0.0.1' });
