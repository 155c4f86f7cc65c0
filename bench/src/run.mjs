#!/usr/bin/env node
// HTTP benchmark harness: @api vs raw node:http, Fastify, Hono and Express, pinned, checked. Three
// phases measure the same ratios: standalone (each sample a fresh process, src/standalone.mjs),
// paired (servers taking turns of 20 ms on the core, src/paired.mjs) and co-runs (src/corun.mjs); the targets
// are judged by all three (src/verdicts.mjs).
// Usage: pnpm bench [--quick | --standalone] [--rounds N] [--duration S] [--warmup S] [--connections N]
//                   [--paired-blocks N] [--paired-rounds N] [--slice S] [--turn MS] [--paired-warmup S]
//                   [--corun-blocks N] [--corun-runs N] [--corun-duration S] [--corun-warmup S] [--ops-blocks N]
//                   [--ops-scenarios info,movies]
//                   [--servers raw,fastify,...] [--scenarios info,movies,...] [--long-lived] [--build] [--out DIR]
//        pnpm bench --runtimes | --compress | --profile <scenario>   (other scripts, see README)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import os from 'node:os';
import { SCENARIOS, runChecks, statusesAsExpected } from './scenarios.mjs';
import { CLK_TCK, cpuModel, readMem, readUsage, usageDelta } from './sys.mjs';
import { writeReport } from './report.mjs';
import { CORUN_PAIRS, OPS_PAIRS, coRunBlocks, coRunSummary } from './corun.mjs';
import { freshRounds, longLivedRounds } from './standalone.mjs';
import { pairedRounds } from './paired.mjs';
import { FRAMEWORK_SERVERS, startBenchServer } from './servers.mjs';
import {
  BENCH,
  ensureWrk,
  LOAD_CORE,
  measured,
  packageVersion,
  parseFlags,
  pct,
  pinSelf,
  requireLinuxTwoCores,
  SERVER_CORE,
  socketErrors,
  stopAll,
  stopServer,
  turboBuild,
  waitQuietCores,
  startWrkScenario,
  wrkScenario,
  wrkVersion,
} from './harness/index.mjs';

const ALL_SERVERS = FRAMEWORK_SERVERS;
// Run only when named (`--servers api,api-fetch`): app.fetch through @hono/node-server; api-zod and
// hono-zod: POST /movies with a zod body (`--servers api,api-zod,fastify,hono-zod --scenarios movies`).
const OPTIONAL_SERVERS = ['api-fetch', 'api-zod', 'hono-zod'];
/** The servers `--quick` and `--standalone` time unless `--servers` says otherwise: the targets' three. */
const TARGET_SERVERS = ['raw', 'fastify', 'api'];
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
// `pnpm bench --runtimes [options]`: app.fetch on Bun (vs Hono and Elysia there) and on Node.
if (process.argv.includes('--runtimes')) {
  await import('./runtimes.mjs');
  process.exit(process.exitCode ?? 0);
}

