// Paired A/B: two servers, many short alternating samples, so this machine's second-to-second drift
// hits both alike. Reports the median of per-pair ratios (server CPU µs/request and req/s).
// With --corun, the two servers are loaded at the same time instead (see corun.mjs): steadier ratios.
// Usage: pnpm --filter @api/bench ab [--a api] [--b raw] [--scenario info] [--pairs 15] [--duration 1]
//          [--mixed] [--corun]
import { SCENARIOS } from './scenarios.mjs';
import { readProcTicks, CLK_TCK, sleep } from './sys.mjs';
import { argOf, stopAll, wrk } from './harness/index.mjs';
import { startBenchServer } from './servers.mjs';
import { coRun, coRunSummary } from './corun.mjs';

const arg = (name, fallback) => argOf(process.argv, name, fallback);
const A = arg('a', 'api');
const B = arg('b', 'raw');
const scenarioNames = arg('scenario', 'info,movies').split(',');
const PAIRS = Number(arg('pairs', 15));
const DURATION = Number(arg('duration', 1));

const start = (name, port) => startBenchServer(name, { port });

/** One `wrk -t1 -c50` run of `scenario` (wrk's default timeout). */
const load = (server, scenario) =>
  wrk({
    url: server.url + scenario.path,
    seconds: DURATION,
    method: scenario.method,
    body: scenario.body,
    auth: scenario.auth,
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const servers = { [A]: await start(A, 18700), [B]: await start(B, 18701) };
try {
  for (const name of scenarioNames) {
    const scenario = SCENARIOS.find((s) => s.name === name);
    // warm-up; --mixed first sends every scenario (as the main harness's checks do) so type feedback is realistic
    if (process.argv.includes('--mixed'))
      for (const other of SCENARIOS) for (const s of [A, B]) await load(servers[s], other);
    for (const s of [A, B]) await load(servers[s], scenario);
    if (process.argv.includes('--corun')) {
      const runs = await coRun({
        a: servers[A],
        b: servers[B],
        scenario,
        rounds: PAIRS,
        seconds: DURATION,
        load: (server, sc) => load(server, sc),
      });
      const sum = coRunSummary(runs);
      const q = ([lo, hi]) => `${lo.toFixed(3)}–${hi.toFixed(3)}`;
      console.log(
        `${name}: co-run ${A}/${B} server CPU per request ×${sum.cpuRatio.toFixed(3)} (90% interval ${q(sum.cpuInterval)}, ${PAIRS} runs of ${DURATION} s), req/s ×${sum.rpsRatio.toFixed(3)}` +
          (runs.every((r) => r.statusOk) ? '' : ' [unexpected status]'),
      );
      continue;
    }
    const cpuRatio = [];
    const rpsRatio = [];
    const cpu = { [A]: [], [B]: [] };
    for (let i = 0; i < PAIRS; i++) {
      const order = i % 2 === 0 ? [A, B] : [B, A];
      const sample = {};
      for (const s of order) {
        const t0 = readProcTicks(servers[s].pid).self;
        const w = await load(servers[s], scenario);
        const t1 = readProcTicks(servers[s].pid).self;
        sample[s] = {
          us: (((t1 - t0) / CLK_TCK) * 1e6) / w.requests,
          rps: w.requests / (w.duration_us / 1e6),
        };
        cpu[s].push(sample[s].us);
        await sleep(50);
      }
      cpuRatio.push(sample[A].us / sample[B].us);
      rpsRatio.push(sample[A].rps / sample[B].rps);
    }
    console.log(
      `${name}: ${A}/${B} server CPU per request ×${median(cpuRatio).toFixed(2)} (median of ${PAIRS} pairs; ${A} ${median(cpu[A]).toFixed(1)} µs, ${B} ${median(cpu[B]).toFixed(1)} µs), req/s ×${median(rpsRatio).toFixed(2)}`,
    );
  }
} finally {
  stopAll();
}
