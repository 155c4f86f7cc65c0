#!/usr/bin/env node
// Rate limiting: @api/rate-limit against @fastify/rate-limit 11 on Fastify, side by side, on the
// same small JSON route (`GET /limited`), each without a limit (the baseline), with its memory
// store and with its Redis store (one redis-server, pinned to the load core, shared by both). The
// limit is never reached (10^9 per hour, one client address): what is timed is the cost of
// counting — server CPU per request over the framework's own baseline — not refusals. Both send
// their headers (@api: RateLimit-Policy + RateLimit; Fastify: x-ratelimit-limit/-remaining/-reset).
// Interleaved rounds; servers pinned to core 0, wrk and this harness to core 1; server CPU per
// request from /proc. Every server's answer is checked (status, body, its rate-limit headers)
// before timing. Writes results/rate-limit-<timestamp>.{md,json}.
// Usage: pnpm --filter @api/bench rate-limit [options]
//   [--rounds 5] [--duration 4] [--warmup 2] [--connections 50]
//   [--servers fastify-none,fastify-memory,fastify-redis,api-none,api-memory,api-redis]
//   [--quiet-wait 60] [--no-build] [--source] [--out DIR]
//   --source runs the @api servers from TypeScript sources through tsx (no build): for smoke runs
//   only, never for numbers.
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedis } from './redis-server.mjs';
import {
  childOrMain,
  ensureWrk,
  fileStamp,
  int,
  LOAD_CORE,
  medianRows,
  packageVersion,
  pinSelf,
  r2,
  rpsText,
  runMeta,
  requireLinuxTwoCores,
  SERVER_CORE,
  sideBySideArgs,
  sideBySideRounds,
  startServer,
  stopAll,
  timedWrk,
  turboBuild,
  wrk,
  writeResults,
} from './harness/index.mjs';

const SELF = fileURLToPath(import.meta.url);
const ALL_SERVERS = [
  'fastify-none',
  'fastify-memory',
  'fastify-redis',
  'api-none',
  'api-memory',
  'api-redis',
];
const BODY = { ok: true, name: 'limited' };
/** Never reached: one client address, 10^9 per hour. */
const LIMIT = 1_000_000_000;
const WINDOW_S = 3600;

// ---------------------------------------------------------------- child mode: one server
async function fastify(port, store) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  if (store !== 'none') {
    const { default: rateLimit } = await import('@fastify/rate-limit');
    const options = { max: LIMIT, timeWindow: WINDOW_S * 1000 };
    if (store === 'redis') {
      const { Redis } = await import('ioredis');
      options.redis = new Redis(process.env.REDIS_URL, { connectTimeout: 500, maxRetriesPerRequest: 1 });
      options.nameSpace = `bench-fastify-${process.pid}-`;
      options.skipOnError = true;
    }
    await app.register(rateLimit, options);
  }
  const schema = {
    response: {
      200: { type: 'object', properties: { ok: { type: 'boolean' }, name: { type: 'string' } } },
    },
  };
  app.get('/limited', { schema }, async () => BODY);
  await app.listen({ port, host: '127.0.0.1' });
}

async function api(port, store) {
  const v = await import('valibot');
  const { BaseApp, Endpoint, Struct, serve } = await import('@api/core');
  const { memoryStore, RateLimit, rateLimit, redisStore } = await import('@api/rate-limit');
  const Answer = Struct('Answer', { ok: v.boolean(), name: v.string() });
  class Limited extends Endpoint('/limited') {
    get = this.operation({ returns: Answer }, () => BODY);
  }
  let client;
  if (store === 'redis') {
    const { Redis } = await import('ioredis');
    client = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 });
    await new Promise((resolve) => client.once('ready', resolve));
  }
  class App extends BaseApp {
    async wire() {
      if (store !== 'none')
        this.include(
          rateLimit({
            store:
              store === 'redis' ? redisStore(client, { prefix: `bench-api-${process.pid}:` }) : memoryStore(),
            onStoreDown: 'allow',
            policy: new RateLimit({ name: 'bench', limit: LIMIT, window: WINDOW_S }),
          }),
        );
      this.includeEndpoint(new Limited());
    }
  }
  const quiet = { info() {}, warn: (m, e) => console.error(m, e), error: (m, e) => console.error(m, e) };
  await serve(new App({ logger: quiet }), { port, host: '127.0.0.1', quiet: true, signals: false });
}

// ---------------------------------------------------------------- harness
function parseArgs(argv) {
  return sideBySideArgs(argv, {
    servers: ALL_SERVERS,
    defaults: { quietWaitMs: 60_000, source: false },
    flags: {
      '--source': ['source', true],
      '--quiet-wait': ['quietWaitMs', (v) => Number(v) * 1000],
    },
  });
}

