// Elysia 1.4 on Bun: the bench routes with Elysia's own validation (TypeBox `t`, the same rules as
// schemas.mjs and Fastify's JSON schemas), auth in a `beforeHandle` hook, 422 on a validation error
// (Elysia's default code for it), 404 JSON for unknown paths.
import { Elysia, t } from 'elysia';

const AUTH = 'Bearer bench-token';
let nextId = 1;

const MovieIn = t.Object(
  {
    title: t.String({ minLength: 1, maxLength: 200 }),
    year: t.Integer({ minimum: 1888, maximum: 2100 }),
    rating: t.Number({ minimum: 0, maximum: 10 }),
    genres: t.Array(t.String(), { maxItems: 10 }),
    released: t.Boolean(),
  },
  { additionalProperties: false },
);

export const app = new Elysia()
  .onError(({ code, set }) => {
    if (code === 'NOT_FOUND') {
      set.status = 404;
      return { error: 'not found' };
    }
  })
  .get('/info', ({ set }) => {
    set.headers['x-app'] = 'bench';
    return { name: 'bench', version: '1.0.0', uptime: process.uptime() };
  })
  .post(
    '/movies',
    ({ body, set }) => {
      set.status = 201;
      return { id: nextId++, ...body };
    },
    {
      body: MovieIn,
      beforeHandle: ({ headers, set }) => {
        if (headers.authorization !== AUTH) {
          set.status = 401;
          set.headers['www-authenticate'] = 'Bearer';
          return { error: 'unauthorized' };
        }
      },
    },
  )
  .get('/items/:item_id', ({ params, query }) => ({ itemId: params.item_id, limit: query.limit }), {
    params: t.Object({ item_id: t.Integer() }),
    query: t.Object({ limit: t.Integer({ minimum: 1, maximum: 100, default: 10 }) }),
  });

app.listen({ port: Number(process.env.PORT), hostname: process.env.HOST ?? '127.0.0.1' });
console.log('ready');
