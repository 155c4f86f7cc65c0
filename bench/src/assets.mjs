#!/usr/bin/env node
// @api/assets vs @fastify/static (disk) and a raw in-memory node:http server, on one ~22 KB CSS
// file: interleaved, pinned (servers on core 0, wrk and this harness on core 1), checked; then the
// startup cost of wiring 1,000 files. Writes results/assets-<date>.{md,json}.
// Usage: pnpm --filter @api/bench assets [--quick] [--rounds N] [--duration S] [--warmup S]
//          [--connections N] [--files N] [--repeat N] [--quiet-wait S] [--retries N]
//          [--no-startup] [--no-build] [--out DIR]
// On a shared machine, prefer many short rounds (`--rounds 12 --duration 2 --quiet-wait 3 --retries 0`) and read
// the paired ratios: each round's api sample divided by the same round's peer sample, median over rounds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aggregate, median } from './report.mjs';
import { CLK_TCK, cpuModel, readMem } from './sys.mjs';
import {
  BENCH,
  ensureWrk,
  fileStamp,
  int,
  interleavedRounds,
  measured,
  packageVersion,
  parseFlags,
  pct,
  pinSelf,
  r2,
  requireLinuxTwoCores,
  SERVER_CORE,
  socketErrors,
  startServer,
  stopAll,
  turboBuild,
  waitQuietCores,
  wrk,
  wrkVersion,
  writeResults,
} from './harness/index.mjs';

const WORK = join(BENCH, '.work', 'assets');
const SERVERS = ['api', 'fastify', 'raw'];
const PATH = '/assets/site.css';
const TARGETS = { 200: { fastify: 5, raw: 0.7 }, 304: { fastify: 3, raw: 0.7 } };

// ---------------------------------------------------------------- child mode: one startup measurement
if (process.argv[2] === '--child-startup') {
  const [, , , framework, dir] = process.argv;
  const t0 = performance.now();
  let wire;
  if (framework === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const { default: fastifyStatic } = await import('@fastify/static');
    wire = async () => {
      const app = Fastify({ logger: false });
      app.register(fastifyStatic, { root: dir, prefix: '/assets/' });
      await app.ready();
      return app;
    };
  } else {
    const { BaseApp } = await import('@api/core');
    const { assets } = await import('@api/assets');
    const gzip = framework !== 'api-no-gzip';
    wire = async () => {
      class App extends BaseApp {
        async wire() {
          this.include(assets({ directory: dir, gzip }));
        }
      }
      const app = new App({ logger: { info() {}, warn() {}, error() {} } });
      await app.start();
      return app;
    };
  }
  const t1 = performance.now();
  globalThis.gc();
  const heap0 = process.memoryUsage().heapUsed;
  const ext0 = process.memoryUsage().arrayBuffers;
  const app = await wire();
  const t2 = performance.now();
  globalThis.gc();
  const mem = process.memoryUsage();
  console.log(
    JSON.stringify({
      importMs: t1 - t0,
      wireMs: t2 - t1,
      heapKb: (mem.heapUsed - heap0) / 1024,
      buffersKb: (mem.arrayBuffers - ext0) / 1024,
      rssMb: mem.rss / 1024 / 1024,
      keep: typeof app,
    }),
  );
  process.exit(0);
}

// ---------------------------------------------------------------- re-render a saved run
if (process.argv[2] === '--from') {
  const file = process.argv[3];
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  const scenarios = [{ name: '200' }, { name: '304' }];
  const rows = aggregate(scenarios, Object.keys(saved.rows['200']), saved.samples);
  const verdicts = verdictsOf(scenarios, rows, saved.samples);
  writeFileSync(file, JSON.stringify({ ...saved, rows, verdicts }, null, 2));
  writeFileSync(
    file.replace(/\.json$/, '.md'),
    markdown(saved.meta, scenarios, rows, verdicts, saved.startup.dir, saved.startup.rows),
  );
  console.log(
    verdicts
      .map(
        (v) => `${v.scenario} api/${v.peer} paired ${v.pairedMedian.toFixed(2)} cpu ${v.cpuRatio.toFixed(2)}`,
      )
      .join('\n'),
  );
  process.exit(0);
}

