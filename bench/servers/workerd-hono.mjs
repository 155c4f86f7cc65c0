// The Hono app of hono.mjs (same routes, @hono/valibot-validator) as a Worker module on workerd:
// `export default app`, as Hono's Cloudflare Workers guide teaches. Bundled and served by
// src/servers.mjs (`pnpm bench --runtimes`), with the pinned workerd of scripts/runtimes.
import { app } from './hono-app.mjs';

// workerd loads the module just before its socket listens: the bench harness waits for this line.
console.log('ready');

export default app;
