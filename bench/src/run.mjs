#!/usr/bin/env node
// HTTP benchmark harness: @api vs raw node:http, Fastify, Hono and Express, interleaved, pinned, checked.
// Usage: pnpm bench [--quick] [--rounds N] [--duration S] [--warmup S] [--connections N]
//                   [--servers raw,fastify,...] [--scenarios info,movies,...] [--build] [--out DIR]
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { SCENARIOS, runChecks } from './scenarios.mjs';
import { CLK_TCK, cpuModel, has, readCpu, readMem, readProcTicks, resetPeakRss, sleep } from './sys.mjs';
import { writeReport } from './report.mjs';

const BENCH = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(BENCH, '..');
const ALL_SERVERS = ['raw', 'fastify', 'hono', 'express', 'api'];
const API_EXPORTS = ['BaseApp', 'Endpoint', 'Resource', 'Struct', 'serve', 'JSONResponse', 'Created'];
const SERVER_CORE = '0';
const LOAD_CORE = '1';

// `pnpm bench --profile <scenario> [--server api]`: a CPU profile of one server instead of a run.
if (process.argv.includes('--profile')) {
  await import('./profile.mjs');
  process.exit(0);
}

// ---------------------------------------------------------------- options
function parseArgs(argv) {
  const o = { quick: false, build: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => argv[++i];
    if (a === '--quick') o.quick = true;
    else if (a === '--build') o.build = true;
    else if (a === '--rounds') o.rounds = Number(val());
    else if (a === '--duration') o.duration = Number(val());
    else if (a === '--warmup') o.warmup = Number(val());
    else if (a === '--connections') o.connections = Number(val());
    else if (a === '--servers') o.servers = val().split(',');
    else if (a === '--scenarios') o.scenarios = val().split(',');
    else if (a === '--out') o.out = val();
    else if (a === '--threshold') o.threshold = Number(val());
    else if (a === '--') continue;
    else {
      console.error(`unknown option ${a}`);
      process.exit(2);
    }
  }
  const d = o.quick
    ? {
        rounds: 2,
        duration: 2,
        warmup: 1,
        quietSampleMs: 300,
        quietMaxWaitMs: 5_000,
        retries: 1,
        budgetMs: 165_000,
      }
    : {
        rounds: 6,
        duration: 4,
        warmup: 3,
        quietSampleMs: 1000,
        quietMaxWaitMs: 60_000,
        retries: 3,
        budgetMs: Infinity,
      };
  return {
    ...d,
    connections: 50,
    threshold: 0.1,
    out: join(BENCH, 'results'),
    ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
  };
}

const opts = parseArgs(process.argv.slice(2));
const t0 = Date.now();
// Quick mode has a time budget: waiting for quiet and retrying only happen while the remaining nominal work fits.
let remainingMs = 0; // nominal time of the timed runs and warm-ups not yet done
const overBudget = () => Date.now() - t0 + remainingMs > opts.budgetMs;
const log = (...a) => console.log(...a);
const notes = [];
const note = (s) => {
  notes.push(s);
  log(`note: ${s}`);
};

// ---------------------------------------------------------------- prerequisites
function ensureWrk() {
  if (has('wrk')) return;
  log('wrk not found: apt-get update && apt-get install -y wrk');
  const r = spawnSync('sh', ['-c', 'apt-get update && apt-get install -y wrk'], { stdio: 'inherit' });
  if (r.status !== 0 || !has('wrk')) {
    console.error('could not install wrk');
    process.exit(1);
  }
}

