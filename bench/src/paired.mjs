// The paired phase of `pnpm bench`: every server alone on the server core, as in the standalone
// phase, but taking turns with the others every few milliseconds, so a ratio compares servers
// measured in the same instants. This VM's speed swings ±25% between seconds (raw node:http's CPU
// per request ranged 33–64 µs between 4 s samples of one run): samples seconds apart carry that
// swing into every ratio, where turns of 20 ms, back to back, share it.
//
// Per scenario: one fresh process per server, each warmed up alone; then each is loaded by its
// own wrk for the whole phase (connections stay open), and all but one are stopped (SIGSTOP): the
// servers take turns of `turnMs` on the core, in rotating order, `slice` seconds each per round.
// A stopped process uses nothing and sees no idle time (its timers and V8's memory reducer are
// frozen with it); a process resumed after 40 ms has lost little of its cache (an L2 refill is
// ~0.1 ms). A round's figures are read from /proc while every server is stopped: CPU time from
// schedstat (ns, all threads, stolen time excluded), responses from write syscalls (one `writev`
// per response; calibrated against wrk's count over the phase), req/s over the turns' wall time.
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { otherLoad, rotated, snapshot } from './harness/load.mjs';
import { socketErrors } from './harness/processes.mjs';
import { readMem, readUsage, schedNs, sleep } from './sys.mjs';

const NO_LATENCY = { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };

/** Resolves once `pid` is stopped (state `T`); throws if it does not stop within a second. */
async function stopped(pid) {
  process.kill(pid, 'SIGSTOP');
  const until = performance.now() + 1000;
  for (;;) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat[stat.lastIndexOf(')') + 2];
    if (state === 'T' || state === 't') return;
    if (performance.now() > until) throw new Error(`process ${pid} did not stop (state ${state})`);
    await new Promise((r) => setImmediate(r));
  }
}

/** One turn: `pid` runs alone for ~`ms`; resolves with the wall time from resume to stopped. */
async function turn(pid, ms) {
  const t0 = performance.now();
  process.kill(pid, 'SIGCONT');
  await sleep(ms);
  await stopped(pid);
  return performance.now() - t0;
}

/** What a round reads of one stopped server: CPU ns and /proc usage. */
const reading = (pid) => ({ ns: schedNs(pid), usage: readUsage(pid) });

/**
 * One server's sample for one round, from its readings before and after (`{ ns, usage }`), the
 * wall time of its turns, and `perWrite` (responses per write syscall; 1 when uncalibrated).
 * Fields as the standalone phase's samples; latency is not measured (a stopped server's requests wait).
 */
export function roundSample({ server, scenario, round, before, after, wallMs, perWrite = 1, other }) {
  const d = (k) => after.usage[k] - before.usage[k];
  const requests = d('syscw') * perWrite;
  const cpuUs = (after.ns - before.ns) / 1e3;
  const ticks = d('utime') + d('stime');
  const per = (x) => x / requests;
  return {
    server,
    scenario,
    round,
    requests,
    seconds: wallMs / 1e3,
    rps: requests / (wallMs / 1e3),
    latencyUs: NO_LATENCY,
    cpuUsPerReq: per(cpuUs),
    userUsPerReq: ticks > 0 ? per((cpuUs * d('utime')) / ticks) : NaN,
    sysUsPerReq: ticks > 0 ? per((cpuUs * d('stime')) / ticks) : NaN,
    readCallsPerReq: per(d('syscr')),
    writeCallsPerReq: per(d('syscw')),
    bytesOutPerReq: per(d('wchar')),
    switchesPerReq: per(d('vcsw') + d('ivcsw')),
    serverCpuUtil: cpuUs / 1e3 / wallMs,
    otherCore0: other?.core0 ?? NaN,
    otherCore1: other?.core1 ?? NaN,
    irqCore0: other?.irq0 ?? NaN,
    irqCore1: other?.irq1 ?? NaN,
  };
}

/**
 * Rounds of turns for one scenario on fresh processes. Samples (`roundSample`'s fields plus
 * `peakRssKb`, `statusOk`, `statusErrors`, `socketErrors`, `contaminated`, `writesPerResponse`)
 * go to `onSample` once the phase's wrk runs have ended, also when a failure ends it early (then
 * uncalibrated and `statusOk: false`, and the error is thrown after).
 *
 * @param options `names` (server names), `scenario`, `rounds`, `warmup` (s, each server alone),
 *   `slice` (s per server and round), `turnMs`, `threshold` (other load that contaminates a round),
 *   `retries` (contaminated rounds measured again, per block), `onRetry(round, otherLoad)`,
 *   `start(name)`, `stop(server)`, `load(server, scenario, seconds)` (the warm-up),
 *   `startLoad(server, scenario, seconds)` (`{ pid, done, interrupt }`), `statusOk(summary)`,
 *   `waitQuiet(running)`, `onSample(sample, server)`
 */
