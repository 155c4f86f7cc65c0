// Hono 4 on @hono/node-server with POST /movies validated by @hono/standard-validator on the zod 4
// schema api-zod.mjs uses (the other routes as hono.mjs: valibot through @hono/valibot-validator).
import { serve, getRequestListener } from '@hono/node-server';
import { sValidator } from '@hono/standard-validator';
import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ItemPath, ItemQuery, issuesOf } from './schemas.mjs';

const AUTH = 'Bearer bench-token';
let nextId = 1;

const MovieIn = z.object({
  title: z.string().min(1).max(200),
  year: z.number().int().min(1888).max(2100),
  rating: z.number().min(0).max(10),
  genres: z.array(z.string()).max(10),
  released: z.boolean(),
});

const on422 = (result, c) => {
  if (!result.success) return c.json({ error: 'validation', issues: issuesOf(result.issues) }, 422);
};
const zod422 = (result, c) => {
  if (!result.success)
    return c.json(
      { error: 'validation', issues: result.error.map((i) => ({ path: (i.path ?? []).join('.'), message: i.message })) },
      422,
    );
};

export const app = new Hono();

app.get('/info', (c) => {
  c.header('x-app', 'bench');
  return c.json({ name: 'bench', version: '1.0.0', uptime: process.uptime() });
});

app.post(
  '/movies',
  async (c, next) => {
    if (c.req.header('authorization') !== AUTH) {
      c.header('www-authenticate', 'Bearer');
      return c.json({ error: 'unauthorized' }, 401);
    }
    await next();
  },
  sValidator('json', MovieIn, zod422),
  (c) => c.json({ id: nextId++, ...c.req.valid('json') }, 201),
);

app.get('/items/:item_id', vValidator('param', ItemPath, on422), vValidator('query', ItemQuery, on422), (c) =>
  c.json({ itemId: c.req.valid('param').item_id, limit: c.req.valid('query').limit }),
);

app.notFound((c) => c.json({ error: 'not found' }, 404));

/** The node:http (req, res) listener (Hono's node adapter), for the in-process micro-benchmark. */
export const listener = getRequestListener(app.fetch);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: process.env.HOST ?? '127.0.0.1' }, () =>
    console.log('ready'),
  );
}
