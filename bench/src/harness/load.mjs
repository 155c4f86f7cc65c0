// The machine's load, from /proc: whether it is quiet before a run, how much other load ran during
// one, and interleaved rounds that wait for quiet and retry contaminated samples.
import { CLK_TCK, readCpu, readProcTicks, resetPeakRss, sleep } from '../sys.mjs';
import { LOAD_CORE, SERVER_CORE } from './setup.mjs';

/**
 * Snapshot of everything needed to attribute CPU ticks: per-core busy, our servers, harness,
 * children, and `loaders` (pids of load generators still running on the load core, whose ticks are
 * not yet in `children`).
 */
export function snapshot(servers, loaders = []) {
  const me = readProcTicks(process.pid);
  const srv = {};
  for (const s of servers) srv[s.name] = readProcTicks(s.pid)?.self ?? 0;
  const ld = loaders.reduce((t, pid) => t + (readProcTicks(pid)?.self ?? 0), 0);
  return { at: process.hrtime.bigint(), cpu: readCpu(), srv, me: me.self, kids: me.children, ld };
}

/** Ticks on each core not explained by our processes, as a fraction of the window. */
export function otherLoad(a, b, servers) {
  const wallTicks = (Number(b.at - a.at) / 1e9) * CLK_TCK;
  const d = (core) => b.cpu[core].busy - a.cpu[core].busy;
  const serverTicks = servers.reduce((t, s) => t + (b.srv[s.name] - a.srv[s.name]), 0);
  // harness + finished children (wrk) + running load generators
  const loadTicks = b.me - a.me + (b.kids - a.kids) + ((b.ld ?? 0) - (a.ld ?? 0));
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

/** `0.123` → `12%`. */
export const pct = (x) => `${(x * 100).toFixed(0)}%`;

/**
 * Waits until neither core carries more than `threshold` of load other than our servers' (core 0)
 * and the harness's and its children's (core 1), sampled over `sampleMs`; gives up after
 * `maxWaitMs` or once `overBudget()`. Resolves with whether the machine was quiet.
 *
 * @param servers the running servers (their ticks are ours)
 * @param options `sampleMs`, `maxWaitMs`, `threshold`, `overBudget`, `stats` (`{ checks, waitedMs, gaveUp }`, counted when given)
 */
export async function waitQuietCores(
  servers,
  { sampleMs, maxWaitMs, threshold, overBudget = () => false, stats },
) {
  const start = Date.now();
  for (;;) {
    const a = snapshot(servers);
    await sleep(sampleMs);
    const l = otherLoad(a, snapshot(servers), servers);
    if (stats) stats.checks++;
    if (Math.max(l.core0, l.core1) <= threshold) {
      if (stats) stats.waitedMs += Date.now() - start;
      return true;
    }
    if (Date.now() - start > maxWaitMs || overBudget()) {
      if (stats) {
        stats.waitedMs += Date.now() - start;
        stats.gaveUp++;
      }
      return false;
    }
    console.log(`  machine busy (other load core0 ${pct(l.core0)}, core1 ${pct(l.core1)}), waiting…`);
    await sleep(1000);
  }
}

/**
 * Waits (up to `maxMs`) until both cores are quiet: busy ticks on both, minus this harness's and
 * `pids`' own, ≤ 10% over a 500 ms sample. Resolves with the last sample's other load.
 */
export async function waitQuietMachine(pids = [], maxMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const ticks = () => [process.pid, ...pids].reduce((t, pid) => t + (readProcTicks(pid)?.self ?? 0), 0);
    const a = readCpu();
    const ownA = ticks();
    const at = process.hrtime.bigint();
    await sleep(500);
    const b = readCpu();
    const own = ticks() - ownA;
    const wall = (Number(process.hrtime.bigint() - at) / 1e9) * CLK_TCK;
    const other =
      Math.max(0, b[SERVER_CORE].busy - a[SERVER_CORE].busy + b[LOAD_CORE].busy - a[LOAD_CORE].busy - own) /
      (2 * wall);
    if (other <= 0.1) return { quiet: true, other };
    if (Date.now() - started > maxMs) return { quiet: false, other };
    console.log(`  machine busy (other load ${(other * 100).toFixed(0)}% of both cores), waiting…`);
    await sleep(2000);
  }
}

/**
 * Runs `load()` (a wrk run against `server`) between two snapshots: the server's peak RSS is reset
 * first. Resolves with the wrk summary `w`, the other load `l` during it, and the server's and
 * wrk's CPU ticks.
 */
export async function measured(server, servers, load) {
  const rssReset = resetPeakRss(server.pid);
  const a = snapshot(servers);
  const w = await load();
  const b = snapshot(servers);
  return {
    w,
    l: otherLoad(a, b, servers),
    cpuTicks: b.srv[server.name] - a.srv[server.name],
    wrkTicks: b.kids - a.kids,
    rssReset,
  };
}

/** `list` rotated by `round` (interleaved rounds: a different server goes first each round). */
export const rotated = (list, round) => list.map((_, i) => list[(i + round) % list.length]);

/**
 * Rounds of one fresh server per kind, in alternating order (A B, B A, …), so drift hits both
 * alike. Resolves with every run's result, with its `round`.
 *
 * @param options `kinds`, `rounds`, `run(kind)` (one measurement), `onRun(result)` (its log line)
 */
export async function alternatingRounds({ kinds, rounds, run, onRun }) {
  const runs = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? kinds : [...kinds].reverse();
    for (const kind of order) {
      const r = { round, ...(await run(kind)) };
      runs.push(r);
      onRun(r);
    }
  }
  return runs;
}

/**
 * Interleaved rounds over `servers`: each round (or, with `quietEachSample`, each sample) waits for
 * a quiet machine first, and a contaminated sample is retried, after another wait, up to `retries`
 * times (while not `overBudget()`), then kept. Waiting once per round keeps a round's samples back
 * to back, so a ratio taken within the round sees the least drift.
 *
 * @param options `servers`, `rounds`, `retries`, `waitQuiet()`, `measure(server)` (a sample with
 *   `contaminated`), `overBudget()`, `quietEachSample`, `onRetry(server, sample)`, `onSample(sample, server)`
 * @returns every kept sample, with `round`, `attempt` and `quietBefore`
 */
export async function interleavedRounds({
  servers,
  rounds,
  retries,
  waitQuiet,
  measure,
  overBudget = () => false,
  quietEachSample = false,
  onRetry,
  onSample,
}) {
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    let quiet = quietEachSample ? undefined : await waitQuiet();
    for (const s of rotated(servers, round)) {
      let sample;
      for (let attempt = 0; ; attempt++) {
        if (quietEachSample || attempt > 0) quiet = await waitQuiet();
        sample = { ...(await measure(s)), round, attempt, quietBefore: quiet };
        if (!sample.contaminated || attempt >= retries || overBudget()) break;
        onRetry(s, sample);
      }
      samples.push(sample);
      onSample(sample, s);
    }
  }
  return samples;
}