/** Every server answers 200 with the body, and the limited ones with their rate-limit headers. */
async function check(server) {
  const res = await fetch(`${server.url}/limited`);
  const body = await res.json();
  if (res.status !== 200 || JSON.stringify(body) !== JSON.stringify(BODY))
    throw new Error(`${server.name}: GET /limited answered ${res.status} ${JSON.stringify(body)}`);
  const [framework, store] = server.name.split('-');
  const header =
    framework === 'api' ? res.headers.get('ratelimit') : res.headers.get('x-ratelimit-remaining');
  if (store === 'none' ? header !== null : header === null)
    throw new Error(`${server.name}: rate-limit header ${JSON.stringify(header)}`);
}

const timed = (server, opts) =>
  timedWrk(server, { url: `${server.url}/limited`, seconds: opts.duration, connections: opts.connections });

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  requireLinuxTwoCores();
  ensureWrk();
  if (opts.build && !opts.source && opts.servers.some((s) => s.startsWith('api')))
    turboBuild(['@api/rate-limit...'], '@api/core and @api/rate-limit');
  pinSelf();
  const loadBefore = os.loadavg();
  const redis = opts.servers.some((s) => s.endsWith('-redis')) ? await startRedis() : undefined;
  const servers = [];
  try {
    for (const name of opts.servers) {
      const s = await startServer({
        name,
        script: SELF,
        args: ['--child', name],
        nodeArgs:
          opts.source && name.startsWith('api') ? ['--conditions=@api/source', '--import', 'tsx'] : [],
        env: redis ? { REDIS_URL: redis.url } : {},
      });
      servers.push(s);
      await check(s);
    }
    const samples = await sideBySideRounds({
      servers,
      opts,
      quietWaitMs: opts.quietWaitMs,
      warm: (s, seconds) => wrk({ url: `${s.url}/limited`, seconds, connections: opts.connections }),
      timed: (s) => timed(s, opts),
      line: (sample) => `${sample.server.padEnd(15)} ${rpsText(sample)}`,
    });
    const rows = medianRows(servers, samples);
    const row = (name) => rows.find((r) => r.server === name);
    /** Server CPU a store adds per request over the same framework without a limit. */
    const overhead = {};
    for (const store of ['memory', 'redis'])
      for (const framework of ['api', 'fastify']) {
        const limited = row(`${framework}-${store}`);
        const none = row(`${framework}-none`);
        if (limited && none) overhead[`${framework}-${store}`] = limited.cpuUsPerReq - none.cpuUsPerReq;
      }
    const ratios = {};
    for (const store of ['memory', 'redis'])
      if (overhead[`api-${store}`] !== undefined && overhead[`fastify-${store}`] !== undefined)
        ratios[store] = {
          overhead: overhead[`api-${store}`] / overhead[`fastify-${store}`],
          rps: row(`api-${store}`).rps / row(`fastify-${store}`).rps,
        };
    const meta = {
      ...runMeta(loadBefore),
      rounds: opts.rounds,
      duration: opts.duration,
      connections: opts.connections,
      fastifyRateLimit: packageVersion('@fastify/rate-limit'),
    };
    const base = join(opts.out, `rate-limit-${fileStamp(meta.date)}`);
    const md = [
      `# Rate limiting: @api/rate-limit vs @fastify/rate-limit ${meta.fastifyRateLimit} on Fastify (${meta.date})`,
      '',
      '`GET /limited` (a small JSON object), never refused (10^9 per hour, one client address); each framework without a',
      'limit, with its memory store and with its Redis store (one redis-server on the load core, shared).',
      `wrk -t1 -c${opts.connections}, ${opts.rounds} interleaved rounds × ${opts.duration} s; servers on core ${SERVER_CORE}, wrk and redis-server on core ${LOAD_CORE}.`,
      `Node ${meta.node}, ${meta.cpu}. Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')};`,
      `${samples.filter((x) => x.quietBefore).length}/${samples.length} samples started on a quiet machine (other load ≤ 10%).`,
      '',
      '| server | req/s | server CPU µs/req | over its baseline µs/req | p99 ms | peak RSS MB | errors |',
      '|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.server} | ${int(r.rps)} | ${r.cpuUsPerReq.toFixed(1)} | ${overhead[r.server] === undefined ? '—' : overhead[r.server].toFixed(1)} | ${(r.p99Us / 1000).toFixed(2)} | ${(r.peakRssKb / 1024).toFixed(0)} | ${r.errors} |`,
      ),
      '',
      'Ratios @api/Fastify (overhead per request: lower is better; req/s: higher is better): ' +
        Object.entries(ratios)
          .map(([store, r]) => `${store} overhead **${r2(r.overhead)}**, req/s **${r2(r.rps)}**`)
          .join('; ') +
        '.',
      '',
    ].join('\n');
    writeResults(base, { meta, rows, overhead, ratios, samples }, md);
    console.log(
      `rate-limit: ${Object.entries(ratios)
        .map(([store, r]) => `${store} api/fastify overhead ${r2(r.overhead)} req/s ${r2(r.rps)}`)
        .join('; ')} → ${base}.md`,
    );
  } finally {
    stopAll();
    redis?.stop();
  }
}

// ---------------------------------------------------------------- entry
await childOrMain((name, port) => {
  const [framework, store] = name.split('-');
  return (framework === 'api' ? api : fastify)(port, store);
}, main);
