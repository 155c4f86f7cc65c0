// Fastify 5 on its fast path: JSON-schema validation (ajv) + response schemas (fast-json-stringify).
import Fastify from 'fastify';
import { fileURLToPath } from 'node:url';

const AUTH = 'Bearer bench-token';
let nextId = 1;

const movieProps = {
  title: { type: 'string', minLength: 1, maxLength: 200 },
  year: { type: 'integer', minimum: 1888, maximum: 2100 },
  rating: { type: 'number', minimum: 0, maximum: 10 },
  genres: { type: 'array', maxItems: 10, items: { type: 'string' } },
  released: { type: 'boolean' },
};
const movieRequired = ['title', 'year', 'rating', 'genres', 'released'];

/**
 * The bench app. `logger`: Fastify's option (default `false`; fastify-log.mjs passes pino options
 * writing to /dev/null, for the operations overhead pair).
 */
export function build({ logger = false } = {}) {
  const app = Fastify({ logger });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ error: 'not found' });
  });
  app.setErrorHandler((err, req, reply) => {
    if (err.validation) {
      reply.code(422).send({
        error: 'validation',
        issues: err.validation.map((e) => ({
          path: e.instancePath || e.params?.missingProperty || '',
          message: e.message,
        })),
      });
      return;
    }
    reply.code(err.statusCode ?? 500).send({ error: err.message });
  });

  app.get(
    '/info',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            properties: { name: { type: 'string' }, version: { type: 'string' }, uptime: { type: 'number' } },
            required: ['name', 'version', 'uptime'],
          },
        },
      },
    },
    (req, reply) => {
      reply.header('x-app', 'bench');
      return { name: 'bench', version: '1.0.0', uptime: process.uptime() };
    },
  );

  app.post(
    '/movies',
    {
      onRequest: (req, reply, done) => {
        if (req.headers.authorization !== AUTH) {
          reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized' });
          return;
        }
        done();
      },
      schema: {
        body: {
          type: 'object',
          properties: movieProps,
          required: movieRequired,
          additionalProperties: false,
        },
        response: {
          201: {
            type: 'object',
            properties: { id: { type: 'integer' }, ...movieProps },
            required: ['id', ...movieRequired],
          },
        },
      },
    },
    (req, reply) => {
      reply.code(201);
      return { id: nextId++, ...req.body };
    },
  );

  app.get(
    '/items/:item_id',
    {
      schema: {
        params: { type: 'object', properties: { item_id: { type: 'integer' } }, required: ['item_id'] },
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
        },
        response: {
          200: {
            type: 'object',
            properties: { itemId: { type: 'integer' }, limit: { type: 'integer' } },
            required: ['itemId', 'limit'],
          },
        },
      },
    },
    (req) => ({ itemId: req.params.item_id, limit: req.query.limit }),
  );

  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = build();
  await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
  console.log('ready');
}
