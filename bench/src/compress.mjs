#!/usr/bin/env node
// Dynamic compression: @api/compress against @fastify/compress 9.2.0 on Fastify, side by side, on
// the same 10 KiB JSON list (`GET /widgets`: 80 widgets, each serializer compiled from a schema),
// once per coding: br (quality 4, both plugins' default), gzip (level 6) and identity (no
// `Accept-Encoding`: what the plugins cost when nothing is compressed). Same threshold (1 KiB).
// Interleaved rounds; servers pinned to core 0, wrk and this harness to core 1; server CPU per
// request from /proc (the process's threads included: zlib's thread pool is counted). Bodies
// are checked decoded, byte for byte, before timing.
// Then the stream scenario (@api alone): 10,000 small NDJSON items and 10,000 SSE events, each
// written as the producer has them, per coding: wire bytes against compressing the whole body at
// once (target ≤ 1.1×) and time to the last byte against identity (target ≤ 2×), medians of
// `--stream-runs` sequential requests; bodies checked decoded, byte for byte.
// Writes results/compress-<timestamp>.{md,json}.
// Usage: pnpm bench --compress [options]   (or: pnpm --filter @api/bench compress [options])
//   [--rounds 5] [--duration 4] [--warmup 2] [--connections 50] [--servers fastify,api]
//   [--codings br,gzip,identity] [--quiet-wait 60] [--no-build] [--out DIR]
//   [--only list|streams] [--stream-runs 9]
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ACCEPT, streamBench, streamRoutes } from './compress-streams.mjs';
import { median } from './report.mjs';
import { CLK_TCK, readMem, readProcTicks, resetPeakRss, sleep } from './sys.mjs';
import {
  BENCH,
  ensureWrk,
  fileStamp,
  int,
  LOAD_CORE,
  packageVersion,
  parseFlags,
  pinSelf,
  r2,
  runMeta,
  requireLinuxTwoCores,
  rotated,
  SERVER_CORE,
  socketErrors,
  startServer,
  stopAll,
  stopServer,
  turboBuild,
  waitQuietMachine,
  wrk,
  writeResults,
} from './harness/index.mjs';

const SELF = fileURLToPath(import.meta.url);
const ALL_SERVERS = ['fastify', 'api'];
const ALL_CODINGS = ['br', 'gzip', 'identity'];

// ---------------------------------------------------------------- child mode: one server
/** The list both servers send: 80 widgets, about 10 KiB of JSON. */
const WIDGETS = Array.from({ length: 80 }, (_, id) => ({
  id,
  name: `widget ${id}`,
  description: `A ${['small', 'medium', 'large', 'huge'][id % 4]} widget for the compression benchmark`,
  priceCents: 100 + id * 37,
  inStock: id % 3 !== 0,
}));

const SERVERS = {
  async fastify(port) {
    const { default: Fastify } = await import('fastify');
    const { default: compress } = await import('@fastify/compress');
    const app = Fastify({ logger: false });
    await app.register(compress, { global: true, threshold: 1024 }); // br quality 4, gzip level 6: its defaults
    const widget = {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        description: { type: 'string' },
        priceCents: { type: 'integer' },
        inStock: { type: 'boolean' },
      },
      required: ['id', 'name', 'description', 'priceCents', 'inStock'],
    };
    app.get(
      '/widgets',
      { schema: { response: { 200: { type: 'array', items: widget } } } },
      async () => WIDGETS,
    );
    await app.listen({ port, host: '127.0.0.1' });
  },
  async api(port) {
    const v = await import('valibot');
    const { BaseApp, Endpoint, Struct, serve } = await import('@api/core');
    const { compress } = await import('@api/compress');
    const Widget = Struct('Widget', {
      id: v.number(),
      name: v.string(),
      description: v.string(),
      priceCents: v.number(),
      inStock: v.boolean(),
    });
    class Widgets extends Endpoint('/widgets') {
      get = this.operation({ returns: v.array(Widget) }, () => WIDGETS);
    }
    const { Items, Events } = await streamRoutes();
    class App extends BaseApp {
      async wire() {
        this.include(compress({ encodings: ['br', 'gzip'] })); // br 4, gzip 6, 1 KiB: its defaults
        this.includeEndpoint(new Widgets());
        this.includeEndpoint(new Items());
        this.includeEndpoint(new Events());
      }
    }
    const quiet = { info() {}, warn() {}, error: (m, e) => console.error(m, e) };
    await serve(new App({ logger: quiet }), { port, host: '127.0.0.1', quiet: true, signals: false });
  },
};

