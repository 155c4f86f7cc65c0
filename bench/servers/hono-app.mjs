// The Hono 4 app (valibot through @hono/valibot-validator), without a server: hono.mjs serves it on
// @hono/node-server, bun-hono.mjs on Bun.serve. (@hono/node-server replaces the global Response when
// imported, so this module must not import it.)
import { Hono } from 'hono';
import { vValidator } from '@hono/valibot-validator';
import { Movie, ItemPath, ItemQuery, issuesOf } from './schemas.mjs';

const AUTH = 'Bearer bench-token';
let nextId = 1;

const on422 = (result, c) => {
  if (!result.success) return c.json({ error: 'validation', issues: issuesOf(result.issues) }, 422);
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
  vValidator('json', Movie, on422),
  (c) => c.json({ id: nextId++, ...c.req.valid('json') }, 201),
);

app.get('/items/:item_id', vValidator('param', ItemPath, on422), vValidator('query', ItemQuery, on422), (c) =>
  c.json({ itemId: c.req.valid('param').item_id, limit: c.req.valid('query').limit }),
);

app.notFound((c) => c.json({ error: 'not found' }, 404));
