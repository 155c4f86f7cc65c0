// What a server's idle time between `ready` and its first request changes (issue 27): each server
// as fresh processes under V8's sampling profiler, left idle for each `--idle` length after it is
// ready, then warmed up and measured, as a standalone sample. Per process: the share of its busy
// time spent in Node's `process.nextTick` (node:internal/process/task_queues), which a Fastify
// process left idle after boot keeps at ~11% for life instead of ~1% (SETTLE_MS in
// src/harness/processes.mjs), and its CPU per request in the measured run (a sequential sample:
// this VM's ±25% drift is in it; the share is the steady signal).
//
// Usage: pnpm --filter @api/bench settle [--servers raw,fastify,api] [--scenario info]
//          [--idle 0,1000] [--reps 3] [--warmup 3] [--duration 4] [--out DIR]
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS } from './scenarios.mjs';
import { schedNs, sleep } from './sys.mjs';
import { median } from './harness/stats.mjs';
import {
  argOf,
  BENCH,
  cpuProfileArgs,
  fileStamp,
  prepareServerBench,
  r2,
  readCpuProfile,
  selfTimeShare,
  startServer,
  stopAll,
  stopProfiled,
  stopServer,
  writeResults,
  wrkScenario,
} from './harness/index.mjs';

/** Node's own `process.nextTick` (not a framework's function of the same name). */
export const isNextTick = (frame) =>
  frame.functionName === 'nextTick' && frame.url === 'node:internal/process/task_queues';

const arg = (name, fallback) => argOf(process.argv, name, fallback);

async function main() {
  const names = arg('servers', 'raw,fastify,api').split(',');
  const scenario = SCENARIOS.find((s) => s.name === arg('scenario', 'info'));
  const idles = arg('idle', '0,1000').split(',').map(Number);
  const reps = Number(arg('reps', 3));
  const warmup = Number(arg('warmup', 3));
  const duration = Number(arg('duration', 4));
  const out = arg('out', join(BENCH, 'results'));
  prepareServerBench();
  const dir = join(tmpdir(), `api-settle-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const rows = [];
  try {
    for (let rep = 0; rep < reps; rep++) {
      for (const idleMs of rep % 2 ? [...idles].reverse() : idles) {
        for (const name of names) {
          const profDir = join(dir, `${name}-${idleMs}-${rep}`);
          const server = await startServer({
            name,
            script: join(BENCH, 'servers', `${name}.mjs`),
            env: { HOST: '127.0.0.1' },
            nodeArgs: cpuProfileArgs(dir, profDir),
          });
          await sleep(idleMs);
          await wrkScenario(server, scenario, warmup);
          const ns0 = schedNs(server.pid);
          const run = await wrkScenario(server, scenario, duration);
          const cpuUsPerReq = (schedNs(server.pid) - ns0) / 1e3 / run.requests;
          await stopProfiled(server.child);
          await stopServer(server);
          const saved = readCpuProfile(profDir);
          const nextTickShare = saved ? selfTimeShare(saved.profile, isNextTick) : NaN;
          rows.push({ server: name, idleMs, rep, nextTickShare, cpuUsPerReq });
          console.log(
            `${name.padEnd(8)} idle ${String(idleMs).padStart(5)} ms  nextTick ${(100 * nextTickShare).toFixed(1)}% of busy time  ` +
              `${cpuUsPerReq.toFixed(1)} µs/request`,
          );
        }
      }
    }
  } finally {
    stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
  const of = (name, idleMs, key) =>
    rows.filter((r) => r.server === name && r.idleMs === idleMs).map((r) => r[key]);
  const shares = (name, idleMs) =>
    of(name, idleMs, 'nextTickShare')
      .map((x) => `${(100 * x).toFixed(1)}%`)
      .join(', ');
  const md = [
    `# Idle after ready (${new Date().toISOString()})`,
    '',
    `\`${scenario.label}\`: fresh processes under \`--cpu-prof\`, idle for the given time after \`ready\`, then ${warmup} s ` +
      `of warm-up and a ${duration} s \`wrk -t1 -c50\` run; ${reps} process(es) per cell. \`process.nextTick\`: its self ` +
      "time's share of each process's busy time (its whole life, warm-up included; a Fastify process in the slow " +
      'state is at ~10%, one out of it at ~1%); CPU per request: the median of the measured runs (sequential samples).',
    '',
    `| server | ${idles.map((i) => `nextTick, idle ${i} ms`).join(' | ')} | ${idles.map((i) => `µs/request, idle ${i} ms`).join(' | ')} |`,
    `|---|${idles.map(() => '---:').join('|')}|${idles.map(() => '---:').join('|')}|`,
    ...names.map(
      (n) =>
        `| ${n} | ${idles.map((i) => shares(n, i)).join(' | ')} | ` +
        `${idles.map((i) => r2(median(of(n, i, 'cpuUsPerReq')))).join(' | ')} |`,
    ),
    '',
  ].join('\n');
  writeResults(
    join(out, `settle-${fileStamp(new Date().toISOString())}`),
    { scenario: scenario.name, idles, reps, rows },
    md,
  );
  console.log(`\n${md}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
