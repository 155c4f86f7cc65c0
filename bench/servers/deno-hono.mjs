// The Hono app of hono.mjs (same routes, @hono/valibot-validator) on Deno's own server:
// `Deno.serve(app.fetch)`, as Hono's Deno guide teaches.
import { app } from './hono-app.mjs';

Deno.serve(
  {
    port: Number(Deno.env.get('PORT')),
    hostname: Deno.env.get('HOST') ?? '127.0.0.1',
    onListen: () => console.log('ready'),
  },
  app.fetch,
);
