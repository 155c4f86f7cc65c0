// The same @api app as api.mjs, answered through `app.fetch` (WHATWG Request → Response) on
// @hono/node-server: what a fetch-style adapter costs on Node, against `serve()` (api.mjs), which
// stays the recommended path there. Not in the default server list: `--servers api,api-fetch`.
import { serve } from '@hono/node-server';
import { fileURLToPath } from 'node:url';
import { App } from './api.mjs';

const app = new App({ logger: { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) } });

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: process.env.HOST ?? '127.0.0.1' }, () =>
    console.log('ready'),
  );
}
