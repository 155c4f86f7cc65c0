#!/usr/bin/env node
// NDJSON throughput: @api/streaming (NDJSONStreamingResponse: each item validated, then written by
// its compiled serializer) against Fastify writing the same lines by hand (reply.hijack() +
// JSON.stringify + reply.raw.write, drain awaited) and raw node:http doing the same. Every server
// streams `GET /lines?n=N` from the same async generator. Interleaved rounds, servers pinned to
// core 0, wrk and this harness to core 1; bodies checked byte for byte before timing.
// Writes results/ndjson-<timestamp>.{md,json}.
// Usage: pnpm --filter @api/bench ndjson [--lines 100] [--rounds 5] [--duration 4] [--warmup 2]
//          [--connections 50] [--servers raw,fastify,api] [--no-build] [--out DIR]
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './report.mjs';
import {
  childOrMain,
  ensureWrk,
  fileStamp,
  int,
  LOAD_CORE,
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
const ALL = ['raw', 'fastify', 'api'];

// ---------------------------------------------------------------- child mode: one server
/** The shared source: N widget-like items, produced asynchronously like a cursor would. */
async function* items(n) {
  for (let i = 0; i < n; i++) yield { id: i, name: `widget-${i}`, priceCents: i * 7, inStock: i % 3 !== 0 };
}

function count(url) {
  const q = url.indexOf('?');
  const n = q < 0 ? NaN : Number(new URLSearchParams(url.slice(q + 1)).get('n'));
  return Number.isInteger(n) && n >= 0 && n <= 100_000 ? n : undefined;
}

async function writeByHand(res, n) {
  for await (const item of items(n)) {
    if (!res.write(`${JSON.stringify(item)}\n`)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

const SERVERS = {
  async raw(port) {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      const n = req.url.startsWith('/lines') ? count(req.url) : undefined;
      if (n === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      writeByHand(res, n).catch(() => res.destroy());
    });
    await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  },
  async fastify(port) {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ logger: false });
    app.get(
      '/lines',
      {
        schema: {
          querystring: {
            type: 'object',
            properties: { n: { type: 'integer', minimum: 0 } },
            required: ['n'],
          },
        },
      },
      (request, reply) => {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson' });
        writeByHand(reply.raw, request.query.n).catch(() => reply.raw.destroy());
      },
    );
    await app.listen({ port, host: '127.0.0.1' });
  },
  async api(port) {
    const v = await import('valibot');
    const { BaseApp, Endpoint, Struct, serve } = await import('@api/core');
    const { NDJSONStreamingResponse } = await import('@api/streaming');
    const Item = Struct('Item', {
      id: v.number(),
      name: v.string(),
      priceCents: v.number(),
      inStock: v.boolean(),
    });
    const Query = Struct('Query', { n: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100_000)) });
    class Lines extends Endpoint('/lines') {
      get = this.operation({ params: Query, returns: NDJSONStreamingResponse.of(Item) }, ({ params }) => {
        return new NDJSONStreamingResponse({ stream: items(params.n) });
      });
    }
    class App extends BaseApp {
      async wire() {
        this.includeEndpoint(new Lines());
      }
    }
    const quiet = { info() {}, warn() {}, error: (m, e) => console.error(m, e) };
    await serve(new App({ logger: quiet }), { port, host: '127.0.0.1', quiet: true, signals: false });
  },
};

// ---------------------------------------------------------------- harness
function parseArgs(argv) {
  return sideBySideArgs(argv, {
    servers: ALL,
    defaults: { lines: 100 },
    flags: { '--lines': ['lines', 'number'] },
  });
}

const startNdjsonServer = (name) => startServer({ name, script: SELF, args: ['--child', name] });

/** The body every server must send for ?n=3, byte for byte. */
async function check(server) {
  const expected = [];
  for await (const item of items(3)) expected.push(`${JSON.stringify(item)}\n`);
  const res = await fetch(`${server.url}/lines?n=3`);
  const body = await res.text();
  const type = res.headers.get('content-type');
  if (res.status !== 200 || type !== 'application/x-ndjson' || body !== expected.join(''))
    throw new Error(`${server.name}: /lines?n=3 answered ${res.status} ${type} ${JSON.stringify(body)}`);
}

/** One wrk run of `GET /lines?n=<lines>`. */
const load = (server, seconds, opts) =>
  wrk({ url: `${server.url}/lines?n=${opts.lines}`, seconds, connections: opts.connections, timeout: '5s' });

