#!/usr/bin/env node
// HTTP benchmark harness: @api vs raw node:http, Fastify, Hono and Express, interleaved, pinned, checked.
// Usage: pnpm bench [--quick] [--rounds N] [--duration S] [--warmup S] [--connections N]
//                   [--corun-blocks N] [--corun-runs N] [--corun-duration S] [--corun-warmup S] [--ops-blocks N]
//                   [--servers raw,fastify,...] [--scenarios info,movies,...] [--build] [--out DIR]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import os from 'node:os';
import { SCENARIOS, runChecks } from './scenarios.mjs';
import { CLK_TCK, cpuModel, readMem } from './sys.mjs';
import { writeReport } from './report.mjs';
import { CORUN_PAIRS, OPS_PAIRS, coRunBlocks, coRunSummary } from './corun.mjs';
import {
  BENCH,
  ensureWrk,
  interleavedRounds,
  LOAD_CORE,
  measured,
  packageVersion,
  parseFlags,
  pct,
  pinSelf,
  requireLinuxTwoCores,
  SERVER_CORE,
  socketErrors,
  startServer,
  stopAll,
  stopServer,
  turboBuild,
  waitQuietCores,
  wrk,
  wrkVersion,
} from './harness/index.mjs';

const ALL_SERVERS = ['raw', 'fastify', 'hono', 'express', 'api'];
// Run only when named (`--servers api,api-fetch`): app.fetch through @hono/node-server.
const OPTIONAL_SERVERS = ['api-fetch'];
const API_EXPORTS = ['BaseApp', 'Endpoint', 'Resource', 'Struct', 'serve', 'JSONResponse', 'Created'];

// `pnpm bench --profile <scenario> [--server api]`: a CPU profile of one server instead of a run.
if (process.argv.includes('--profile')) {
  await import('./profile.mjs');
  process.exit(0);
}
// `pnpm bench --compress [options]`: @api/compress vs @fastify/compress instead of the main run.
if (process.argv.includes('--compress')) {
  await import('./compress.mjs');
  process.exit(0);
}

