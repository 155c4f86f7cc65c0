// servers/fastify.mjs with Fastify's own logger on (`logger: true`'s pino, level info, writing to
// /dev/null): its default request logging ("incoming request" and "request completed", two JSON
// lines per request), for comparison with @api's request log (api-log vs api-pino).
import { fileURLToPath } from 'node:url';
import { build } from './fastify.mjs';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = build({ logger: { level: 'info', file: '/dev/null' } });
  await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
  console.log('ready');
}
