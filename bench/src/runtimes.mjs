#!/usr/bin/env node
// `pnpm bench --runtimes`: @api's `app.fetch` on other runtimes and adapters, on GET /info and
// POST /movies (the same routes, handlers and validation as the Node servers).
// - Bun (the pinned binary of scripts/runtimes): `Bun.serve({ fetch: app.fetch })` (bun-api) vs
//   Hono on `Bun.serve` (bun-hono) and Elysia 1.4 (bun-elysia).
// - Deno (the pinned binary of scripts/runtimes): `Deno.serve(app.fetch)` (deno-api) vs Hono on
//   `Deno.serve` (deno-hono).
// - workerd (the pinned binary of scripts/runtimes): a Worker module `{ fetch: app.fetch }`
//   (workerd-api) vs Hono's `export default app` (workerd-hono), each bundled by esbuild.
// - Node: `app.fetch` through @hono/node-server (api-fetch) vs `serve()` on node:http (api), the
//   recommended path there: the figure that shows what the Request/Response translation costs.
// Ends with one line: `runtimes: bun info api/hono <r> api/elysia <r>, movies …; deno info api/hono
// <r>, movies api/hono <r>; workerd info api/hono <r>, movies api/hono <r>` (req/s ratios, standalone: the median of per-round ratios and its
// 90% interval). `--micro` also runs src/fetch-micro.mjs (app.fetch in-process, api/hono
// alternating in one process) on Node, Bun and Deno first.
// Same method as `pnpm bench`: checks on processes of their own, then standalone rounds of fresh
// processes (rotating order; each started, warmed up, one run, stopped), then co-runs of each pair
// (fresh pair per block and scenario). Writes results/runtimes-<date>.{md,json}.
// Usage: pnpm bench --runtimes [--rounds 3] [--duration 4] [--warmup 3] [--corun-blocks 2]
//          [--corun-runs 2] [--corun-duration 3] [--corun-warmup 6] [--scenarios info,movies]
//          [--servers api,api-fetch,bun-api,bun-hono,bun-elysia,deno-api,deno-hono,workerd-api,workerd-hono]
//          [--threshold 0.1]
//          [--out DIR] [--micro]
import os from 'node:os';
import { join } from 'node:path';
import { SCENARIOS, runChecks, statusesAsExpected } from './scenarios.mjs';
import { CLK_TCK, readMem, readUsage, usageDelta } from './sys.mjs';
import { median, medianInterval } from './harness/stats.mjs';
import { roundRatios } from './report.mjs';
import { coRunBlocks, coRunSummary } from './corun.mjs';
import { freshRounds } from './standalone.mjs';
import { runtimeOf, startBenchServer } from './servers.mjs';
import {
  BENCH,
  fileStamp,
  int,
  measured,
  packageVersion,
  parseFlags,
  pct,
  prepareServerBench,
  r2,
  runMeta,
  socketErrors,
  stopAll,
  stopServer,
  waitQuietCores,
  writeResults,
  wrkScenario,
} from './harness/index.mjs';
import { spawnSync } from 'node:child_process';

const opts = {
  rounds: 3,
  duration: 4,
  warmup: 3,
  corunBlocks: 2,
  corunRuns: 2,
  corunDuration: 3,
  corunWarmup: 6,
  scenarios: ['info', 'movies'],
  servers: [
    'api',
    'api-fetch',
    'bun-api',
    'bun-hono',
    'bun-elysia',
    'deno-api',
    'deno-hono',
    'workerd-api',
    'workerd-hono',
  ],
  threshold: 0.1,
  out: join(BENCH, 'results'),
  ...parseFlags(
    process.argv.slice(2).filter((a) => a !== '--runtimes' && a !== '--micro'),
    {
      '--rounds': ['rounds', 'number'],
      '--duration': ['duration', 'number'],
      '--warmup': ['warmup', 'number'],
      '--corun-blocks': ['corunBlocks', 'number'],
      '--corun-runs': ['corunRuns', 'number'],
      '--corun-duration': ['corunDuration', 'number'],
      '--corun-warmup': ['corunWarmup', 'number'],
      '--scenarios': ['scenarios', 'list'],
      '--servers': ['servers', 'list'],
      '--out': ['out', 'string'],
      '--threshold': ['threshold', 'number'],
    },
  ),
};

