// Co-run: two servers under load at the same time, both pinned to the server core, one wrk each on
// the load core. Whatever slows this machine (a shared VM whose speed swings ±30% from one second
// to the next) slows both alike at every instant, so the ratio of their CPU per request is steady
// to a few percent, where back-to-back samples of one server are not. Both processes stay busy, so
// the scheduler splits the core evenly and the ratio of req/s is the inverse ratio of CPU per
// request. The standalone rounds in run.mjs stay the measure of each server's own req/s.
import { CLK_TCK, readProcTicks, readUsage, sleep, usageDelta } from './sys.mjs';
import { blockedInterval, median } from './harness/stats.mjs';
import { statusesAsExpected } from './scenarios.mjs';

/** The pairs co-run by default: @api against each baseline the targets name. */
export const CORUN_PAIRS = [
  ['api', 'raw'],
  ['api', 'fastify'],
];

/**
 * The overhead of production operations, co-run after the pairs above: each @api variant against
 * the same app without it. `api-log/api-pino`: core's request log on vs off, both logging through
 * pino to /dev/null (the target: ≤ 1.05 CPU per request). `api-log-core/api`: the request log
 * with a logger that drops the lines — core's own share of the first pair. `api-otel/api`:
 * @api/otel with no SDK registered vs no otel. `fastify-log/fastify`: Fastify's own logger on
 * (pino to /dev/null, its two lines per request) vs off, for scale. Issue 42: `api-signal/api`
 * (every operation binds `signal`), `api-deadline/api` (an app-wide deadline), `api-shed/api`
 * (load shedding on), `api-otel/api-otel-nometrics` (metrics on without an SDK: the target is no
 * measurable cost) and `api-metrics/api-otel-nometrics` (the metrics SDK recording: ≤ 1.05).
 */
export const OPS_PAIRS = [
  ['api-log', 'api-pino'],
  ['api-log-core', 'api'],
  ['api-otel', 'api'],
  ['fastify-log', 'fastify'],
  ['api-signal', 'api'],
  ['api-deadline', 'api'],
  ['api-shed', 'api'],
  ['api-otel', 'api-otel-nometrics'],
  ['api-metrics', 'api-otel-nometrics'],
];

/**
 * Co-runs `a` and `b` (running servers) on one scenario for `rounds` runs of `seconds`, after a
 * co-run warm-up of one run unless `warmup` is false. Resolves with one sample per round: each
 * server's CPU µs per request and req/s, and the ratios a/b.
 *
 * @param options `a`, `b` (servers: `name`, `pid`, `url`), `scenario`, `rounds`, `seconds`,
 *   `load(server, scenario, seconds)` (one wrk run, resolving with its summary), `warmup`
 */
export async function coRun({ a, b, scenario, rounds, seconds, load, warmup = true }) {
  // The two wrk processes start in turn, a's first in even rounds and b's first in odd ones.
  const both = async (round) => {
    if (round % 2 === 0) return Promise.all([load(a, scenario, seconds), load(b, scenario, seconds)]);
    const [wb, wa] = await Promise.all([load(b, scenario, seconds), load(a, scenario, seconds)]);
    return [wa, wb];
  };
  if (warmup) await both(0);
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    await sleep(100);
    const ta = readProcTicks(a.pid).self;
    const tb = readProcTicks(b.pid).self;
    const ua = readUsage(a.pid);
    const ub = readUsage(b.pid);
    const [wa, wb] = await both(round);
    const cpu = (pid, t0, w) => (((readProcTicks(pid).self - t0) / CLK_TCK) * 1e6) / w.requests;
    // Per request: user and system µs, read and write syscalls (/proc/<pid>/io), as in a standalone sample.
    const split = (pid, u0, w) => {
      const d = usageDelta(u0, readUsage(pid) ?? u0);
      const per = (x) => x / w.requests;
      return {
        userUs: per((d.utime / CLK_TCK) * 1e6),
        sysUs: per((d.stime / CLK_TCK) * 1e6),
        readCalls: per(d.syscr),
        writeCalls: per(d.syscw),
        switches: per(d.vcsw + d.ivcsw),
      };
    };
    const rps = (w) => w.requests / (w.duration_us / 1e6);
    const sample = {
      scenario: scenario.name,
      a: a.name,
      b: b.name,
      round,
      cpuA: cpu(a.pid, ta, wa),
      cpuB: cpu(b.pid, tb, wb),
      rpsA: rps(wa),
      rpsB: rps(wb),
      usageA: split(a.pid, ua, wa),
      usageB: split(b.pid, ub, wb),
      statusOk: [wa, wb].every((w) => statusesAsExpected(scenario, w)),
    };
    sample.cpuRatio = sample.cpuA / sample.cpuB;
    sample.rpsRatio = sample.rpsA / sample.rpsB;
    samples.push(sample);
  }
  return samples;
}

