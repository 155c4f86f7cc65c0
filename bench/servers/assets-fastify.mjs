// @fastify/static with its defaults (ETag, Last-Modified, cache-control, ranges): stat + stream per request.
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';

const app = Fastify({ logger: false });
app.register(fastifyStatic, { root: process.env.ASSETS_DIR, prefix: '/assets/' });
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
console.log('ready');
