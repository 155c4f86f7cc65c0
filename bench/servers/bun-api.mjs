// The @api app of api.mjs on Bun's own server: `Bun.serve({ fetch: app.fetch })` (no node:http).
// Run with the pinned Bun of scripts/runtimes (`pnpm bench --runtimes`).
import { App } from './api.mjs';

const app = new App({ logger: { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) } });

Bun.serve({
  port: Number(process.env.PORT),
  hostname: process.env.HOST ?? '127.0.0.1',
  fetch: app.fetch,
});
console.log('ready');
