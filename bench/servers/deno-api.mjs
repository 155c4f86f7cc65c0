// The @api app of api.mjs on Deno's own server: `Deno.serve(app.fetch)` (no node:http). Run with
// the pinned Deno of scripts/runtimes (`pnpm bench --runtimes`): `deno run -A servers/deno-api.mjs`.
import { App } from './api.mjs';

const app = new App({ logger: { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) } });

Deno.serve(
  {
    port: Number(Deno.env.get('PORT')),
    hostname: Deno.env.get('HOST') ?? '127.0.0.1',
    onListen: () => console.log('ready'),
  },
  app.fetch,
);
