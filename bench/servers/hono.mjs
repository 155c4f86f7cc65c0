// Hono 4 on @hono/node-server, validated with valibot through @hono/valibot-validator (the app: hono-app.mjs).
import { serve, getRequestListener } from '@hono/node-server';
import { fileURLToPath } from 'node:url';
import { app } from './hono-app.mjs';

export { app };

/** The node:http (req, res) listener (Hono's node adapter), for the in-process micro-benchmark. */
export const listener = getRequestListener(app.fetch);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: process.env.HOST ?? '127.0.0.1' }, () =>
    console.log('ready'),
  );
}