// ---------------------------------------------------------------- options
function parseArgs(argv) {
  const o = {
    quick: false,
    standalone: false,
    longLived: false,
    build: false,
    ...parseFlags(argv, {
      '--quick': ['quick', true],
      '--standalone': ['standalone', true],
      '--long-lived': ['longLived', true],
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
      '--ops-scenarios': ['opsScenarios', 'list'],
      '--paired-blocks': ['pairedBlocks', 'number'],
      '--paired-rounds': ['pairedRounds', 'number'],
      '--slice': ['slice', 'number'],
      '--turn': ['turnMs', 'number'],
      '--paired-warmup': ['pairedWarmup', 'number'],
    }),
  };
  // The same warm-up everywhere (3 s alone, 6 s in a co-run where two servers share the core):
  // quick mode is the full run's paired phase (where the verdict is read: the same blocks and
  // rounds) on raw, Fastify and @api and two scenarios, with two co-run blocks to check it against
  // and no standalone rounds; never a colder process.
  const d = o.quick
    ? {
        rounds: 0,
        duration: 3,
        warmup: 3,
        pairedBlocks: 5,
        pairedRounds: 3,
        servers: TARGET_SERVERS,
        scenarios: ['info', 'movies'],
        quietSampleMs: 300,
        quietMaxWaitMs: 5_000,
        retries: 1,
        budgetMs: 330_000,
        corunBlocks: 2,
        corunRuns: 2,
        corunDuration: 2,
        corunWarmup: 6,
        opsBlocks: 0,
      }
    : o.standalone
      ? {
          // What a user does: one fresh server at a time, a warm-up, one long run; alternated.
          rounds: 4,
          duration: 10,
          warmup: 5,
          pairedBlocks: 0,
          pairedRounds: 0,
          servers: TARGET_SERVERS,
          quietSampleMs: 1000,
          quietMaxWaitMs: 60_000,
          retries: 2,
          budgetMs: Infinity,
          corunBlocks: 0,
          opsBlocks: 0,
        }
      : {
          rounds: 5,
          duration: 4,
          warmup: 3,
          // Blocks, not rounds, make a paired interval narrow (src/harness/stats.mjs, blockedInterval):
          // 5 × 3 settles what 3 × 5 left open in the same ~100 s per scenario.
          pairedBlocks: 5,
          pairedRounds: o.longLived ? 0 : 3,
          quietSampleMs: 1000,
          quietMaxWaitMs: 60_000,
          retries: 3,
          budgetMs: Infinity,
          corunBlocks: 3,
          corunRuns: 2,
          corunDuration: 3,
          corunWarmup: 6,
        };
  return {
    ...d,
    connections: 50,
    slice: 1,
    turnMs: 20,
    pairedWarmup: 3,
    threshold: 0.1,
    opsScenarios: ['info', 'movies'],
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
let apiChecked;
function apiAvailable() {
  apiChecked ??= apiImports();
  return apiChecked;
}

function apiImports() {
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
const load = (server, scenario, seconds) => wrkScenario(server, scenario, seconds, opts.connections);

/**
 * One measured run of `scenario` against `server` (`servers`: every server alive on the server
 * core, whose CPU is not "other load"): req/s, latency, CPU µs per request split into user and
 * system time, read/write syscalls and bytes written per request (/proc/<pid>/io), peak RSS.
 */
async function timedRun(server, scenario, servers, seconds = opts.duration) {
  const u0 = readUsage(server.pid);
  const { w, l, cpuTicks, wrkTicks, rssReset } = await measured(server, servers, () =>
    load(server, scenario, seconds),
  );
  const u = u0 && usageDelta(u0, readUsage(server.pid) ?? u0);
  const mem = readMem(server.pid);
  const per = (x) => x / w.requests;
  const okStatus = statusesAsExpected(scenario, w);
  return {
    server: server.name,
    scenario: scenario.name,
    requests: w.requests,
    seconds: w.duration_us / 1e6,
    rps: w.requests / (w.duration_us / 1e6),
    latencyUs: w.latency_us,
    cpuUsPerReq: ((cpuTicks / CLK_TCK) * 1e6) / w.requests,
    userUsPerReq: u ? per((u.utime / CLK_TCK) * 1e6) : NaN,
    sysUsPerReq: u ? per((u.stime / CLK_TCK) * 1e6) : NaN,
    readCallsPerReq: u ? per(u.syscr) : NaN,
    writeCallsPerReq: u ? per(u.syscw) : NaN,
    bytesOutPerReq: u ? per(u.wchar) : NaN,
    switchesPerReq: u ? per(u.vcsw + u.ivcsw) : NaN,
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

/** One paired block's rounds, one line each, and the write syscalls per response wrk's count gave. */
function logPaired(mine) {
  for (const round of [...new Set(mine.map((x) => x.round))]) {
    const rs = mine.filter((x) => x.round === round);
    log(
      `  p${round + 1} ` +
        rs
          .map(
            (x) =>
              `${x.server} ${fmtInt(x.rps)} req/s ${x.cpuUsPerReq.toFixed(1)} µs` +
              (x.contaminated ? ' [contaminated]' : '') +
              (x.statusOk ? '' : ' [unexpected status]'),
          )
          .join(' | '),
    );
  }
  const first = mine.filter((x) => x.round === mine[0]?.round);
  if (first.length > 0)
    log(
      `  write syscalls per response: ${first.map((x) => `${x.server} ${x.writesPerResponse.toFixed(3)}`).join(', ')}`,
    );
}

// ---------------------------------------------------------------- main
async function main() {
  requireLinuxTwoCores();
  ensureWrk();
  // Keep the harness off the server's core.
  pinSelf();

  const wanted = opts.servers ?? ALL_SERVERS;
  const names = wanted.filter(
    (n) =>
      (ALL_SERVERS.includes(n) || OPTIONAL_SERVERS.includes(n)) && (!n.startsWith('api') || apiAvailable()),
  );
  const scenarios = SCENARIOS.filter((s) => !opts.scenarios || opts.scenarios.includes(s.name));
  log(
    `bench: servers ${names.join(', ')}; scenarios ${scenarios.map((s) => s.name).join(', ')}; ` +
      `standalone ${opts.rounds} round(s) × ${opts.duration} s after ${opts.warmup} s warm-up; ` +
      `paired ${opts.pairedBlocks} block(s) × ${opts.pairedRounds} round(s) × ${opts.slice} s in ${opts.turnMs} ms turns; ` +
      `${opts.connections} connections` +
      (opts.quick ? ' (quick)' : ''),
  );

  // Checks: every server answers the 19 checks before it is timed, on a process of its own that is
  // then stopped (the timed processes never see the checks' odd inputs), unless --long-lived.
  const passed = [];
  const longLived = [];
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
      await stopServer(s);
      continue;
    }
    log(`${name}: ${r.total - r.warnings.length}/${r.total} checks passed`);
    passed.push(name);
    if (opts.longLived) longLived.push(s);
    else await stopServer(s);
  }
  if (passed.length === 0) throw new Error('no server passed its checks');
  const servers = passed.map((name) => ({ name }));

  const samples = [];
  const coRuns = [];
  // A fresh sample: start (~0.5 s), warm-up, run; one quiet check per round.
  const runMs =
    (opts.longLived ? 0 : 500 + opts.warmup * 1000) +
    opts.duration * 1000 +
    150 +
    opts.quietSampleMs / servers.length;
  // One co-run block: per scenario, start two servers, warm both, co-run.
  const blockMs = (n) =>
    n * (1000 + opts.corunWarmup * 1000 + opts.corunRuns * (opts.corunDuration * 1000 + 100));
  // The operations pairs run on fewer scenarios (GET /info and POST /movies by default).
  const opsScenarios = scenarios.filter((s) => opts.opsScenarios.includes(s.name));
  const coRunPairs = CORUN_PAIRS.filter((pair) => pair.every((n) => passed.includes(n)));
  // The operations overhead (request log, otel without an SDK): @api variants co-run against @api.
  const opsBlocks = opts.opsBlocks ?? 2;
  const opsPairs = opsBlocks > 0 && passed.includes('api') ? OPS_PAIRS : [];
  // One paired scenario: start every server, a quiet check, each warmed alone, then the rounds.
  const pairedMs =
    opts.pairedRounds > 0
      ? 1500 +
        opts.quietSampleMs +
        servers.length * opts.pairedWarmup * 1000 +
        opts.pairedRounds * servers.length * opts.slice * 1000 * 1.05
      : 0;
  remainingMs =
    scenarios.length * servers.length * opts.rounds * runMs +
    opts.pairedBlocks * scenarios.length * pairedMs +
    (opts.longLived ? scenarios.length * servers.length * (opts.warmup * 1000 + 150) : 0) +
    coRunPairs.length * opts.corunBlocks * blockMs(scenarios.length) +
    opsPairs.length * opsBlocks * blockMs(opsScenarios.length);
  const phase = {
    rounds: opts.rounds,
    retries: opts.retries,
    warmup: opts.warmup,
    load,
    timedRun,
    waitQuiet,
    overBudget,
    onRetry: (s, sample) =>
      log(
        `  ${s.name}: contaminated (other load core0 ${pct(sample.otherCore0)}, core1 ${pct(sample.otherCore1)}), retrying`,
      ),
    onSample: (sample, s) => {
      remainingMs -= runMs;
      log(
        `  r${sample.round + 1} ${s.name.padEnd(8)} ${fmtInt(sample.rps).padStart(7)} req/s  p50 ${ms(sample.latencyUs.p50)}  ` +
          `p99 ${ms(sample.latencyUs.p99)}  cpu ${sample.cpuUsPerReq.toFixed(1)} µs/req ` +
          `(user ${sample.userUsPerReq.toFixed(1)}, sys ${sample.sysUsPerReq.toFixed(1)})  ` +
          `rss ${(sample.peakRssKb / 1024).toFixed(0)} MB` +
          (sample.contaminated ? '  [contaminated]' : '') +
          (sample.statusOk ? '' : `  [unexpected status: ${sample.statusErrors}]`) +
          (sample.socketErrors ? `  [socket errors: ${sample.socketErrors}]` : ''),
      );
    },
  };
  for (const scenario of scenarios) {
    log(`\n== ${scenario.name}: ${scenario.label}`);
    // A failure (a server that dies, a wrk run with no summary) keeps the samples taken so far and
    // the run goes on with the next scenario: noted in the report, not a lost run.
    const timed = [];
    // A fresh-process round is a block of its own; long-lived processes make one block.
    const keep = {
      ...phase,
      onSample: (sample, s) => (
        timed.push(opts.longLived ? { ...sample, block: 0 } : sample),
        phase.onSample(sample, s)
      ),
    };
    try {
      if (opts.longLived) await longLivedRounds({ ...keep, servers: longLived, scenario });
      else await freshRounds({ ...keep, names: passed, scenario, start: startBenchServer, stop: stopServer });
    } catch (e) {
      note(
        `standalone ${scenario.name} stopped after ${timed.length} sample(s): ${e.message.split('\n')[0]}`,
      );
    }
    if (opts.longLived) remainingMs -= servers.length * (opts.warmup * 1000 + 150);
    samples.push(...timed);
  }

  // Paired: the same servers alone on the core, taking turns of `--turn` ms, on fresh processes:
  // `--paired-blocks` blocks, each a new set of processes per scenario, the scenarios in turn.
  const pairedSamples = [];
  if (opts.pairedRounds > 0) {
    log(
      `\n== paired: ${opts.pairedBlocks} block(s) × ${opts.pairedRounds} round(s) of ${opts.slice} s per server ` +
        `in ${opts.turnMs} ms turns, after ${opts.pairedWarmup} s warm-up each`,
    );
    for (let block = 0; block < opts.pairedBlocks; block++) {
      for (const scenario of scenarios) {
        log(`-- ${scenario.name}, block ${block + 1}`);
        const mine = [];
        try {
          await pairedRounds({
            names: passed,
            scenario,
            rounds: opts.pairedRounds,
            warmup: opts.pairedWarmup,
            slice: opts.slice,
            turnMs: opts.turnMs,
            threshold: opts.threshold,
            retries: overBudget() ? 0 : opts.retries * 2,
            onRetry: (round, other) =>
              log(
                `  p${block * opts.pairedRounds + round + 1}: contaminated (other load core0 ${pct(other.core0)}, ` +
                  `core1 ${pct(other.core1)}), measured again`,
              ),
            start: startBenchServer,
            stop: stopServer,
            load,
            startLoad: (server, sc, seconds) => startWrkScenario(server, sc, seconds, opts.connections),
            statusOk: (w) => statusesAsExpected(scenario, w),
            waitQuiet,
            onSample: (sample) =>
              mine.push({ ...sample, block, round: block * opts.pairedRounds + sample.round }),
          });
        } catch (e) {
          note(
            `paired ${scenario.name} block ${block + 1} stopped after ${mine.length} sample(s): ` +
              e.message.split('\n')[0],
          );
        }
        remainingMs -= pairedMs;
        logPaired(mine);
        pairedSamples.push(...mine);
      }
    }
  }

  // Co-runs: @api and a baseline loaded at once, for ratios this machine's drift cannot skew; each
  // (block, scenario) on a fresh pair of processes (long-lived standalone servers are stopped first).
  stopAll();
  if (opts.corunBlocks > 0 && coRunPairs.length > 0)
    log(`\n== co-runs: ${opts.corunBlocks} block(s) of fresh processes per pair`);
  const corunPlan = [
    ...(opts.corunBlocks > 0
      ? coRunPairs.map((pair) => ({ pair, blocks: opts.corunBlocks, scs: scenarios }))
      : []),
    ...opsPairs.map((pair) => ({ pair, blocks: opsBlocks, scs: opsScenarios })),
  ];
  for (const { pair, blocks, scs } of corunPlan) {
    if (pair === opsPairs[0])
      log(
        `\n== operations overhead: ${blocks} block(s) per pair (${OPS_PAIRS.map((p) => p.join('/')).join(', ')})`,
      );
    // A failure in one pair (a server that dies, a wrk run with no summary) keeps the blocks that
    // finished and the phases before it: it is noted in the report, not a lost run.
    const runs = [];
    try {
      await coRunBlocks({
        pair,
        scenarios: scs,
        blocks,
        runs: opts.corunRuns,
        seconds: opts.corunDuration,
        warmupSeconds: opts.corunWarmup,
        start: startBenchServer,
        stop: stopServer,
        load,
        onBlock: (block, mine) => {
          runs.push(...mine);
          remainingMs -= blockMs(scs.length);
          for (const sc of scs) {
            const sum = coRunSummary(mine.filter((r) => r.scenario === sc.name));
            log(
              `  ${pair.join('+')} block ${block + 1} ${sc.name.padEnd(8)} CPU/request ${pair.join('/')} ×${sum.cpuRatio.toFixed(3)}, ` +
                `req/s ×${sum.rpsRatio.toFixed(3)}` +
                (mine.every((r) => r.statusOk) ? '' : '  [unexpected status]'),
            );
          }
        },
      });
    } catch (e) {
      note(`co-run ${pair.join('/')} stopped after ${runs.length} run(s): ${e.message.split('\n')[0]}`);
    }
    coRuns.push(...runs);
    for (const sc of scs) {
      const sum = coRunSummary(runs.filter((r) => r.scenario === sc.name));
      log(
        `  ${pair.join('+')} ${sc.name}: CPU/request ×${sum.cpuRatio.toFixed(2)} ` +
          `(90% interval ${sum.cpuInterval.map((x) => x.toFixed(2)).join('–')}), req/s ×${sum.rpsRatio.toFixed(2)}`,
      );
    }
  }
  stopAll();

  const meta = {
    date: new Date().toISOString(),
    quick: opts.quick,
    standalone: opts.standalone,
    settings: {
      rounds: opts.rounds,
      durationS: opts.duration,
      warmupS: opts.warmup,
      paired: {
        blocks: opts.pairedBlocks,
        rounds: opts.pairedRounds,
        sliceS: opts.slice,
        turnMs: opts.turnMs,
        warmupS: opts.pairedWarmup,
      },
      connections: opts.connections,
      wrkThreads: 1,
      serverCore: Number(SERVER_CORE),
      loadCore: Number(LOAD_CORE),
      contaminationThreshold: opts.threshold,
      retries: opts.retries,
      corunBlocks: opts.corunBlocks,
      opsBlocks,
      method: opts.longLived ? 'long-lived' : 'fresh',
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
  const { files, summary } = await writeReport({
    meta,
    scenarios,
    samples,
    pairedSamples,
    coRuns,
    outDir: opts.out,
  });
  log(`\nwrote ${files.map((f) => relative(process.cwd(), f)).join(', ')}`);
  const bad = [...samples, ...pairedSamples].filter((s) => !s.statusOk || s.socketErrors > 0).length;
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
