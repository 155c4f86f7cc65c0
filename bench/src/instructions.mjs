#!/usr/bin/env node
// Instructions per request, counted by valgrind (callgrind), not timed: the same binary and inputs
// give nearly the same count whatever else the machine is doing, so two versions can be compared
// on a busy or noisy machine where req/s and CPU time swing by ±30%.
//
// Each server runs under `valgrind --tool=callgrind --instr-atstart=no` with V8 in one thread
// (`--single-threaded`, so its compiler and GC work is counted and can be set apart). A fixed
// warm-up runs uninstrumented, then instrumentation goes on for `--windows` windows of exactly N
// requests each from a keep-alive client (8 connections), dumped one by one. Reported per request:
// the median of the second half of the windows ("steady": the number to compare), the parts of it
// in V8's compilers and in its GC, and every window. Turning instrumentation on is itself a
// disturbance: the process runs many times slower, V8's time-driven heuristics fire, and the first
// ~3,000 instrumented requests carry recompilation (on every server alike, ~130k instructions per
// request in the first window, whether the warm-up was 20,000 or 60,000 requests). The counts
// settle from the fourth window on; a single 2,000-request window right after switching on (this
// script before 2026-11-26) measured mostly that burst.
//
// Usage: pnpm --filter @api/bench instructions [--servers raw,api] [--scenario movies]
//          [--warmup 20000] [--requests 1000] [--windows 8] [--before checks,mixed] [--cache-sim] [--no-build]
// `--cache-sim` also simulates the caches and branch predictors (callgrind's --cache-sim=yes
// --branch-sim=yes: a 2-level cache like the host's): L1 and last-level misses and mispredicted
// branches per request, what an instruction count leaves out of "how long". About twice as slow.
// `--before` replays a history before the warm-up: `checks` (pnpm bench's 19 checks, as its
// standalone phase does first), `mixed` (2,000 requests of every scenario, as the co-runs do).
// `--rate-limit` counts the rate-limit bench's servers instead (rate-limit.mjs: fastify-none,
// fastify-memory, fastify-redis, api-none, api-memory, api-redis; `--servers` picks among them) on
// their `GET /limited` route, with one redis-server (a separate process, not counted) for the
// -redis ones, and prints what each store adds over its framework's baseline and the ratio
// (api-X − api-none) / (fastify-X − fastify-none).
// Needs valgrind (Debian: apt-get install -y valgrind); about 1–2 minutes per server.
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedis } from './redis-server.mjs';
import { SCENARIOS, runChecks } from './scenarios.mjs';
import { argOf, BENCH, freePort, turboBuild } from './harness/index.mjs';

const argv = process.argv.slice(2);
const RATE_LIMIT = argv.includes('--rate-limit');
const RATE_LIMIT_SERVERS = [
  'fastify-none',
  'fastify-memory',
  'fastify-redis',
  'api-none',
  'api-memory',
  'api-redis',
];
const servers = argOf(argv, 'servers', RATE_LIMIT ? RATE_LIMIT_SERVERS.join(',') : 'raw,api').split(',');
const LIMITED = {
  name: 'limited',
  label: 'GET /limited (rate-limit.mjs servers)',
  method: 'GET',
  path: '/limited',
  expect: 200,
};
const scenario = RATE_LIMIT ? LIMITED : SCENARIOS.find((s) => s.name === argOf(argv, 'scenario', 'movies'));
if (RATE_LIMIT && servers.some((s) => !RATE_LIMIT_SERVERS.includes(s)))
  throw new Error(`--rate-limit: servers are among ${RATE_LIMIT_SERVERS.join(', ')}`);
const WARMUP = Number(argOf(argv, 'warmup', 20_000));
const REQUESTS = Number(argOf(argv, 'requests', 1_000));
const WINDOWS = Number(argOf(argv, 'windows', 8));
const BEFORE = argOf(argv, 'before', '').split(',').filter(Boolean);
const CACHE_SIM = argv.includes('--cache-sim');
if (!scenario) throw new Error(`unknown scenario; one of ${SCENARIOS.map((s) => s.name).join(', ')}`);
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('instructions: valgrind is missing. Run: apt-get install -y valgrind');
  process.exit(1);
}
// `--no-build`: measure the dist as it is (a baseline kept while the sources change).
if (!argv.includes('--no-build')) turboBuild(['@api/bench^...'], 'the @api packages');
const redis = RATE_LIMIT && servers.some((s) => s.endsWith('-redis')) ? await startRedis() : undefined;
process.once('exit', () => redis?.stop()); // also when a server fails to start