/** The pairs compared (a/b): each @api transport against its peers on the same runtime. */
const PAIRS = [
  ['api-fetch', 'api'],
  ['bun-api', 'bun-hono'],
  ['bun-api', 'bun-elysia'],
  ['deno-api', 'deno-hono'],
  ['workerd-api', 'workerd-hono'],
];
const RUNTIME_LABEL = {
  api: 'Node, serve() (node:http)',
  'api-fetch': 'Node, app.fetch on @hono/node-server',
  'bun-api': 'Bun, Bun.serve({ fetch: app.fetch })',
  'bun-hono': 'Bun, Hono on Bun.serve',
  'bun-elysia': 'Bun, Elysia',
  'deno-api': 'Deno, Deno.serve(app.fetch)',
  'deno-hono': 'Deno, Hono on Deno.serve',
  'workerd-api': 'workerd, a Worker module { fetch: app.fetch }',
  'workerd-hono': 'workerd, Hono (export default app)',
};

const log = (...a) => console.log(...a);
const notes = [];
const load = (server, scenario, seconds) => wrkScenario(server, scenario, seconds);
const waitQuiet = (servers) =>
  waitQuietCores(servers, { sampleMs: 1000, maxWaitMs: 60_000, threshold: opts.threshold });

async function timedRun(server, scenario, servers) {
  const u0 = readUsage(server.pid);
  const { w, l, cpuTicks } = await measured(server, servers, () => load(server, scenario, opts.duration));
  const u = usageDelta(u0, readUsage(server.pid) ?? u0);
  const n = w.requests;
  return {
    server: server.name,
    scenario: scenario.name,
    requests: n,
    rps: n / (w.duration_us / 1e6),
    latencyUs: w.latency_us,
    cpuUsPerReq: ((cpuTicks / CLK_TCK) * 1e6) / n,
    userUsPerReq: ((u.utime / CLK_TCK) * 1e6) / n,
    sysUsPerReq: ((u.stime / CLK_TCK) * 1e6) / n,
    peakRssKb: readMem(server.pid).hwmKb,
    statusOk: statusesAsExpected(scenario, w),
    socketErrors: socketErrors(w),
    otherCore0: l.core0,
    otherCore1: l.core1,
    contaminated: Math.max(l.core0, l.core1) > opts.threshold,
  };
}