export async function pairedRounds({
  names,
  scenario,
  rounds,
  warmup,
  slice,
  turnMs,
  threshold,
  retries = 0,
  onRetry,
  start,
  stop,
  load,
  startLoad,
  statusOk,
  waitQuiet,
  onSample,
}) {
  const running = [];
  const loads = [];
  const kept = [];
  const turnsPerRound = Math.max(1, Math.round((slice * 1000) / turnMs));
  let failure;
  let summaries = [];
  let writes0 = [];
  let writes1 = [];
  let rss = [];
  try {
    for (const name of names) running.push(await start(name));
    await waitQuiet(running);
    for (const server of running) await load(server, scenario, warmup);
    for (const server of running) await stopped(server.pid);
    writes0 = running.map((s) => readUsage(s.pid).syscw);
    const seconds = Math.ceil((rounds + retries + 1) * running.length * slice * 1.5) + 30;
    for (const server of running) {
      const l = startLoad(server, scenario, seconds);
      l.done.catch(() => {}); // settled below, after the rounds; a wrk that fails early must not crash the run
      loads.push(l);
    }
    // Unmeasured turns first: every server accepts its wrk's connections and gets going.
    for (let k = 0; k < Math.min(10, turnsPerRound); k++)
      for (const server of rotated(running, k)) await turn(server.pid, turnMs);
    const pids = loads.map((l) => l.pid);
    let retried = 0;
    for (let round = 0; round < rounds; ) {
      const before = running.map((s) => reading(s.pid));
      const snap = snapshot(running, pids);
      const wallMs = running.map(() => 0);
      for (let k = 0; k < turnsPerRound; k++)
        for (const server of rotated(running, k + round))
          wallMs[running.indexOf(server)] += await turn(server.pid, turnMs);
      const other = otherLoad(snap, snapshot(running, pids), running);
      const after = running.map((s) => reading(s.pid));
      // Other load on either core (the host's, another process's): the round is measured again,
      // up to `retries` times per block, as a standalone sample would be; then kept and flagged.
      if (Math.max(other.core0, other.core1) > threshold && retried < retries) {
        retried++;
        onRetry?.(round, other);
        continue;
      }
      running.forEach((server, i) =>
        kept.push({ server, before: before[i], after: after[i], wallMs: wallMs[i], round, other }),
      );
      round++;
    }
  } catch (e) {
    failure = e;
  } finally {
    for (const server of running) {
      try {
        process.kill(server.pid, 'SIGCONT');
      } catch {
        /* gone */
      }
    }
    for (const l of loads) l.interrupt();
    summaries = await Promise.allSettled(loads.map((l) => l.done));
    writes1 = running.map((s) => readUsage(s.pid)?.syscw ?? NaN);
    rss = running.map((s) => readMem(s.pid).hwmKb);
    await Promise.all(running.map((s) => stop(s)));
  }
  const lost = summaries.find((x) => x.status === 'rejected');
  failure ??= lost?.reason;
  running.forEach((server, i) => {
    const w = summaries[i]?.status === 'fulfilled' ? summaries[i].value : undefined;
    const writes = writes1[i] - writes0[i];
    const calibrated = w !== undefined && writes > 0;
    const perWrite = calibrated ? w.requests / writes : 1;
    for (const k of kept.filter((x) => x.server === server)) {
      const sample = roundSample({
        server: server.name,
        scenario: scenario.name,
        round: k.round,
        before: k.before,
        after: k.after,
        wallMs: k.wallMs,
        perWrite,
        other: k.other,
      });
      onSample(
        {
          ...sample,
          writesPerResponse: calibrated ? 1 / perWrite : NaN,
          peakRssKb: rss[i],
          statusOk: w !== undefined && statusOk(w),
          statusErrors: w?.errors.status ?? NaN,
          // The phase's socket errors, on its last round (the report sums them).
          socketErrors: w !== undefined && k.round === rounds - 1 ? socketErrors(w) : 0,
          contaminated: Math.max(k.other.core0, k.other.core1) > threshold,
        },
        server,
      );
    }
  });
  if (failure) throw failure;
}
