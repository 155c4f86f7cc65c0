// The paired phase of `pnpm bench`: every server alone on the server core, as in the standalone
// phase, but its samples are short and interleaved, so a ratio compares samples taken a second or
// two apart. This VM's speed swings ±25% over seconds (raw node:http's CPU per request ranged
// 33–64 µs between 4 s samples of one run); a standalone round's samples are 7–10 s apart and
// each ratio carries that swing, where slices one second long, back to back, share it.
//
// Per scenario: one fresh process per server (all alive on the server core, only one loaded at a
// time; an idle process takes nothing from the loaded one), each warmed up alone in turn, then
// `rounds` rounds in which every server, in rotating order, gets one continuous slice of load.
// A server idles for (servers − 1) slices between its own, under V8's memory reducer's 8 s delay,
// so its heap is not shrunk between slices. Work a process defers to its idle time (concurrent GC
// finishing on its helper threads) is still its own: a slice's CPU per request is the process's
// CPU ticks over the whole round, its slice and its idle time, per request of its slice.
import { CLK_TCK, readProcTicks } from './sys.mjs';

/**
 * Rounds of interleaved slices for one scenario on fresh processes. Each sample goes to `onSample`
 * as its round ends (so a failure later keeps it): `timedRun`'s fields with `cpuUsPerReq` over the
 * whole round (`cpuSliceUsPerReq`: the slice alone), and `round`.
 *
 * @param options `names` (server names), `scenario`, `rounds`, `warmup` (s, each server alone),
 *   `start(name)`, `stop(server)`, `load(server, scenario, seconds)`, `timedRun(server, scenario,
 *   running)` (one measured slice), `waitQuiet(running)`, `onSample(sample, server)`
 */
export async function pairedRounds({
  names,
  scenario,
  rounds,
  warmup,
  start,
  stop,
  load,
  timedRun,
  waitQuiet,
  onSample,
}) {
  const running = [];
  try {
    for (const name of names) running.push(await start(name));
    await waitQuiet(running);
    for (const server of running) await load(server, scenario, warmup);
    const ticks = () => new Map(running.map((s) => [s.name, readProcTicks(s.pid)?.self ?? NaN]));
    for (let round = 0; round < rounds; round++) {
      const order = running.map((_, i) => running[(i + round) % running.length]);
      const before = ticks();
      const mine = [];
      for (const server of order) mine.push({ server, sample: await timedRun(server, scenario, running) });
      const after = ticks();
      for (const { server, sample } of mine) {
        const roundUs = ((after.get(server.name) - before.get(server.name)) / CLK_TCK) * 1e6;
        const kept = {
          ...sample,
          cpuSliceUsPerReq: sample.cpuUsPerReq,
          cpuUsPerReq: roundUs / sample.requests,
          round,
        };
        onSample(kept, server);
      }
    }
  } finally {
    await Promise.all(running.map((s) => stop(s)));
  }
}