function markdown(meta, scenarios, samples, coRuns, versions) {
  const L = [`# Runtimes: app.fetch on Bun, Deno, workerd and Node (${meta.date})`, ''];
  L.push(
    `Node ${meta.node}, Bun ${versions.bun}, Deno ${versions.deno}, workerd ${versions.workerd}, ${meta.cpu}; server pinned to core 0, wrk (1 thread, 50 connections) ` +
      `to core 1. Standalone: ${opts.rounds} round(s), each server in turn a fresh process (${opts.warmup} s warm-up, ` +
      `one ${opts.duration} s run). Co-runs: ${opts.corunBlocks} block(s) per pair, a fresh pair per scenario, ` +
      `${opts.corunWarmup} s warm-up together, ${opts.corunRuns} run(s) of ${opts.corunDuration} s. ` +
      `Versions: hono ${versions.hono}, elysia ${versions.elysia}, @hono/node-server ${versions['@hono/node-server']}.`,
    '',
  );
  const q = (xs) => {
    const { lo, hi } = medianInterval(xs);
    return xs.length ? `${r2(median(xs))} (${r2(lo)}–${r2(hi)})` : 'n/a';
  };
  for (const sc of scenarios) {
    const mine = samples.filter((s) => s.scenario === sc.name);
    L.push(`## ${sc.name}: ${sc.label}`, '');
    L.push(
      '| server | runtime | req/s (median) | min–max | p99 ms | CPU µs/req | user µs | system µs | peak RSS MB | samples |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    for (const name of meta.servers) {
      const rs = mine.filter((s) => s.server === name);
      if (!rs.length) continue;
      const m = (k) => median(rs.map((r) => r[k]));
      const bad = rs.filter((r) => !r.statusOk || r.socketErrors).length;
      const dirty = rs.filter((r) => r.contaminated).length;
      L.push(
        `| ${name} | ${RUNTIME_LABEL[name]} | ${int(m('rps'))} | ${int(Math.min(...rs.map((r) => r.rps)))}–${int(Math.max(...rs.map((r) => r.rps)))} | ` +
          `${(median(rs.map((r) => r.latencyUs.p99)) / 1000).toFixed(2)} | ${m('cpuUsPerReq').toFixed(1)} | ` +
          `${m('userUsPerReq').toFixed(1)} | ${m('sysUsPerReq').toFixed(1)} | ${(Math.max(...rs.map((r) => r.peakRssKb)) / 1024).toFixed(1)} | ` +
          `${rs.length}${dirty ? `, ${dirty} contaminated` : ''}${bad ? `, ${bad} with unexpected statuses/socket errors` : ''} |`,
      );
    }
    L.push('');
    L.push(
      '| pair a/b | req/s ×b, standalone (median of per-round ratios, 90% interval) | req/s ×b, co-run | CPU/request ×b, standalone | CPU/request ×b, co-run |',
      '|---|---:|---:|---:|---:|',
    );
    for (const [a, b] of PAIRS) {
      const co = coRuns.filter((r) => r.scenario === sc.name && r.a === a && r.b === b);
      if (!mine.some((s) => s.server === a) && !co.length) continue;
      const cs = co.length ? coRunSummary(co) : undefined;
      const cq = (m, [lo, hi]) => `${r2(m)} (${r2(lo)}–${r2(hi)})`;
      L.push(
        `| ${a}/${b} | ${q(roundRatios(mine, a, b, 'rps'))} | ${cs ? cq(cs.rpsRatio, cs.rpsInterval) : 'n/a'} | ` +
          `${q(roundRatios(mine, a, b, 'cpuUsPerReq'))} | ${cs ? cq(cs.cpuRatio, cs.cpuInterval) : 'n/a'} |`,
      );
    }
    L.push('');
  }
  for (const n of notes) L.push(`- ${n}`);
  L.push('');
  return L.join('\n');
}

/** A ratio with its interval, `1.04 (0.98–1.10)`, or `n/a`. */
function ratioText(xs) {
  if (!xs.length) return 'n/a';
  const { lo, hi } = medianInterval(xs);
  return `${r2(median(xs))} (${r2(lo)}–${r2(hi)})`;
}

/** The last line: req/s ratios of @api against its peers on Bun, Deno and workerd, per scenario (standalone). */
function summaryLine(samples) {
  const pair = (sc, a, b) =>
    ratioText(
      roundRatios(
        samples.filter((s) => s.scenario === sc),
        a,
        b,
        'rps',
      ),
    );
  const bun = ['info', 'movies']
    .map(
      (sc) =>
        `${sc} api/hono ${pair(sc, 'bun-api', 'bun-hono')} api/elysia ${pair(sc, 'bun-api', 'bun-elysia')}`,
    )
    .join(', ');
  const deno = ['info', 'movies']
    .map((sc) => `${sc} api/hono ${pair(sc, 'deno-api', 'deno-hono')}`)
    .join(', ');
  const workerd = ['info', 'movies']
    .map((sc) => `${sc} api/hono ${pair(sc, 'workerd-api', 'workerd-hono')}`)
    .join(', ');
  return `runtimes: bun ${bun}; deno ${deno}; workerd ${workerd}`;
}

