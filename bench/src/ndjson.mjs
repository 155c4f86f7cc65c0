#!/usr/bin/env node
// NDJSON throughput: @api/streaming (NDJSONStreamingResponse: each item validated, then written by
// its compiled serializer) against Fastify writing the same lines by hand (reply.hijack() +
// JSON.stringify + reply.raw.write, drain awaited) and raw node:http doing the same. Every server
// streams `GET /lines?n=N` from the same async generator. Interleaved rounds, servers pinned to
// core 0, wrk and this harness to core 1; bodies checked byte for byte before timing.
// Writes results/ndjson-<timestamp>.{md,json}.
// Usage: pnpm --filter @api/bench ndjson [--lines 100] [--rounds 5] [--duration 4] [--warmup 2]
//          [--connections 50] [--servers raw,fastify,api] [--no-build] [--out DIR]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './report.mjs';
import { CLK_TCK, cpuModel, has, readCpu, readMem, readProcTicks, resetPeakRss, sleep } from './sys.mjs';

const BENCH = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(BENCH, '..');
const SELF = fileURLToPath(import.meta.url);
const SERVER_CORE = '0';
const LOAD_CORE = '1';
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
      { schema: { querystring: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'] } } },
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
    const Item = Struct('Item', { id: v.number(), name: v.string(), priceCents: v.number(), inStock: v.boolean() });
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

// ---------------------------------------------------------------- machine load
/**
 * Waits (up to `maxMs`) until both cores are quiet: busy ticks on each core, minus this harness's
 * and `pids`' own, ≤ 10% over a 500 ms sample. Resolves with the last sample's other load.
 */
async function waitQuiet(pids = [], maxMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const ticks = () => [process.pid, ...pids].reduce((t, pid) => t + (readProcTicks(pid)?.self ?? 0), 0);
    const a = readCpu();
    const ownA = ticks();
    const at = process.hrtime.bigint();
    await sleep(500);
    const b = readCpu();
    const own = ticks() - ownA;
    const wall = (Number(process.hrtime.bigint() - at) / 1e9) * CLK_TCK;
    const other = Math.max(0, b[SERVER_CORE].busy - a[SERVER_CORE].busy + b[LOAD_CORE].busy - a[LOAD_CORE].busy - own) / (2 * wall);
    if (other <= 0.1) return { quiet: true, other };
    if (Date.now() - started > maxMs) return { quiet: false, other };
    console.log(`  machine busy (other load ${(other * 100).toFixed(0)}% of both cores), waiting…`);
    await sleep(2000);
  }
}

// ---------------------------------------------------------------- harness
function parseArgs(argv) {
  const o = {
    lines: 100,
    rounds: 5,
    duration: 4,
    warmup: 2,
    connections: 50,
    servers: ALL,
    build: true,
    out: join(BENCH, 'results'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => Number(argv[++i]);
    if (a === '--lines') o.lines = num();
    else if (a === '--rounds') o.rounds = num();
    else if (a === '--duration') o.duration = num();
    else if (a === '--warmup') o.warmup = num();
    else if (a === '--connections') o.connections = num();
    else if (a === '--servers') o.servers = argv[++i].split(',');
    else if (a === '--no-build') o.build = false;
    else if (a === '--out') o.out = argv[++i];
    else if (a === '--') continue;
    else {
      console.error(`unknown option ${a}`);
      process.exit(2);
    }
  }
  return o;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startServer(name) {
  const port = await freePort();
  const child = spawn('taskset', ['-c', SERVER_CORE, process.execPath, SELF, '--child', name], {
    cwd: BENCH,
    env: { ...process.env, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      if (/^ready$/m.test(buf)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before "ready"`)));
  });
  return { name, port, pid: child.pid, child, url: `http://127.0.0.1:${port}` };
}

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

function wrk(server, seconds, lines, connections) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'taskset',
      ['-c', LOAD_CORE, 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '5s', '-s', join(BENCH, 'src/wrk.lua'), `${server.url}/lines?n=${lines}`],
      { env: { ...process.env, BENCH_METHOD: 'GET', BENCH_BODY: '', BENCH_AUTH: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('WRKJSON '));
      if (code !== 0 || !line) reject(new Error(`wrk failed (${code}): ${err || out}`));
      else resolve(JSON.parse(line.slice(8)));
    });
  });
}

async function timed(server, opts) {
  resetPeakRss(server.pid);
  const before = readProcTicks(server.pid).self;
  const w = await wrk(server, opts.duration, opts.lines, opts.connections);
  const ticks = readProcTicks(server.pid).self - before;
  const seconds = w.duration_us / 1e6;
  const socketErrors = w.errors.connect + w.errors.read + w.errors.write + w.errors.timeout;
  return {
    server: server.name,
    requests: w.requests,
    rps: w.requests / seconds,
    linesPerSec: (w.requests * opts.lines) / seconds,
    mbPerSec: w.bytes / seconds / 1e6,
    cpuUsPerReq: ((ticks / CLK_TCK) * 1e6) / w.requests,
    cpuUtil: ticks / CLK_TCK / seconds,
    p50Us: w.latency_us.p50,
    p99Us: w.latency_us.p99,
    peakRssKb: readMem(server.pid).hwmKb,
    errors: w.errors.status + socketErrors,
  };
}

const r2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (os.platform() !== 'linux' || os.cpus().length < 2) throw new Error('Linux with 2 cores needed (reads /proc, pins with taskset)');
  if (!has('wrk')) {
    const r = spawnSync('sh', ['-c', 'apt-get update && apt-get install -y wrk'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('could not install wrk');
  }
  if (opts.build && opts.servers.includes('api')) {
    console.log('building @api/core and @api/streaming: turbo run build --filter=@api/streaming...');
    const r = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@api/streaming...', '--output-logs=errors-only'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('build failed');
  }
  execFileSync('taskset', ['-a', '-p', '-c', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });
  const loadBefore = os.loadavg();
  const servers = [];
  try {
    for (const name of opts.servers) {
      const s = await startServer(name);
      servers.push(s);
      await check(s);
    }
    for (const s of servers) await wrk(s, opts.warmup, opts.lines, opts.connections);
    const samples = [];
    for (let round = 0; round < opts.rounds; round++) {
      const order = servers.map((_, i) => servers[(i + round) % servers.length]);
      for (const s of order) {
        const machine = await waitQuiet(servers.map((x) => x.pid));
        const sample = { round, quietBefore: machine.quiet, otherLoadBefore: machine.other, ...(await timed(s, opts)) };
        samples.push(sample);
        console.log(
          `r${round + 1} ${s.name.padEnd(8)} ${int(sample.rps).padStart(7)} req/s  ${int(sample.linesPerSec).padStart(9)} lines/s  ` +
            `cpu ${sample.cpuUsPerReq.toFixed(1)} µs/req (${(sample.cpuUtil * 100).toFixed(0)}%)  p99 ${(sample.p99Us / 1000).toFixed(2)} ms` +
            (sample.errors ? `  [errors ${sample.errors}]` : '') +
            (sample.quietBefore ? '' : `  [machine busy before: ${(sample.otherLoadBefore * 100).toFixed(0)}%]`),
        );
        await sleep(200);
      }
    }
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
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpuModel(),
      loadavgBefore: loadBefore,
      loadavgAfter: os.loadavg(),
      lines: opts.lines,
      rounds: opts.rounds,
      duration: opts.duration,
      connections: opts.connections,
    };
    mkdirSync(opts.out, { recursive: true });
    const base = join(opts.out, `ndjson-${meta.date.replace(/[:.]/g, '-').replace(/-\d+Z$/, 'Z')}`);
    writeFileSync(`${base}.json`, `${JSON.stringify({ meta, rows, ratios, samples }, null, 2)}\n`);
    const md = [
      `# NDJSON throughput: @api/streaming vs Fastify by hand vs raw node:http (${meta.date})`,
      '',
      `\`GET /lines?n=${opts.lines}\`: ${opts.lines} lines of \`{id, name, priceCents, inStock}\` per response from one async`,
      `generator; wrk -t1 -c${opts.connections}, ${opts.rounds} interleaved rounds × ${opts.duration} s; servers on core ${SERVER_CORE},`,
      `wrk on core ${LOAD_CORE}. Node ${meta.node}, ${meta.cpu}. Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')};`,
      `${samples.filter((x) => x.quietBefore).length}/${samples.length} samples started on a quiet machine (other load ≤ 10%).`,
      '@api validates every item (core\'s compiled validator) and writes it with its compiled serializer; Fastify and raw call',
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
    writeFileSync(`${base}.md`, md);
    console.log(
      `ndjson: api/fastify req/s ${r2(ratios.rpsApiVsFastify)} cpu ${r2(ratios.cpuApiVsFastify)}; api/raw req/s ${r2(ratios.rpsApiVsRaw)} cpu ${r2(ratios.cpuApiVsRaw)} → ${base}.md`,
    );
  } finally {
    for (const s of servers) s.child.kill('SIGKILL');
  }
}

// ---------------------------------------------------------------- entry
if (process.argv[2] === '--child') {
  await SERVERS[process.argv[3]](Number(process.env.PORT));
  console.log('ready');
} else await main();