async function timed(server, opts) {
  const sample = await timedWrk(server, {
    url: `${server.url}/lines?n=${opts.lines}`,
    seconds: opts.duration,
    connections: opts.connections,
    timeout: '5s',
  });
  return {
    ...sample,
    linesPerSec: (sample.requests * opts.lines) / sample.seconds,
    mbPerSec: sample.bytes / sample.seconds / 1e6,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  requireLinuxTwoCores();
  ensureWrk();
  if (opts.build && opts.servers.includes('api'))
    turboBuild(['@api/streaming...'], '@api/core and @api/streaming');
  pinSelf();
  const loadBefore = os.loadavg();
  const servers = [];
  try {
    for (const name of opts.servers) {
      const s = await startNdjsonServer(name);
      servers.push(s);
      await check(s);
    }
    const samples = await sideBySideRounds({
      servers,
      opts,
      warm: (s, seconds) => load(s, seconds, opts),
      timed: (s) => timed(s, opts),
      line: (sample) =>
        `${sample.server.padEnd(8)} ${rpsText(sample)}  ${int(sample.linesPerSec).padStart(9)} lines/s`,
    });
    const rows = {};
    for (const s of servers) {
      const mine = samples.filter((x) => x.server === s.name);
      rows[s.name] = {
        rps: median(mine.map((x) => x.rps)),
        linesPerSec: median(mine.map((x) => x.linesPerSec)),
        cpuUsPerReq: median(mine.map((x) => x.cpuUsPerReq)),
        cpuUsPerLine: median(mine.map((x) => x.cpuUsPerReq)) / opts.lines,
        p99Us: median(mine.map((x) => x.p99Us)),
        peakRssKb: Math.max(...mine.map((x) => x.peakRssKb)),
        errors: mine.reduce((t, x) => t + x.errors, 0),
      };
    }
    const ratio = (a, b, key) => (rows[a] && rows[b] ? rows[a][key] / rows[b][key] : NaN);
    const ratios = {
      rpsApiVsFastify: ratio('api', 'fastify', 'rps'),
      cpuApiVsFastify: ratio('api', 'fastify', 'cpuUsPerReq'),
      rpsApiVsRaw: ratio('api', 'raw', 'rps'),
      cpuApiVsRaw: ratio('api', 'raw', 'cpuUsPerReq'),
    };
    const meta = {
      ...runMeta(loadBefore),
      lines: opts.lines,
      rounds: opts.rounds,
      duration: opts.duration,
      connections: opts.connections,
    };
    const base = join(opts.out, `ndjson-${fileStamp(meta.date)}`);
    const md = [
      `# NDJSON throughput: @api/streaming vs Fastify by hand vs raw node:http (${meta.date})`,
      '',
      `\`GET /lines?n=${opts.lines}\`: ${opts.lines} lines of \`{id, name, priceCents, inStock}\` per response from one async`,
      `generator; wrk -t1 -c${opts.connections}, ${opts.rounds} interleaved rounds × ${opts.duration} s; servers on core ${SERVER_CORE},`,
      `wrk on core ${LOAD_CORE}. Node ${meta.node}, ${meta.cpu}. Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')};`,
      `${samples.filter((x) => x.quietBefore).length}/${samples.length} samples started on a quiet machine (other load ≤ 10%).`,
      "@api validates every item (core's compiled validator) and writes it with its compiled serializer; Fastify and raw call",
      '`JSON.stringify` and `res.write` by hand, awaiting `drain` when a write returns false.',
      '',
      '| server | req/s | lines/s | server CPU µs/req | CPU µs/line | p99 ms | peak RSS MB | errors |',
      '|---|---|---|---|---|---|---|---|',
      ...Object.entries(rows).map(
        ([name, r]) =>
          `| ${name} | ${int(r.rps)} | ${int(r.linesPerSec)} | ${r.cpuUsPerReq.toFixed(1)} | ${r.cpuUsPerLine.toFixed(3)} | ${(r.p99Us / 1000).toFixed(2)} | ${(r.peakRssKb / 1024).toFixed(0)} | ${r.errors} |`,
      ),
      '',
      `Ratios: req/s @api/Fastify **${r2(ratios.rpsApiVsFastify)}**, CPU per request @api/Fastify **${r2(ratios.cpuApiVsFastify)}**;`,
      `req/s @api/raw ${r2(ratios.rpsApiVsRaw)}, CPU per request @api/raw ${r2(ratios.cpuApiVsRaw)}.`,
      '',
    ].join('\n');
    writeResults(base, { meta, rows, ratios, samples }, md);
    console.log(
      `ndjson: api/fastify req/s ${r2(ratios.rpsApiVsFastify)} cpu ${r2(ratios.cpuApiVsFastify)}; api/raw req/s ${r2(ratios.rpsApiVsRaw)} cpu ${r2(ratios.cpuApiVsRaw)} → ${base}.md`,
    );
  } finally {
    stopAll();
  }
}

// ---------------------------------------------------------------- entry
await childOrMain((name, port) => SERVERS[name](port), main);