/** `--micro`: app.fetch in-process on each runtime (api/hono alternating in one process). */
function micro() {
  const runs = [
    ['node', { path: process.execPath, args: [] }],
    ['bun', runtimeOf('bun-api')],
    ['deno', runtimeOf('deno-api')],
  ];
  for (const [name, rt] of runs) {
    if (!rt.path) {
      log(`fetch-micro ${name}: skipped (${rt.why})`);
      continue;
    }
    const r = spawnSync(rt.path, [...(rt.args ?? []), join(BENCH, 'src', 'fetch-micro.mjs')], {
      cwd: BENCH,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    log((r.stdout || r.stderr).trim());
  }
}

async function main() {
  prepareServerBench();
  if (process.argv.includes('--micro')) micro();
  const loadBefore = os.loadavg();
  const scenarios = SCENARIOS.filter((s) => opts.scenarios.includes(s.name));
  const names = [];
  for (const name of opts.servers) {
    const rt = runtimeOf(name);
    if (!rt.path) {
      notes.push(`${name} skipped: ${rt.why}`);
      log(`${name} skipped: ${rt.why}`);
      continue;
    }
    let s;
    try {
      s = await startBenchServer(name);
    } catch (e) {
      notes.push(`${name} did not start: ${e.message}`);
      continue;
    }
    const r = await runChecks(s.url);
    await stopServer(s);
    for (const w of r.warnings) notes.push(`${name} check warning: ${w}`);
    if (r.failures.length) {
      notes.push(
        `${name} failed ${r.failures.length}/${r.total} checks: not timed (${r.failures.join('; ')})`,
      );
      log(`${name}: failed checks`, r.failures);
      continue;
    }
    log(`${name}: ${r.total}/${r.total} checks passed`);
    names.push(name);
  }
  const samples = [];
  for (const scenario of scenarios) {
    log(`\n== ${scenario.name}: ${scenario.label}`);
    samples.push(
      ...(await freshRounds({
        names,
        scenario,
        rounds: opts.rounds,
        retries: 2,
        warmup: opts.warmup,
        start: startBenchServer,
        stop: stopServer,
        load,
        timedRun,
        waitQuiet,
        overBudget: () => false,
        onRetry: (s, x) =>
          log(`  ${s.name}: contaminated (core0 ${pct(x.otherCore0)}, core1 ${pct(x.otherCore1)}), retrying`),
        onSample: (x) =>
          log(
            `  r${x.round + 1} ${x.server.padEnd(10)} ${int(x.rps).padStart(7)} req/s  cpu ${x.cpuUsPerReq.toFixed(1)} µs/req ` +
              `(user ${x.userUsPerReq.toFixed(1)}, sys ${x.sysUsPerReq.toFixed(1)})` +
              (x.contaminated ? '  [contaminated]' : '') +
              (x.statusOk && !x.socketErrors ? '' : '  [unexpected status or socket errors]'),
          ),
      })),
    );
  }
  const coRuns = [];
  if (opts.corunBlocks > 0)
    for (const pair of PAIRS.filter((p) => p.every((n) => names.includes(n)))) {
      log(`\n== co-run ${pair.join('/')}`);
      const runs = await coRunBlocks({
        pair,
        scenarios,
        blocks: opts.corunBlocks,
        runs: opts.corunRuns,
        seconds: opts.corunDuration,
        warmupSeconds: opts.corunWarmup,
        start: startBenchServer,
        stop: stopServer,
        load,
      });
      coRuns.push(...runs);
      for (const sc of scenarios) {
        const sum = coRunSummary(runs.filter((r) => r.scenario === sc.name));
        log(`  ${sc.name}: CPU/request ×${sum.cpuRatio.toFixed(2)}, req/s ×${sum.rpsRatio.toFixed(2)}`);
      }
    }
  stopAll();
  const bun = runtimeOf('bun-api');
  const deno = runtimeOf('deno-api');
  const workerd = runtimeOf('workerd-api');
  const versions = {
    bun: bun.path ? spawnSync(bun.path, ['--version'], { encoding: 'utf8' }).stdout.trim() : 'n/a',
    deno: deno.path
      ? (/deno (\S+)/.exec(spawnSync(deno.path, ['--version'], { encoding: 'utf8' }).stdout)?.[1] ?? 'n/a')
      : 'n/a',
    workerd: workerd.path
      ? spawnSync(workerd.path, ['--version'], { encoding: 'utf8' })
          .stdout.trim()
          .replace(/^workerd /, '')
      : 'n/a',
    hono: packageVersion('hono'),
    elysia: packageVersion('elysia'),
    '@hono/node-server': packageVersion('@hono/node-server'),
  };
  const meta = { ...runMeta(loadBefore), servers: names, options: opts, versions };
  const base = join(opts.out, `runtimes-${fileStamp(meta.date)}`);
  writeResults(base, { meta, samples, coRuns }, markdown(meta, scenarios, samples, coRuns, versions));
  log(`wrote ${base}.md`);
  log(summaryLine(samples));
  if (samples.some((s) => !s.statusOk || s.socketErrors)) process.exitCode = 1;
}

await main().catch((e) => {
  stopAll();
  console.error(e.stack ?? e);
  process.exit(1);
});