/**
 * Co-runs one pair in `blocks` of fresh processes: two processes of the same code can differ by a
 * few percent for as long as they live (memory placement, start order), so every (block, scenario)
 * starts a new pair (which one starts first alternates), warms both on that scenario only for
 * `warmupSeconds` (the two share the core, so this is about half that many seconds of a server
 * alone), co-runs it `runs` times and stops them: the same history as a standalone sample, whose
 * warm-up is half as long. Resolves with every sample, with its `block`.
 *
 * @param options `pair` (`[a, b]` server names), `scenarios`, `blocks`, `runs`, `seconds`,
 *   `warmupSeconds`, `start(name)` (resolves with a running server), `stop(server)`, `load`,
 *   `onBlock(block, samples)` (progress)
 */
export async function coRunBlocks({
  pair,
  scenarios,
  blocks,
  runs,
  seconds,
  warmupSeconds,
  start,
  stop,
  load,
  onBlock,
}) {
  const [a, b] = pair;
  const samples = [];
  for (let block = 0; block < blocks; block++) {
    const mine = [];
    for (const scenario of scenarios) {
      const started = {};
      try {
        for (const name of block % 2 === 0 ? [a, b] : [b, a]) started[name] = await start(name);
        await Promise.all([
          load(started[a], scenario, warmupSeconds),
          load(started[b], scenario, warmupSeconds),
        ]);
        const r = await coRun({
          a: started[a],
          b: started[b],
          scenario,
          rounds: runs,
          seconds,
          load,
          warmup: false,
        });
        mine.push(...r.map((sample) => ({ ...sample, block, round: block * runs + sample.round })));
      } finally {
        await Promise.all(Object.values(started).map((s) => stop(s)));
      }
    }
    samples.push(...mine);
    onBlock?.(block, mine);
  }
  return samples;
}

/**
 * Median of the co-run ratios of one (scenario, a, b), with a 90% confidence interval (of that
 * median, or of the blocks' mean where wider: `cpuInterval`, `rpsInterval`: `[lo, hi]`;
 * `blockedInterval` in src/harness/stats.mjs) and how many `blocks` (fresh pairs) it rests on.
 */
export function coRunSummary(samples) {
  // A run in which one server answered nothing (0/0) has no ratio: left out.
  const of = (field) => {
    const kept = samples.filter((s) => Number.isFinite(s[field]));
    const ci = blockedInterval(
      kept.map((s) => s[field]),
      kept.map((s) => s.block ?? 0),
    );
    return { value: median(kept.map((s) => s[field])), interval: [ci.lo, ci.hi], blocks: ci.blocks };
  };
  const cpu = of('cpuRatio');
  const rps = of('rpsRatio');
  return {
    rounds: samples.length,
    blocks: Math.min(cpu.blocks, rps.blocks),
    cpuRatio: cpu.value,
    cpuInterval: cpu.interval,
    rpsRatio: rps.value,
    rpsInterval: rps.interval,
  };
}
