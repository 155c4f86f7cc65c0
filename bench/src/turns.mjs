// Whether the paired phase's turn length changes what it measures (issue 27): the paired phase
// (src/paired.mjs: servers alone on the core, taking turns, stopped between them) run at several
// turn lengths, 5 ms to 500 ms. Within one sweep step the servers share the machine's drift, so
// their ratios hold; a ratio that moves with the turn length would be the cost of losing the core
// (and the caches with it) that often, server by server. Each sweep runs the lengths up, then down,
// so a drift over the minutes does not pass for a trend. Below ~5 ms a turn's own cost (two signals,
// a resumed process reading 50 queued requests) dominates: at 1 ms every server's CPU per request
// doubles and the ratios shrink toward 1.
//
// Usage: pnpm --filter @api/bench turns [--servers raw,fastify,api] [--scenario info]
//          [--turns 5,20,100,500] [--rounds 8] [--slice 1] [--sweeps 1] [--out DIR]
import { join } from 'node:path';
import { SCENARIOS, statusesAsExpected } from './scenarios.mjs';
import { pairedRounds } from './paired.mjs';
import { startBenchServer } from './servers.mjs';
import { blockedInterval, median } from './harness/stats.mjs';
import { blockRatios, roundRatios } from './report.mjs';
import {
  argOf,
  BENCH,
  fileStamp,
  prepareServerBench,
  r2,
  startWrkScenario,
  stopAll,
  stopServer,
  waitQuietCores,
  writeResults,
  wrkScenario,
} from './harness/index.mjs';

const arg = (name, fallback) => argOf(process.argv, name, fallback);
const names = arg('servers', 'raw,fastify,api').split(',');
const scenario = SCENARIOS.find((s) => s.name === arg('scenario', 'info'));
const TURNS = arg('turns', '5,20,100,500').split(',').map(Number);
const ROUNDS = Number(arg('rounds', 8));
const SLICE = Number(arg('slice', 1));
const SWEEPS = Number(arg('sweeps', 1));
const OUT = arg('out', join(BENCH, 'results'));
const base = names.includes('raw') ? 'raw' : names[0];

prepareServerBench();
const samples = [];
const order = [...TURNS, ...[...TURNS].reverse()];
try {
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    for (const [step, turnMs] of order.entries()) {
      const mine = [];
      await pairedRounds({
        names,
        scenario,
        rounds: ROUNDS,
        warmup: 3,
        slice: SLICE,
        turnMs,
        threshold: 0.1,
        start: startBenchServer,
        stop: stopServer,
        load: (server, sc, seconds) => wrkScenario(server, sc, seconds),
        startLoad: (server, sc, seconds) => startWrkScenario(server, sc, seconds),
        statusOk: (w) => statusesAsExpected(scenario, w),
        waitQuiet: (running) => waitQuietCores(running, { sampleMs: 500, maxWaitMs: 20_000, threshold: 0.1 }),
        // One step's rounds are numbered apart from every other step's, for roundRatios.
        // Each step is a set of fresh processes: a block (src/harness/stats.mjs, blockedInterval).
        onSample: (s) => {
          const block = sweep * order.length + step;
          mine.push({ ...s, turnMs, block, round: block * ROUNDS + s.round });
        },
      });
      samples.push(...mine);
      const cpu = (n) => median(mine.filter((s) => s.server === n).map((s) => s.cpuUsPerReq));
      console.log(
        `turn ${String(turnMs).padStart(4)} ms: CPU µs/request ` +
          names.map((n) => `${n} ${cpu(n).toFixed(1)}`).join(', ') +
          '; ×' +
          base +
          ' ' +
          names
            .filter((n) => n !== base)
            .map((n) => `${n} ${r2(median(roundRatios(mine, n, base, 'cpuUsPerReq')))}`)
            .join(', '),
      );
    }
  }
} finally {
  stopAll();
}

const rows = TURNS.map((turnMs) => {
  const mine = samples.filter((s) => s.turnMs === turnMs);
  const row = { turnMs, cpu: {}, vsBase: {} };
  for (const n of names) {
    row.cpu[n] = median(mine.filter((s) => s.server === n).map((s) => s.cpuUsPerReq));
    if (n === base) continue;
    const { ratios, blocks } = blockRatios(mine, n, base, 'cpuUsPerReq');
    const ci = blockedInterval(ratios, blocks);
    row.vsBase[n] = { median: median(ratios), lo: ci.lo, hi: ci.hi, n: ratios.length };
  }
  return row;
});
const others = names.filter((n) => n !== base);
const date = new Date().toISOString();
const md = [
  `# Turn length (${date})`,
  '',
  `\`${scenario.label}\`: ${names.join(', ')} alone on core 0 in turns of each length (SIGSTOP between), ` +
    `${ROUNDS} rounds of ${SLICE} s per server per step, ${SWEEPS} sweep(s) up and down (${TURNS.join(', ')} ms). ` +
    `CPU per request ×${base}: median of per-round ratios (90% interval: of the median, or of the steps' mean where wider).`,
  '',
  `| turn | ${names.map((n) => `${n} CPU µs/req`).join(' | ')} | ${others.map((n) => `${n} ×${base}`).join(' | ')} |`,
  `|---:|${names.map(() => '---:').join('|')}|${others.map(() => '---:').join('|')}|`,
  ...rows.map(
    (r) =>
      `| ${r.turnMs} ms | ${names.map((n) => r.cpu[n].toFixed(1)).join(' | ')} | ` +
      others
        .map((n) => `${r2(r.vsBase[n].median)} (${r2(r.vsBase[n].lo)}–${r2(r.vsBase[n].hi)})`)
        .join(' | ') +
      ' |',
  ),
  '',
];
const file = join(OUT, `turns-${fileStamp(date)}`);
writeResults(
  file,
  { date, scenario: scenario.name, turns: TURNS, rounds: ROUNDS, slice: SLICE, rows, samples },
  md.join('\n'),
);
console.log(md.join('\n'));
console.log(`wrote ${file}.md`);
process.exit(0);