// ---------------------------------------------------------------- options
function parseArgs(argv) {
  const o = parseFlags(argv, {
    '--quick': ['quick', true],
    '--rounds': ['rounds', 'number'],
    '--duration': ['duration', 'number'],
    '--warmup': ['warmup', 'number'],
    '--connections': ['connections', 'number'],
    '--files': ['files', 'number'],
    '--repeat': ['repeat', 'number'],
    '--quiet-wait': ['quietMaxWaitMs', (v) => Number(v) * 1000],
    '--retries': ['retries', 'number'],
    '--no-startup': ['startup', false],
    '--no-build': ['build', false],
    '--out': ['out', 'string'],
  });
  const d = o.quick
    ? { rounds: 2, duration: 2, warmup: 1, quietSampleMs: 300, quietMaxWaitMs: 5_000, retries: 1, repeat: 1 }
    : {
        rounds: 6,
        duration: 4,
        warmup: 2,
        quietSampleMs: 1000,
        quietMaxWaitMs: 60_000,
        retries: 3,
        repeat: 3,
      };
  return {
    ...d,
    quick: false,
    connections: 50,
    files: 1000,
    startup: true,
    build: true,
    threshold: 0.1,
    out: join(BENCH, 'results'),
    ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
  };
}
const opts = parseArgs(process.argv.slice(2));
const log = (...a) => console.log(...a);
const notes = [];
const note = (s) => {
  notes.push(s);
  log(`note: ${s}`);
};

// ---------------------------------------------------------------- fixtures
/** A small deterministic PRNG, so every run serves the same bytes. */
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const WORDS = [
  'card',
  'nav',
  'grid',
  'btn',
  'header',
  'footer',
  'list',
  'item',
  'modal',
  'form',
  'input',
  'badge',
  'alert',
  'table',
  'row',
  'col',
  'panel',
  'menu',
  'tab',
  'tooltip',
];
const PROPS = [
  ['margin', () => `${pick([0, 4, 8, 12, 16, 24])}px ${pick([0, 8, 16, 'auto'])}`],
  ['padding', () => `${pick([2, 4, 6, 8, 12])}px ${pick([4, 8, 12, 16])}px`],
  [
    'color',
    () =>
      `#${Math.floor(rand() * 0xffffff)
        .toString(16)
        .padStart(6, '0')}`,
  ],
  [
    'background-color',
    () =>
      `rgba(${pick([0, 17, 34, 255])}, ${pick([0, 51, 102, 204])}, ${pick([0, 68, 136, 255])}, ${pick([0.05, 0.1, 0.5, 1])})`,
  ],
  [
    'border',
    () =>
      `${pick([1, 2])}px solid #${Math.floor(rand() * 0xffffff)
        .toString(16)
        .padStart(6, '0')}`,
  ],
  ['border-radius', () => `${pick([2, 4, 6, 999])}px`],
  ['font-size', () => `${pick([0.75, 0.875, 1, 1.25, 1.5])}rem`],
  ['display', () => pick(['flex', 'block', 'inline-block', 'grid', 'none'])],
  ['line-height', () => String(pick([1.2, 1.4, 1.5, 1.6]))],
  ['transition', () => `${pick(['opacity', 'transform', 'color'])} ${pick([100, 150, 200])}ms ease-in-out`],
];
let rand = prng(1);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
function css(bytes, seed) {
  rand = prng(seed);
  let out = '/* bench stylesheet */\n';
  while (out.length < bytes) {
    const sel = `.${pick(WORDS)}-${pick(WORDS)}${rand() < 0.3 ? `:${pick(['hover', 'focus', 'active'])}` : ''}`;
    const decls = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => {
      const [p, v] = pick(PROPS);
      return `  ${p}: ${v()};`;
    });
    out += `${sel} {\n${decls.join('\n')}\n}\n`;
  }
  return out.slice(0, bytes);
}

function writeFixtures() {
  rmSync(WORK, { recursive: true, force: true });
  const site = join(WORK, 'site');
  mkdirSync(site, { recursive: true });
  writeFileSync(join(site, 'site.css'), css(22 * 1024, 7));
  const many = join(WORK, `files-${opts.files}`);
  for (let i = 0; i < opts.files; i++) {
    const kind = i % 10;
    const sub = join(many, `d${i % 20}`);
    mkdirSync(sub, { recursive: true });
    rand = prng(1000 + i);
    if (kind < 4) writeFileSync(join(sub, `f${i}.css`), css(2048 + Math.floor(rand() * 4096), i));
    else if (kind < 7)
      writeFileSync(join(sub, `f${i}.js`), css(2048 + Math.floor(rand() * 6144), i).replace(/[{}]/g, ';'));
    else if (kind < 9)
      writeFileSync(
        join(sub, `f${i}.svg`),
        `<svg xmlns="http://www.w3.org/2000/svg">${'<rect x="1" y="2" width="3" height="4"/>'.repeat(20 + (i % 50))}</svg>`,
      );
    else
      writeFileSync(
        join(sub, `f${i}.png`),
        Buffer.from(Array.from({ length: 1024 + (i % 3072) }, () => Math.floor(rand() * 256))),
      );
  }
  return { site, many };
}