// ---------------------------------------------------------------- harness
function parseArgs(argv) {
  return {
    rounds: 5,
    duration: 4,
    warmup: 2,
    connections: 50,
    servers: ALL_SERVERS,
    codings: ALL_CODINGS,
    quietWaitMs: 60_000,
    build: true,
    out: join(BENCH, 'results'),
    only: undefined,
    streamRuns: 9,
    ...parseFlags(
      argv.filter((a) => a !== '--compress'),
      {
        '--rounds': ['rounds', 'number'],
        '--duration': ['duration', 'number'],
        '--warmup': ['warmup', 'number'],
        '--connections': ['connections', 'number'],
        '--servers': ['servers', 'list'],
        '--codings': ['codings', 'list'],
        '--quiet-wait': ['quietWaitMs', (v) => Number(v) * 1000],
        '--no-build': ['build', false],
        '--out': ['out', 'string'],
        '--only': ['only', 'string'],
        '--stream-runs': ['streamRuns', 'number'],
      },
    ),
  };
}

const startCompressServer = (name) => startServer({ name, script: SELF, args: ['--child', name] });

/** Every server must answer each coding with the same decoded list, the right content-encoding and vary. */
async function check(server) {
  const expected = JSON.stringify(WIDGETS);
  const { request } = await import('node:http');
  for (const coding of ALL_CODINGS) {
    const accept = ACCEPT[coding];
    const res = await new Promise((resolve, reject) => {
      request(`${server.url}/widgets`, { headers: accept ? { 'accept-encoding': accept } : {} }, (r) => {
        const chunks = [];
        r.on('data', (c) => chunks.push(c));
        r.on('end', () => resolve({ status: r.statusCode, headers: r.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    const encoding = res.headers['content-encoding'];
    const decoded =
      encoding === 'br'
        ? brotliDecompressSync(res.body)
        : encoding === 'gzip'
          ? gunzipSync(res.body)
          : res.body;
    const want = coding === 'identity' ? undefined : coding;
    if (res.status !== 200 || encoding !== want || decoded.toString() !== expected)
      throw new Error(
        `${server.name}: GET /widgets (${coding}) answered ${res.status} ${encoding} ${decoded.length} bytes`,
      );
    // (@api also sends it on the identity answer, which could have been compressed; Fastify does not.)
    if (want !== undefined && !/accept-encoding/i.test(res.headers.vary ?? ''))
      throw new Error(`${server.name}: GET /widgets (${coding}) has no vary: accept-encoding`);
  }
  return Buffer.byteLength(expected);
}

const load = (server, coding, seconds, opts) =>
  wrk({
    url: `${server.url}/widgets`,
    seconds,
    connections: opts.connections,
    headers: ACCEPT[coding] ? [`accept-encoding: ${ACCEPT[coding]}`] : [],
  });

async function timed(server, coding, opts) {
  resetPeakRss(server.pid);
  const before = readProcTicks(server.pid).self;
  const w = await load(server, coding, opts.duration, opts);
  const ticks = readProcTicks(server.pid).self - before;
  const seconds = w.duration_us / 1e6;
  return {
    server: server.name,
    coding,
    requests: w.requests,
    rps: w.requests / seconds,
    bytesPerReq: w.bytes / w.requests,
    cpuUsPerReq: ((ticks / CLK_TCK) * 1e6) / w.requests,
    cpuUtil: ticks / CLK_TCK / seconds,
    p50Us: w.latency_us.p50,
    p99Us: w.latency_us.p99,
    peakRssKb: readMem(server.pid).hwmKb,
    errors: w.errors.status + socketErrors(w),
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  requireLinuxTwoCores();
  ensureWrk();
  if (opts.build && (opts.servers.includes('api') || opts.only === 'streams'))
    turboBuild(['@api/compress...', '@api/streaming...'], '@api/core, @api/compress and @api/streaming');
  pinSelf();
  try {
    if (opts.only !== 'streams') await listBench(opts);
    if (opts.only !== 'list') await streamBench(opts, () => startCompressServer('api'));
  } finally {
    stopAll();
  }
}

/** The 10 KiB list under wrk, @api against Fastify, per coding. */
async function listBench(opts) {
  const loadBefore = os.loadavg();
  const servers = [];
  let listBytes = 0;
  try {
    for (const name of opts.servers) {
      const s = await startCompressServer(name);
      servers.push(s);
      listBytes = await check(s);
    }
    for (const s of servers) for (const coding of opts.codings) await load(s, coding, opts.warmup, opts);
    const samples = [];
    for (let round = 0; round < opts.rounds; round++) {
      for (const coding of rotated(opts.codings, round)) {
        for (const s of rotated(servers, round)) {
          const machine = await waitQuietMachine(
            servers.map((x) => x.pid),
            opts.quietWaitMs,
          );
          const sample = {
            round,
            quietBefore: machine.quiet,
            otherLoadBefore: machine.other,
            ...(await timed(s, coding, opts)),
          };
          samples.push(sample);
          console.log(
            `r${round + 1} ${coding.padEnd(8)} ${s.name.padEnd(8)} ${int(sample.rps).padStart(7)} req/s  ` +
              `${int(sample.bytesPerReq).padStart(6)} B/resp  cpu ${sample.cpuUsPerReq.toFixed(1)} µs/req (${(sample.cpuUtil * 100).toFixed(0)}%)  ` +
              `p99 ${(sample.p99Us / 1000).toFixed(2)} ms` +
              (sample.errors ? `  [errors ${sample.errors}]` : '') +
              (sample.quietBefore
                ? ''
                : `  [machine busy before: ${(sample.otherLoadBefore * 100).toFixed(0)}%]`),
          );
          await sleep(200);
        }
      }
    }
    const rows = [];
    const ratios = {};
    for (const coding of opts.codings) {
      const by = {};
      for (const s of servers) {
        const mine = samples.filter((x) => x.server === s.name && x.coding === coding);
        by[s.name] = {
          coding,
          server: s.name,
          rps: median(mine.map((x) => x.rps)),
          bytesPerReq: median(mine.map((x) => x.bytesPerReq)),
          cpuUsPerReq: median(mine.map((x) => x.cpuUsPerReq)),
          p99Us: median(mine.map((x) => x.p99Us)),
          peakRssKb: Math.max(...mine.map((x) => x.peakRssKb)),
          errors: mine.reduce((t, x) => t + x.errors, 0),
        };
        rows.push(by[s.name]);
      }
      if (by.api && by.fastify)
        ratios[coding] = {
          rps: by.api.rps / by.fastify.rps,
          cpu: by.api.cpuUsPerReq / by.fastify.cpuUsPerReq,
        };
    }
    const meta = {
      ...runMeta(loadBefore),
      rounds: opts.rounds,
      duration: opts.duration,
      connections: opts.connections,
      listBytes,
      fastifyCompress: packageVersion('@fastify/compress'),
    };
    const base = join(opts.out, `compress-${fileStamp(meta.date)}`);
    const md = [
      `# Dynamic compression: @api/compress vs @fastify/compress ${meta.fastifyCompress} on Fastify (${meta.date})`,
      '',
      `\`GET /widgets\`: a ${(listBytes / 1024).toFixed(1)} KiB JSON list (64 widgets, serialized from a schema by each framework),`,
      `requested with \`Accept-Encoding: br\`, \`gzip\`, or none (identity); brotli quality 4, gzip level 6, threshold 1 KiB on both.`,
      `wrk -t1 -c${opts.connections}, ${opts.rounds} interleaved rounds × ${opts.duration} s; servers on core ${SERVER_CORE}, wrk on core ${LOAD_CORE}.`,
      `Node ${meta.node}, ${meta.cpu}. Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')};`,
      `${samples.filter((x) => x.quietBefore).length}/${samples.length} samples started on a quiet machine (other load ≤ 10%).`,
      'Server CPU per request counts every thread of the server process (zlib work on the thread pool included).',
      '',
      '| coding | server | req/s | bytes/response | server CPU µs/req | p99 ms | peak RSS MB | errors |',
      '|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.coding} | ${r.server} | ${int(r.rps)} | ${int(r.bytesPerReq)} | ${r.cpuUsPerReq.toFixed(1)} | ${(r.p99Us / 1000).toFixed(2)} | ${(r.peakRssKb / 1024).toFixed(0)} | ${r.errors} |`,
      ),
      '',
      'Ratios @api/Fastify (req/s higher is better, CPU per request lower is better): ' +
        Object.entries(ratios)
          .map(([coding, r]) => `${coding} req/s **${r2(r.rps)}**, CPU **${r2(r.cpu)}**`)
          .join('; ') +
        '.',
      '',
    ].join('\n');
    writeResults(base, { meta, rows, ratios, samples }, md);
    console.log(
      `compress: ${Object.entries(ratios)
        .map(([coding, r]) => `${coding} api/fastify req/s ${r2(r.rps)} cpu ${r2(r.cpu)}`)
        .join('; ')} → ${base}.md`,
    );
  } finally {
    await Promise.all(servers.map(stopServer));
  }
}

// ---------------------------------------------------------------- entry
if (process.argv[2] === '--child') {
  await SERVERS[process.argv[3]](Number(process.env.PORT));
  console.log('ready');
} else await main();