// ---------------------------------------------------------------- options
function parseArgs(argv) {
  const o = {
    quick: false,
    build: false,
    ...parseFlags(argv, {
      '--quick': ['quick', true],
      '--build': ['build', true],
      '--rounds': ['rounds', 'number'],
      '--duration': ['duration', 'number'],
      '--warmup': ['warmup', 'number'],
      '--connections': ['connections', 'number'],
      '--servers': ['servers', 'list'],
      '--scenarios': ['scenarios', 'list'],
      '--out': ['out', 'string'],
      '--threshold': ['threshold', 'number'],
      '--corun-blocks': ['corunBlocks', 'number'],
      '--corun-runs': ['corunRuns', 'number'],
      '--corun-duration': ['corunDuration', 'number'],
      '--corun-warmup': ['corunWarmup', 'number'],
      '--ops-blocks': ['opsBlocks', 'number'],
    }),
  };
  const d = o.quick
    ? {
        rounds: 2,
        duration: 2,
        warmup: 1,
        quietSampleMs: 300,
        quietMaxWaitMs: 5_000,
        retries: 1,
        budgetMs: 165_000,
        corunBlocks: 1,
        corunRuns: 2,
        corunDuration: 2,
        corunWarmup: 1,
      }
    : {
        rounds: 6,
        duration: 4,
        warmup: 3,
        quietSampleMs: 1000,
        quietMaxWaitMs: 60_000,
        retries: 3,
        budgetMs: Infinity,
        corunBlocks: 4,
        corunRuns: 2,
        corunDuration: 3,
        corunWarmup: 4,
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
/** Decide whether the @api server can run; build @api/core if its dist is missing. */
function apiAvailable() {
  if (!existsSync(join(BENCH, 'servers/api.mjs'))) {
    throw new Error('servers/api.mjs is missing: the framework under test cannot be benchmarked');
  }
  // Always (re)build the @api packages the server imports, so a stale dist is never measured (turbo caches).
  turboBuild(['@api/bench^...'], 'the @api packages');
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
  const names = [
    '@api/core',
    'fastify',
    'hono',
    '@hono/node-server',
    '@hono/valibot-validator',
    'express',
    'valibot',
  ];
  return {
    node: process.version,
    ...Object.fromEntries(names.map((name) => [name, packageVersion(name)])),
    wrk: wrkVersion(),
  };
}

// ---------------------------------------------------------------- servers and load
const startBenchServer = (name) =>
  startServer({ name, script: join(BENCH, 'servers', `${name}.mjs`), env: { HOST: '127.0.0.1' } });

const quietStats = { checks: 0, waitedMs: 0, gaveUp: 0 };
const waitQuiet = (servers) =>
  waitQuietCores(servers, {
    sampleMs: opts.quietSampleMs,
    maxWaitMs: opts.quietMaxWaitMs,
    threshold: opts.threshold,
    overBudget,
    stats: quietStats,
  });

/** One wrk run of `scenario` against `server`. */
const load = (server, scenario, seconds) =>
  wrk({
    url: server.url + scenario.path,
    seconds,
    connections: opts.connections,
    timeout: '5s',
    method: scenario.method,
    body: scenario.body,
    auth: scenario.auth,
  });

async function timedRun(server, scenario, servers) {
  const { w, l, cpuTicks, wrkTicks, rssReset } = await measured(server, servers, () =>
    load(server, scenario, opts.duration),
  );
  const mem = readMem(server.pid);
  const okStatus = scenario.expect < 400 ? w.errors.status === 0 : w.errors.status === w.requests;
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
    socketErrors: socketErrors(w),
    contaminated: Math.max(l.core0, l.core1) > opts.threshold,
  };
}

// ---------------------------------------------------------------- main
async function main() {
  requireLinuxTwoCores();
  ensureWrk();
  // Keep the harness off the server's core.
  pinSelf();

  const wanted = opts.servers ?? ALL_SERVERS;
  const names = wanted.filter(
    (n) => (ALL_SERVERS.includes(n) || OPTIONAL_SERVERS.includes(n)) && (n !== 'api' || apiAvailable()),
  );
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
      s = await startBenchServer(name);
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
  const coRuns = [];
  const runMs = opts.duration * 1000 + 150 + opts.quietSampleMs / servers.length; // one quiet check per round
  // One co-run block: start two servers, warm both on every scenario, co-run every scenario.
  const blockMs =
    1000 + scenarios.length * (opts.corunWarmup * 1000 + opts.corunRuns * (opts.corunDuration * 1000 + 100));
  const coRunPairs = CORUN_PAIRS.filter((pair) => pair.every((n) => servers.some((s) => s.name === n)));
  // The operations overhead (request log, otel without an SDK): @api variants co-run against @api.
  const opsBlocks = opts.opsBlocks ?? (opts.quick ? 1 : 2);
  const opsPairs = opsBlocks > 0 && servers.some((s) => s.name === 'api') ? OPS_PAIRS : [];
  remainingMs =
    scenarios.length * servers.length * (opts.warmup * 1000 + 150 + opts.rounds * runMs) +
    coRunPairs.length * opts.corunBlocks * blockMs +
    opsPairs.length * opsBlocks * blockMs;
  for (const scenario of scenarios) {
    log(`\n== ${scenario.name}: ${scenario.label}`);
    for (const s of servers) {
      await load(s, scenario, opts.warmup); // warm-up, not recorded
      remainingMs -= opts.warmup * 1000 + 150;
    }
    // Interleave A B C D E, rotating the starting server each round to spread drift evenly.
    const timed = await interleavedRounds({
      servers,
      rounds: opts.rounds,
      retries: opts.retries,
      waitQuiet: () => waitQuiet(servers),
      measure: (s) => timedRun(s, scenario, servers),
      overBudget,
      onRetry: (s, sample) =>
        log(
          `  ${s.name}: contaminated (other load core0 ${pct(sample.otherCore0)}, core1 ${pct(sample.otherCore1)}), retrying`,
        ),
      onSample: (sample, s) => {
        remainingMs -= runMs;
        log(
          `  r${sample.round + 1} ${s.name.padEnd(8)} ${fmtInt(sample.rps).padStart(7)} req/s  p50 ${ms(sample.latencyUs.p50)}  ` +
            `p99 ${ms(sample.latencyUs.p99)}  cpu ${sample.cpuUsPerReq.toFixed(1)} µs/req  ` +
            `rss ${(sample.peakRssKb / 1024).toFixed(0)} MB` +
            (sample.contaminated ? '  [contaminated]' : '') +
            (sample.statusOk ? '' : `  [unexpected status: ${sample.statusErrors}]`) +
            (sample.socketErrors ? `  [socket errors: ${sample.socketErrors}]` : ''),
        );
      },
    });
    samples.push(...timed);
  }

  // Co-runs: @api and a baseline loaded at once, for ratios this machine's drift cannot skew; each
  // block on a fresh pair of processes (the standalone servers are stopped first).
  stopAll();
  if (opts.corunBlocks > 0 && coRunPairs.length > 0)
    log(`\n== co-runs: ${opts.corunBlocks} block(s) of fresh processes per pair`);
  const corunPlan = [
    ...(opts.corunBlocks > 0 ? coRunPairs.map((pair) => ({ pair, blocks: opts.corunBlocks })) : []),
    ...opsPairs.map((pair) => ({ pair, blocks: opsBlocks })),
  ];
  for (const { pair, blocks } of corunPlan) {
    if (pair === opsPairs[0])
      log(
        `\n== operations overhead: ${blocks} block(s) per pair (${OPS_PAIRS.map((p) => p.join('/')).join(', ')})`,
      );
    const runs = await coRunBlocks({
      pair,
      scenarios,
      blocks,
      runs: opts.corunRuns,
      seconds: opts.corunDuration,
      warmupSeconds: opts.corunWarmup,
      start: startBenchServer,
      stop: stopServer,
      load,
      onBlock: (block, mine) => {
        remainingMs -= blockMs;
        for (const sc of scenarios) {
          const sum = coRunSummary(mine.filter((r) => r.scenario === sc.name));
          log(
            `  ${pair.join('+')} block ${block + 1} ${sc.name.padEnd(8)} CPU/request ${pair.join('/')} ×${sum.cpuRatio.toFixed(3)}, ` +
              `req/s ×${sum.rpsRatio.toFixed(3)}` +
              (mine.every((r) => r.statusOk) ? '' : '  [unexpected status]'),
          );
        }
      },
    });
    coRuns.push(...runs);
    for (const sc of scenarios) {
      const sum = coRunSummary(runs.filter((r) => r.scenario === sc.name));
      log(
        `  ${pair.join('+')} ${sc.name}: CPU/request ×${sum.cpuRatio.toFixed(2)} ` +
          `(quartiles ${sum.cpuQuartiles.map((x) => x.toFixed(2)).join('–')}), req/s ×${sum.rpsRatio.toFixed(2)}`,
      );
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
      corunBlocks: opts.corunBlocks,
      opsBlocks: opts.opsBlocks ?? (opts.quick ? 1 : 2),
      corunRuns: opts.corunRuns,
      corunDurationS: opts.corunDuration,
      corunWarmupS: opts.corunWarmup,
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
  const { files, summary } = await writeReport({ meta, scenarios, samples, coRuns, outDir: opts.out });
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