/** Decide whether the @api server can run; build @api/core if its dist is missing. */
function apiAvailable() {
  if (!existsSync(join(BENCH, 'servers/api.mjs'))) {
    throw new Error('servers/api.mjs is missing: the framework under test cannot be benchmarked');
  }
  // Always (re)build the @api packages the server imports, so a stale dist is never measured (turbo caches).
  log('building the @api packages: turbo run build --filter=@api/bench^...');
  const built = spawnSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--filter=@api/bench^...', '--output-logs=errors-only'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (built.status !== 0)
    throw new Error('building the @api packages failed; fix the build before benchmarking');
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "console.log(JSON.stringify(Object.keys(await import('@api/core'))))"],
    { cwd: BENCH, encoding: 'utf8' },
  );
  let keys = [];
  try {
    keys = JSON.parse(r.stdout.trim().split('\n').pop());
  } catch {
    note(`@api/core does not import: ${r.stderr.trim().split('\n')[0] ?? ''}: @api is skipped.`);
    return false;
  }
  const missing = API_EXPORTS.filter((k) => !keys.includes(k));
  if (missing.length > 0) {
    note(`@api/core lacks exports ${missing.join(', ')}: @api is skipped.`);
    return false;
  }
  return true;
}

function versions() {
  const pkg = (name) => {
    try {
      return JSON.parse(readFileSync(join(BENCH, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return 'n/a';
    }
  };
  let wrkV = 'n/a';
  try {
    wrkV = spawnSync('wrk', ['-v'], { encoding: 'utf8' })
      .stdout.split('\n')[0]
      .split(' [')[0]
      .replace(/^wrk /, '');
  } catch {
    /* ignore */
  }
  return {
    node: process.version,
    '@api/core': pkg('@api/core'),
    fastify: pkg('fastify'),
    hono: pkg('hono'),
    '@hono/node-server': pkg('@hono/node-server'),
    '@hono/valibot-validator': pkg('@hono/valibot-validator'),
    express: pkg('express'),
    valibot: pkg('valibot'),
    wrk: wrkV,
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------- servers
const running = [];
function stopAll() {
  for (const s of running) {
    try {
      process.kill(s.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
process.on('exit', stopAll);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopAll();
    process.exit(130);
  });
}

async function startServer(name) {
  const port = await freePort();
  const child = spawn(
    'taskset',
    ['-c', SERVER_CORE, process.execPath, join(BENCH, 'servers', `${name}.mjs`)],
    {
      cwd: BENCH,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const s = { name, port, pid: child.pid, child, url: `http://127.0.0.1:${port}` };
  running.push(s);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no "ready" within 20 s`)), 20_000);
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      if (/^ready$/m.test(buf)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited with ${code} before "ready"`));
    });
  });
  child.stdout.resume();
  return s;
}

// ---------------------------------------------------------------- machine load
/** Snapshot of everything needed to attribute CPU ticks: per-core busy, our servers, harness, children. */
function snapshot(servers) {
  const me = readProcTicks(process.pid);
  const srv = {};
  for (const s of servers) srv[s.name] = readProcTicks(s.pid)?.self ?? 0;
  return { at: process.hrtime.bigint(), cpu: readCpu(), srv, me: me.self, kids: me.children };
}

/** Ticks on each core not explained by our processes, as a fraction of the window. */
function otherLoad(a, b, servers) {
  const wallTicks = (Number(b.at - a.at) / 1e9) * CLK_TCK;
  const d = (core) => b.cpu[core].busy - a.cpu[core].busy;
  const serverTicks = servers.reduce((t, s) => t + (b.srv[s.name] - a.srv[s.name]), 0);
  const loadTicks = b.me - a.me + (b.kids - a.kids); // harness + finished children (wrk)
  const core0 = Math.max(0, d(SERVER_CORE) - serverTicks);
  const core1 = Math.max(0, d(LOAD_CORE) - loadTicks);
  return {
    wallTicks,
    serverTicks,
    loadTicks,
    core0: core0 / wallTicks,
    core1: core1 / wallTicks,
    irq0: (b.cpu[SERVER_CORE].irq - a.cpu[SERVER_CORE].irq) / wallTicks,
    irq1: (b.cpu[LOAD_CORE].irq - a.cpu[LOAD_CORE].irq) / wallTicks,
  };
}

const quietStats = { checks: 0, waitedMs: 0, gaveUp: 0 };
async function waitQuiet(servers) {
  const start = Date.now();
  for (;;) {
    const a = snapshot(servers);
    await sleep(opts.quietSampleMs);
    const l = otherLoad(a, snapshot(servers), servers);
    quietStats.checks++;
    if (Math.max(l.core0, l.core1) <= opts.threshold) {
      quietStats.waitedMs += Date.now() - start;
      return true;
    }
    if (Date.now() - start > opts.quietMaxWaitMs || overBudget()) {
      quietStats.waitedMs += Date.now() - start;
      quietStats.gaveUp++;
      return false;
    }
    log(`  machine busy (other load core0 ${pct(l.core0)}, core1 ${pct(l.core1)}), waiting…`);
    await sleep(1000);
  }
}
const pct = (x) => `${(x * 100).toFixed(0)}%`;

// ---------------------------------------------------------------- wrk
function wrk(server, scenario, seconds) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'taskset',
      [
        '-c',
        LOAD_CORE,
        'wrk',
        '-t1',
        `-c${opts.connections}`,
        `-d${seconds}s`,
        '--timeout',
        '5s',
        '-s',
        join(BENCH, 'src/wrk.lua'),
        server.url + scenario.path,
      ],
      {
        env: {
          ...process.env,
          BENCH_METHOD: scenario.method,
          BENCH_BODY: scenario.body === undefined ? '' : JSON.stringify(scenario.body),
          BENCH_AUTH: scenario.auth ?? '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
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

async function timedRun(server, scenario, servers) {
  const rssReset = resetPeakRss(server.pid);
  const a = snapshot(servers);
  const w = await wrk(server, scenario, opts.duration);
  const b = snapshot(servers);
  const l = otherLoad(a, b, servers);
  const mem = readMem(server.pid);
  const cpuTicks = b.srv[server.name] - a.srv[server.name];
  const wrkTicks = b.kids - a.kids;
  const okStatus = scenario.expect < 400 ? w.errors.status === 0 : w.errors.status === w.requests;
  const socketErrors = w.errors.connect + w.errors.read + w.errors.write + w.errors.timeout;
  return {
    server: server.name,
    scenario: scenario.name,
    requests: w.requests,
    seconds: w.duration_us / 1e6,
    rps: w.requests / (w.duration_us / 1e6),
    latencyUs: w.latency_us,
    cpuUsPerReq: ((cpuTicks / CLK_TCK) * 1e6) / w.requests,
    serverCpuUtil: cpuTicks / l.wallTicks,
    wrkCpuUtil: wrkTicks / l.wallTicks,
    otherCore0: l.core0,
    otherCore1: l.core1,
    irqCore0: l.irq0,
    irqCore1: l.irq1,
    peakRssKb: mem.hwmKb,
    peakRssSinceStart: !rssReset,
    statusOk: okStatus,
    statusErrors: w.errors.status,
    socketErrors,
    contaminated: Math.max(l.core0, l.core1) > opts.threshold,
  };
}

// ---------------------------------------------------------------- main
async function main() {
  if (os.platform() !== 'linux') throw new Error('the harness reads /proc: Linux only');
  if (os.cpus().length < 2) throw new Error('needs 2 cores (server on core 0, wrk on core 1)');
  ensureWrk();
  // Keep the harness off the server's core.
  execFileSync('taskset', ['-a', '-p', '-c', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });

  const wanted = opts.servers ?? ALL_SERVERS;
  const names = wanted.filter((n) => ALL_SERVERS.includes(n) && (n !== 'api' || apiAvailable()));
  const scenarios = SCENARIOS.filter((s) => !opts.scenarios || opts.scenarios.includes(s.name));
  log(
    `bench: servers ${names.join(', ')}; scenarios ${scenarios.map((s) => s.name).join(', ')}; ` +
      `${opts.rounds} round(s) × ${opts.duration} s, warm-up ${opts.warmup} s, ${opts.connections} connections` +
      (opts.quick ? ' (quick)' : ''),
  );

  const servers = [];
  const checks = {};
  for (const name of names) {
    let s;
    try {
      s = await startServer(name);
    } catch (e) {
      note(`${name} did not start (${e.message}): skipped.`);
      continue;
    }
    const r = await runChecks(s.url);
    checks[name] = r;
    for (const w of r.warnings) note(`${name} check warning: ${w}`);
    if (r.failures.length > 0) {
      note(`${name} failed ${r.failures.length}/${r.total} checks: not timed.`);
      for (const f of r.failures) log(`  ✗ ${f}`);
      process.kill(s.pid, 'SIGKILL');
      continue;
    }
    log(`${name}: ${r.total - r.warnings.length}/${r.total} checks passed (pid ${s.pid}, port ${s.port})`);
    servers.push(s);
  }
  if (servers.length === 0) throw new Error('no server passed its checks');

  const samples = [];
  const runMs = opts.duration * 1000 + opts.quietSampleMs + 150;
  remainingMs = scenarios.length * servers.length * (opts.warmup * 1000 + 150 + opts.rounds * runMs);
  for (const scenario of scenarios) {
    log(`\n== ${scenario.name}: ${scenario.label}`);
    for (const s of servers) {
      await wrk(s, scenario, opts.warmup); // warm-up, not recorded
      remainingMs -= opts.warmup * 1000 + 150;
    }
    for (let round = 0; round < opts.rounds; round++) {
      // Interleave A B C D E, rotating the starting server each round to spread drift evenly.
      const order = servers.map((_, i) => servers[(i + round) % servers.length]);
      for (const s of order) {
        let sample;
        for (let attempt = 0; ; attempt++) {
          const quiet = await waitQuiet(servers);
          sample = { ...(await timedRun(s, scenario, servers)), round, attempt, quietBefore: quiet };
          if (!sample.contaminated || attempt >= opts.retries || overBudget()) break;
          log(
            `  ${s.name}: contaminated (other load core0 ${pct(sample.otherCore0)}, core1 ${pct(sample.otherCore1)}), retrying`,
          );
        }
        samples.push(sample);
        remainingMs -= runMs;
        log(
          `  r${round + 1} ${s.name.padEnd(8)} ${fmtInt(sample.rps).padStart(7)} req/s  p50 ${ms(sample.latencyUs.p50)}  ` +
            `p99 ${ms(sample.latencyUs.p99)}  cpu ${sample.cpuUsPerReq.toFixed(1)} µs/req  ` +
            `rss ${(sample.peakRssKb / 1024).toFixed(0)} MB` +
            (sample.contaminated ? '  [contaminated]' : '') +
            (sample.statusOk ? '' : `  [unexpected status: ${sample.statusErrors}]`) +
            (sample.socketErrors ? `  [socket errors: ${sample.socketErrors}]` : ''),
        );
      }
    }
  }
  stopAll();

  const meta = {
    date: new Date().toISOString(),
    quick: opts.quick,
    settings: {
      rounds: opts.rounds,
      durationS: opts.duration,
      warmupS: opts.warmup,
      connections: opts.connections,
      wrkThreads: 1,
      serverCore: Number(SERVER_CORE),
      loadCore: Number(LOAD_CORE),
      contaminationThreshold: opts.threshold,
      retries: opts.retries,
    },
    machine: { cpu: cpuModel(), cores: os.cpus().length, kernel: os.release(), clkTck: CLK_TCK },
    versions: versions(),
    servers: servers.map((s) => s.name),
    skipped: ALL_SERVERS.filter(
      (n) => !servers.some((s) => s.name === n) && (opts.servers ?? ALL_SERVERS).includes(n),
    ),
    checks,
    quiet: quietStats,
    notes,
    elapsedS: (Date.now() - t0) / 1000,
  };
  mkdirSync(opts.out, { recursive: true });
  const { files, summary } = await writeReport({ meta, scenarios, samples, outDir: opts.out });
  log(`\nwrote ${files.map((f) => relative(process.cwd(), f)).join(', ')}`);
  const bad = samples.filter((s) => !s.statusOk || s.socketErrors > 0).length;
  if (bad > 0) log(`${bad} sample(s) had unexpected statuses or socket errors (see the report)`);
  log(summary);
  if (bad > 0) process.exitCode = 1;
}

const fmtInt = (x) => Math.round(x).toLocaleString('en-US');
const ms = (us) => `${(us / 1000).toFixed(2)} ms`;

main().catch((e) => {
  stopAll();
  console.error(e.stack ?? e);
  process.exit(1);
});