// ---------------------------------------------------------------- servers
const startAssetsServer = (name, dir) =>
  startServer({
    name,
    script: join(BENCH, 'servers', `assets-${name}.mjs`),
    env: { HOST: '127.0.0.1', ASSETS_DIR: dir },
  });

/** A GET with exactly `headers` (no client defaults such as fetch's Accept-Encoding). */
function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks = [];
        res.on('data', (d) => chunks.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

/** Checks a server's 200 and 304 and returns its ETag (each server uses its own in the 304 scenario). */
async function check(server, expected) {
  const failures = [];
  const res = await get(server.url + PATH);
  const etag = res.headers.etag;
  if (res.status !== 200) failures.push(`GET ${PATH}: status ${res.status}`);
  if (!res.body.equals(expected)) failures.push(`GET ${PATH}: body differs from the file`);
  if (!/^text\/css/.test(res.headers['content-type'] ?? ''))
    failures.push(`content-type ${res.headers['content-type']}`);
  if (!etag) failures.push('no etag');
  const not = await get(server.url + PATH, { 'if-none-match': etag ?? '' });
  if (not.status !== 304) failures.push(`If-None-Match: status ${not.status}`);
  if (not.body.length !== 0) failures.push('304 with a body');
  const headers = { ...res.headers };
  delete headers.date;
  return { etag, failures, headers };
}

// ---------------------------------------------------------------- load and machine
const waitQuiet = (servers) =>
  waitQuietCores(servers, {
    sampleMs: opts.quietSampleMs,
    maxWaitMs: opts.quietMaxWaitMs,
    threshold: opts.threshold,
  });

/** One wrk run of `GET <PATH>` with the scenario's headers for `server`. */
const load = (server, scenario, seconds) =>
  wrk({
    url: server.url + PATH,
    seconds,
    connections: opts.connections,
    timeout: '5s',
    headers: scenario.headers(server),
  });

async function timedRun(server, scenario, servers) {
  const { w, l, cpuTicks, rssReset } = await measured(server, servers, () =>
    load(server, scenario, opts.duration),
  );
  const bytesPerResponse = w.bytes / w.requests;
  // wrk cannot tell a 200 from a 304 without a Lua response hook (which costs wrk throughput), so
  // the response size tells: a 304 head is a few hundred bytes, a 200 carries the whole file.
  const statusOk = w.errors.status === 0 && scenario.sizeOk(bytesPerResponse);
  return {
    server: server.name,
    scenario: scenario.name,
    requests: w.requests,
    seconds: w.duration_us / 1e6,
    rps: w.requests / (w.duration_us / 1e6),
    latencyUs: w.latency_us,
    cpuUsPerReq: ((cpuTicks / CLK_TCK) * 1e6) / w.requests,
    serverCpuUtil: cpuTicks / l.wallTicks,
    bytesPerResponse,
    otherCore0: l.core0,
    otherCore1: l.core1,
    peakRssKb: readMem(server.pid).hwmKb,
    peakRssSinceStart: !rssReset,
    statusOk,
    statusErrors: w.errors.status,
    socketErrors: socketErrors(w),
    contaminated: Math.max(l.core0, l.core1) > opts.threshold,
  };
}

// ---------------------------------------------------------------- startup
function startup(dir) {
  const rows = [];
  for (const framework of ['api', 'api-no-gzip', 'fastify']) {
    const runs = [];
    for (let i = 0; i < opts.repeat; i++) {
      const r = spawnSync(
        'taskset',
        [
          '-c',
          SERVER_CORE,
          process.execPath,
          '--expose-gc',
          fileURLToPath(import.meta.url),
          '--child-startup',
          framework,
          dir,
        ],
        {
          cwd: BENCH,
          encoding: 'utf8',
          env: { ...process.env, NODE_ENV: 'production' },
        },
      );
      if (r.status !== 0) throw new Error(`startup ${framework}: ${r.stderr}`);
      runs.push(JSON.parse(r.stdout.trim().split('\n').pop()));
    }
    const m = (k) => median(runs.map((x) => x[k]));
    rows.push({
      framework,
      runs: runs.length,
      importMs: m('importMs'),
      wireMs: m('wireMs'),
      heapKb: m('heapKb'),
      buffersKb: m('buffersKb'),
      rssMb: m('rssMb'),
    });
    log(
      `  ${framework.padEnd(12)} import ${m('importMs').toFixed(0)} ms  wire ${m('wireMs').toFixed(0)} ms  heap +${(m('heapKb') / 1024).toFixed(1)} MB  buffers +${(m('buffersKb') / 1024).toFixed(1)} MB  rss ${m('rssMb').toFixed(0)} MB`,
    );
  }
  return rows;
}

function dirStats(dir) {
  const out = spawnSync('sh', ['-c', `find "${dir}" -type f | wc -l; du -sb "${dir}" | cut -f1`], {
    encoding: 'utf8',
  })
    .stdout.trim()
    .split('\n');
  return { files: Number(out[0]), bytes: Number(out[1]) };
}

// ---------------------------------------------------------------- main
async function main() {
  requireLinuxTwoCores();
  ensureWrk();
  if (opts.build) turboBuild(['@api/assets...'], '@api/assets and what it depends on');
  pinSelf();
  const t0 = Date.now();
  const { site, many } = writeFixtures();
  const file = readFileSync(join(site, 'site.css'));
  const gz = (await import('node:zlib')).gzipSync(file).length;
  log(
    `fixture: site.css ${file.length} bytes (gzip ${gz}), sha ${createHash('sha256').update(file).digest('hex').slice(0, 12)}…`,
  );

  const servers = [];
  const checks = {};
  for (const name of SERVERS) {
    const s = await startAssetsServer(name, site);
    const c = await check(s, file);
    checks[name] = c;
    if (c.failures.length) {
      note(`${name} failed its checks (${c.failures.join('; ')}): not timed`);
      continue;
    }
    s.etag = c.etag;
    servers.push(s);
    log(`${name}: checks passed (etag ${c.etag}; headers ${Object.keys(c.headers).join(', ')})`);
  }
  const scenarios = [
    {
      name: '200',
      label: `GET ${PATH} → 200, ${file.length} bytes, no Accept-Encoding`,
      headers: () => [],
      sizeOk: (b) => b > file.length,
    },
    {
      name: '304',
      label: `GET ${PATH} with If-None-Match: <its ETag> → 304`,
      headers: (s) => [`If-None-Match: ${s.etag}`],
      sizeOk: (b) => b < 1000,
    },
  ];
  const samples = [];
  for (const scenario of scenarios) {
    log(`\n== ${scenario.name}: ${scenario.label}`);
    for (const s of servers) await load(s, scenario, opts.warmup);
    const timed = await interleavedRounds({
      quietEachSample: true,
      servers,
      rounds: opts.rounds,
      retries: opts.retries,
      waitQuiet: () => waitQuiet(servers),
      measure: (s) => timedRun(s, scenario, servers),
      onRetry: (s, sample) =>
        log(
          `  ${s.name}: contaminated (core0 ${pct(sample.otherCore0)}, core1 ${pct(sample.otherCore1)}), retrying`,
        ),
      onSample: (sample, s) =>
        log(
          `  r${sample.round + 1} ${s.name.padEnd(8)} ${Math.round(sample.rps).toLocaleString('en-US').padStart(7)} req/s  ` +
            `cpu ${sample.cpuUsPerReq.toFixed(1)} µs/req  ${Math.round(sample.bytesPerResponse)} B/resp` +
            (sample.contaminated ? '  [contaminated]' : '') +
            (sample.statusOk ? '' : '  [unexpected status or size]') +
            (sample.socketErrors ? `  [socket errors: ${sample.socketErrors}]` : ''),
        ),
    });
    samples.push(...timed);
  }
  stopAll();

  let startupRows = [];
  let manyStats;
  if (opts.startup) {
    manyStats = dirStats(many);
    log(
      `\n== startup: ${manyStats.files} files, ${(manyStats.bytes / 1024 / 1024).toFixed(2)} MB on disk (fresh process each, median of ${opts.repeat})`,
    );
    startupRows = startup(many);
  }

  const rows = aggregate(
    scenarios,
    servers.map((s) => s.name),
    samples,
  );
  const verdicts = verdictsOf(scenarios, rows, samples);
  const meta = {
    date: new Date().toISOString(),
    quick: opts.quick,
    settings: {
      rounds: opts.rounds,
      durationS: opts.duration,
      warmupS: opts.warmup,
      connections: opts.connections,
      wrkThreads: 1,
      serverCore: 0,
      loadCore: 1,
      threshold: opts.threshold,
    },
    machine: { cpu: cpuModel(), cores: os.cpus().length, kernel: os.release(), node: process.version },
    versions: versionsOf(['@api/core', '@api/assets', 'fastify', '@fastify/static']),
    fixture: { file: 'site.css', bytes: file.length, gzipBytes: gz },
    checks,
    notes,
    elapsedS: (Date.now() - t0) / 1000,
  };
  const base = join(opts.out, `assets-${fileStamp(meta.date)}${opts.quick ? '-quick' : ''}`);
  writeResults(
    base,
    { meta, rows, verdicts, startup: { dir: manyStats, rows: startupRows }, samples },
    markdown(meta, scenarios, rows, verdicts, manyStats, startupRows),
  );
  log(`\nwrote ${relative(process.cwd(), `${base}.md`)}, ${relative(process.cwd(), `${base}.json`)}`);
  const startupApi = startupRows.find((r) => r.framework === 'api');
  const paired = (sc, peer) => r2(verdicts.find((v) => v.scenario === sc && v.peer === peer)?.pairedMedian);
  log(
    `assets (paired): 200 api/fastify ${paired('200', 'fastify')} api/raw ${paired('200', 'raw')}; ` +
      `304 api/fastify ${paired('304', 'fastify')} api/raw ${paired('304', 'raw')}` +
      (startupApi ? `; startup ${manyStats.files} files ${startupApi.wireMs.toFixed(0)} ms` : ''),
  );
  const bad = samples.filter((s) => !s.statusOk || s.socketErrors > 0).length;
  if (bad > 0) {
    log(`${bad} sample(s) had unexpected statuses, sizes or socket errors`);
    process.exitCode = 1;
  }
}

/** The issue's targets against the measured rows and paired per-round ratios. */
function verdictsOf(scenarios, rows, samples) {
  const verdicts = [];
  for (const sc of scenarios) {
    const api = rows[sc.name]?.api;
    if (!api) continue;
    for (const [peer, min] of Object.entries(TARGETS[sc.name])) {
      const ratio = peer === 'raw' ? api.rpsVsRaw : api.rpsVsFastify;
      const paired = pairedRatios(samples, sc.name, peer);
      const pairedMedian = median(paired.map((p) => p.rps));
      const cpuRatio = median(paired.map((p) => p.cpu));
      verdicts.push({
        scenario: sc.name,
        peer,
        ratio,
        pairedMedian,
        pairedMin: Math.min(...paired.map((p) => p.rps)),
        pairedMax: Math.max(...paired.map((p) => p.rps)),
        cpuRatio,
        rounds: paired.length,
        cleanPairs: paired.every((p) => p.clean) ? paired.length : 0,
        target: min,
        met: pairedMedian >= min,
      });
    }
  }
  return verdicts;
}

/**
 * Per-round ratios api/peer (req/s, and peer/api CPU µs per request): the two samples of one round
 * ran seconds apart, so drift in the machine's load cancels better than in a ratio of medians.
 */
function pairedRatios(samples, scenario, peer) {
  const pairs = [];
  const rounds = new Set(samples.filter((s) => s.scenario === scenario).map((s) => s.round));
  for (const round of rounds) {
    const api = samples.find((s) => s.scenario === scenario && s.round === round && s.server === 'api');
    const other = samples.find((s) => s.scenario === scenario && s.round === round && s.server === peer);
    if (api && other)
      pairs.push({
        clean: !api.contaminated && !other.contaminated,
        rps: api.rps / other.rps,
        cpu: other.cpuUsPerReq / api.cpuUsPerReq,
      });
  }
  // Pairs where neither sample saw other load, when there are any (as the medians prefer clean samples).
  const clean = pairs.filter((p) => p.clean);
  return clean.length > 0 ? clean : pairs;
}

function versionsOf(names) {
  return { ...Object.fromEntries(names.map((n) => [n, packageVersion(n)])), wrk: wrkVersion() };
}

function markdown(meta, scenarios, rows, verdicts, manyStats, startupRows) {
  const lines = [
    `# @api/assets benchmark — ${meta.date}${meta.quick ? ' (quick)' : ''}`,
    '',
    `${meta.machine.cpu}, ${meta.machine.cores} cores, Linux ${meta.machine.kernel}, Node ${meta.machine.node}. ` +
      `Servers pinned to core 0, wrk (-t1 -c${meta.settings.connections}) and the harness to core 1; ` +
      `${meta.settings.rounds} interleaved rounds × ${meta.settings.durationS} s per server and scenario (first server rotated each round), ` +
      `warm-up ${meta.settings.warmupS} s. Versions: ${Object.entries(meta.versions)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`,
    '',
    `File: \`site.css\`, ${meta.fixture.bytes} bytes (gzip ${meta.fixture.gzipBytes}); requests carry no Accept-Encoding, so every server sends the same bytes.`,
    '',
    '- `api`: `@api/core` + `@api/assets` (`this.include(assets({ directory }))`), files in memory.',
    '- `fastify`: Fastify 5 + `@fastify/static` with its defaults: `stat` + stream from disk per request, weak ETag from size/mtime.',
    '- `raw`: node:http with the file in memory, one exact path, precomputed ETag, `If-None-Match` by equality (the ceiling).',
    '',
    '| scenario | server | req/s (median) | min–max | CPU µs/req | p50 ms | p99 ms | ×fastify | ×raw |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const sc of scenarios) {
    for (const [name, r] of Object.entries(rows[sc.name] ?? {})) {
      lines.push(
        `| ${sc.name} | ${name} | ${int(r.rps)} | ${int(r.rpsMin)}–${int(r.rpsMax)} | ${r.cpuUsPerReq.toFixed(1)} | ${(r.p50Us / 1000).toFixed(2)} | ${(r.p99Us / 1000).toFixed(2)} | ${r2(r.rpsVsFastify)} | ${r2(r.rpsVsRaw)} |` +
          (r.contaminated ? ` (${r.contaminated} contaminated)` : ''),
      );
    }
  }
  lines.push(
    '',
    '## Targets (issue #17)',
    '',
    '`paired`: median over rounds of (api req/s ÷ peer req/s in the same round; only rounds where neither sample ' +
      'was contaminated, when there are any; `pairs` says how many), with its min–max; `medians`: ' +
      'the ratio of the medians above; `CPU`: peer CPU µs/req ÷ api CPU µs/req (paired median), the metric least ' +
      'sensitive to other load on the machine. The verdict uses the paired req/s ratio.',
    '',
    '| scenario | api vs | paired req/s ratio | min–max | pairs (clean) | medians ratio | CPU ratio | target | met |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const v of verdicts)
    lines.push(
      `| ${v.scenario} | ${v.peer} | ${r2(v.pairedMedian)} | ${r2(v.pairedMin)}–${r2(v.pairedMax)} | ${v.rounds} (${v.cleanPairs}) | ${r2(v.ratio)} | ${r2(v.cpuRatio)} | ≥ ${v.target} | ${v.met ? 'yes' : '**no**'} |`,
    );
  if (startupRows.length) {
    lines.push(
      '',
      `## Startup: ${manyStats.files} files, ${(manyStats.bytes / 1024 / 1024).toFixed(2)} MB on disk`,
      '',
      'Fresh `node --expose-gc` process per run (pinned to core 0), median. `wire`: from `new App()` to `start()` resolved ' +
        '(walk, read, hash, gzip, 1,000 routes); Fastify: `register(@fastify/static)` + `ready()` (it reads nothing up front). ' +
        '`heap`/`buffers`: retained after GC.',
      '',
      '| setup | import ms | wire ms | heap MB | buffers MB | RSS MB |',
      '|---|---:|---:|---:|---:|---:|',
    );
    for (const r of startupRows)
      lines.push(
        `| ${r.framework} | ${r.importMs.toFixed(0)} | ${r.wireMs.toFixed(0)} | ${(r.heapKb / 1024).toFixed(1)} | ${(r.buffersKb / 1024).toFixed(1)} | ${r.rssMb.toFixed(0)} |`,
      );
  }
  if (meta.notes.length) lines.push('', '## Notes', '', ...meta.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}

main().catch((e) => {
  stopAll();
  console.error(e.stack ?? e);
  process.exit(1);
});