/** Sends `n` requests of `scenario` over 8 keep-alive connections; resolves with non-matching statuses. */
function load(port, n, scenario) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const body = scenario.body === undefined ? undefined : JSON.stringify(scenario.body);
  const headers = {};
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  if (scenario.auth) headers.authorization = scenario.auth;
  let sent = 0;
  let done = 0;
  let unexpected = 0;
  let resets = 0;
  return new Promise((resolve, reject) => {
    const one = () => {
      if (sent >= n) return;
      sent++;
      const req = http.request(
        { port, host: '127.0.0.1', method: scenario.method, path: scenario.path, agent, headers },
        (res) => {
          if (res.statusCode !== scenario.expect) unexpected++;
          res.resume();
          res.on('end', () => {
            if (++done === n) {
              agent.destroy();
              resolve(unexpected);
            } else one();
          });
        },
      );
      req.on('error', (error) => {
        // A keep-alive socket the server closed while idle (valgrind slows it past its timeouts)
        // resets the request sent on it: sent again on a fresh socket, a few times at most.
        if (error.code !== 'ECONNRESET' || ++resets > 50) return reject(error);
        sent--;
        one();
      });
      req.end(body);
    };
    for (let i = 0; i < 8; i++) one();
  });
}

const callgrindControl = (pid, flag) =>
  spawnSync('callgrind_control', [flag, String(pid)], { stdio: 'ignore' });

const COMPILER =
  /compiler::|maglev::|Maglev|Compile|Turbofan|turboshaft|Zone|Scheduler|RegisterAllocat|InstructionSelector/;
const GC =
  /Heap::|Scavenge|MarkCompact|Sweeper|Marking|Evacuat|MemoryAllocator|heap::|GCTracer|PagedSpace|NewSpace/;

