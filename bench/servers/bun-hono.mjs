// The Hono app of hono.mjs (same routes, @hono/valibot-validator) on Bun's own server:
// `Bun.serve({ fetch: app.fetch })`, as Hono's Bun guide teaches.
import { app } from './hono-app.mjs';

Bun.serve({
  port: Number(process.env.PORT),
  hostname: process.env.HOST ?? '127.0.0.1',
  fetch: app.fetch,
});
console.log('ready');
