// The standalone phase of `pnpm bench`: each server alone on the server core, measured as a user
// measures it. Every sample is a fresh process that has seen nothing but this scenario: started,
// warmed up, one wrk run, stopped, so no process carries another scenario's history, the checks'
// odd inputs, or the idle gaps between interleaved rounds (an idle Node process shrinks its heap,
// and its next run pays more scavenges), and no other server is alive beside it. Servers alternate
// in a rotating order within each round, so the machine's drift between rounds hits all alike.
//
// `longLivedRounds` is the method this replaced (every server started once, warmed once per
// scenario, then interleaved rounds on the same processes), kept behind `pnpm bench --long-lived`
// to reproduce the disagreement of issue 27.
import { interleavedRounds } from './harness/index.mjs';

/**
 * Rounds of fresh processes for one scenario. Resolves with every kept sample (`round`, `attempt`,
 * `quietBefore`).
 *
 * @param options `names` (server names), `scenario`, `rounds`, `retries`, `warmup` (s),
 *   `start(name)`, `stop(server)`, `load(server, scenario, seconds)`, `timedRun(server, scenario,
 *   running)` (one measured run; `running`: the servers alive on the server core),
 *   `waitQuiet(running)`, `overBudget()`, `onRetry(server, sample)`, `onSample(sample, server)`
 */
export function freshRounds({
  names,
  scenario,
  rounds,
  retries,
  warmup,
  start,
  stop,
  load,
  timedRun,
  waitQuiet,
  overBudget,
  onRetry,
  onSample,
}) {
  return interleavedRounds({
    servers: names.map((name) => ({ name })),
    rounds,
    retries,
    waitQuiet: () => waitQuiet([]),
    measure: async ({ name }) => {
      const server = await start(name);
      try {
        await load(server, scenario, warmup);
        return await timedRun(server, scenario, [server]);
      } finally {
        await stop(server);
      }
    },
    overBudget,
    onRetry,
    onSample,
  });
}

/**
 * The long-lived method, for one scenario: `servers` (running since the checks) each warmed up,
 * then interleaved rounds on the same processes.
 *
 * @param options as `freshRounds`, with `servers` (running) instead of `names`, `start` and `stop`
 */
export async function longLivedRounds({
  servers,
  scenario,
  rounds,
  retries,
  warmup,
  load,
  timedRun,
  waitQuiet,
  overBudget,
  onRetry,
  onSample,
}) {
  for (const s of servers) await load(s, scenario, warmup);
  return interleavedRounds({
    servers,
    rounds,
    retries,
    waitQuiet: () => waitQuiet(servers),
    measure: (s) => timedRun(s, scenario, servers),
    overBudget,
    onRetry,
    onSample,
  });
}