/** Self cost per function from a callgrind dump, split into V8's compilers, its GC and the rest. */
function split(file) {
  const out = spawnSync('callgrind_annotate', ['--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  }).stdout;
  let total = 0;
  let compiler = 0;
  let gc = 0;
  let events = {};
  const names = /^Events shown:\s+(.*)$/m.exec(out)?.[1].trim().split(/\s+/) ?? ['Ir'];
  for (const line of out.split('\n')) {
    const m = /^\s*([\d,]+)\s+\(/.exec(line);
    if (!m) continue;
    const n = Number(m[1].replaceAll(',', ''));
    if (line.includes('PROGRAM TOTALS')) {
      total = n;
      const all = line
        .replace(/\([^)]*\)/g, '')
        .trim()
        .split(/\s+/);
      events = Object.fromEntries(
        names
          .map((k, i) => [k, Number((all[i] ?? '').replaceAll(',', ''))])
          .filter(([, v]) => Number.isFinite(v)),
      );
    } else if (COMPILER.test(line)) compiler += n;
    else if (GC.test(line)) gc += n;
  }
  return { total, compiler, gc, events };
}

async function measure(name) {
  const dir = mkdtempSync(join(tmpdir(), 'api-instr-'));
  const out = join(dir, 'callgrind.out');
  const port = await freePort();
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      ...(CACHE_SIM ? ['--cache-sim=yes', '--branch-sim=yes'] : []),
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--single-threaded',
      ...(RATE_LIMIT
        ? [join(BENCH, 'src', 'rate-limit.mjs'), '--child', name]
        : [join(BENCH, 'servers', `${name}.mjs`)]),
    ],
    {
      env: {
        ...process.env,
        PORT: String(port),
        NODE_ENV: 'production',
        ...(redis ? { REDIS_URL: redis.url } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => (String(d).includes('ready') ? resolve() : undefined));
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
  });
  if (BEFORE.includes('checks')) await runChecks(`http://127.0.0.1:${port}`);
  if (BEFORE.includes('mixed')) for (const other of SCENARIOS) await load(port, 2_000, other);
  await load(port, WARMUP, scenario);
  callgrindControl(child.pid, '--instr=on');
  let unexpected = 0;
  for (let w = 0; w < WINDOWS; w++) {
    unexpected += await load(port, REQUESTS, scenario);
    callgrindControl(child.pid, '-d'); // each dump holds the counts since the previous one
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  // The dumps are written: a server that does not stop within 20 s (a close waiting on a
  // connection) is killed rather than waited for.
  const stuck = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(stuck);
  const windows = [];
  for (let w = 1; w <= WINDOWS; w++) {
    const c = split(`${out}.${w}`);
    windows.push({
      total: c.total / REQUESTS,
      compiler: c.compiler / REQUESTS,
      gc: c.gc / REQUESTS,
      events: Object.fromEntries(Object.entries(c.events).map(([k, v]) => [k, v / REQUESTS])),
    });
  }
  rmSync(dir, { recursive: true, force: true });
  const settled = windows.slice(windows.length >> 1).sort((a, b) => a.total - b.total);
  const mid = settled[(settled.length - 1) >> 1];
  return { name, ...mid, windows, unexpected };
}

console.log(
  `instructions: ${scenario.label}, ${BEFORE.length ? `after ${BEFORE.join(' + ')}, ` : ''}${WARMUP.toLocaleString('en-US')} warm-up then ${WINDOWS} windows of ${REQUESTS.toLocaleString('en-US')} counted requests per server (steady: the median of the last ${WINDOWS - (WINDOWS >> 1)})`,
);
const rows = [];
const k = (x) => Math.round(x).toLocaleString('en-US').padStart(9);
for (const name of servers) {
  const row = await measure(name);
  rows.push(row);
  const note = row.unexpected ? ` (${row.unexpected} responses not ${scenario.expect})` : '';
  console.log(
    `${name.padEnd(12)} ${k(row.total)} per request (compilers ${k(row.compiler)}, GC ${k(row.gc)}); ` +
      `windows ${row.windows.map((w) => Math.round(w.total / 1000)).join(' ')} k${note}`,
  );
  if (CACHE_SIM) {
    const e = row.events;
    const f = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
    console.log(
      `${''.padEnd(12)} per request: L1 misses ${f(e.I1mr + e.D1mr + e.D1mw)} (instr ${f(e.I1mr)}, data ${f(e.D1mr + e.D1mw)}), ` +
        `last-level misses ${f(e.ILmr + e.DLmr + e.DLmw)}, mispredicted branches ${f(e.Bcm + e.Bim)} of ${f(e.Bc + e.Bi)}`,
    );
  }
}
redis?.stop();
if (RATE_LIMIT) {
  // What each store adds over its framework's own baseline, and @api's over Fastify's; also
  // without V8's compilers (a window that recompiles carries them: not a per-request cost).
  const count = (name, jit) => {
    const row = rows.find((r) => r.name === name);
    return row === undefined ? undefined : jit ? row.total : row.total - row.compiler;
  };
  for (const store of ['memory', 'redis'])
    for (const jit of [true, false]) {
      const added = {};
      for (const framework of ['api', 'fastify']) {
        const limited = count(`${framework}-${store}`, jit);
        const none = count(`${framework}-none`, jit);
        if (limited !== undefined && none !== undefined) added[framework] = limited - none;
      }
      if (added.api === undefined || added.fastify === undefined) continue;
      console.log(
        `${store}${jit ? '' : ' (without compilers)'}: api adds ${k(added.api).trim()}, fastify adds ${k(added.fastify).trim()}; ` +
          `(api-${store} − api-none) / (fastify-${store} − fastify-none) = ${(added.api / added.fastify).toFixed(3)}`,
      );
    }
} else {
  const base = rows[0];
  for (const row of rows.slice(1))
    console.log(`${row.name}/${base.name} ×${(row.total / base.total).toFixed(3)}`);
}
