// Suspects for the methods' disagreement (issue 27), checked where this VM's drift cannot decide the
// answer: two processes of the *same* server co-run on the server core, loaded at the same time,
// differing only in the suspect. Their CPU per request sees the same machine at every instant, so
// a ratio off 1.00 is the suspect's doing, where back-to-back samples of one server swing ±25%.
//
// - connections: one process's wrk is restarted every `--short` s (its 50 connections renewed, as
//   the paired phase's 1 s slices do), the other's runs `--long` s on the same connections (as a
//   standalone run does). Ratio long/short.
// - age: one process aged by `--age` s of load first, the other fresh (3 s warm-up, as a
//   standalone sample), then co-run `--reps` times for 4 s. Ratio old/young.
//
// Usage: pnpm --filter @api/bench suspects [--servers raw,fastify,api] [--scenario info] [--short 1]
//          [--long 10] [--age 30] [--reps 2] [--out DIR]
import { join } from 'node:path';
import { SCENARIOS } from './scenarios.mjs';
import { CLK_TCK, readMem, readProcTicks } from './sys.mjs';
import { startBenchServer } from './servers.mjs';
import {
  argOf,
  BENCH,
  fileStamp,
  prepareServerBench,
  r2,
  stopAll,
  stopServer,
  writeResults,
  wrkScenario,
} from './harness/index.mjs';

const arg = (name, fallback) => argOf(process.argv, name, fallback);
const names = arg('servers', 'raw,fastify,api').split(',');
const scenario = SCENARIOS.find((s) => s.name === arg('scenario', 'info'));
const SHORT = Number(arg('short', 1));
const LONG = Number(arg('long', 10));
const AGE = Number(arg('age', 30));
const REPS = Number(arg('reps', 2));
const OUT = arg('out', join(BENCH, 'results'));

const start = (name, role) => startBenchServer(name, { label: `${name}-${role}` });
const ticks = (s) => readProcTicks(s.pid).self;
const usPerReq = (s, t0, requests) => (((ticks(s) - t0) / CLK_TCK) * 1e6) / requests;
const rssMb = (s) => readMem(s.pid).rssKb / 1024;

/** Co-runs `a` (wrk restarted every SHORT s) and `b` (one LONG s wrk run); resolves with µs/request of each. */
async function connections(a, b) {
  const [ta, tb] = [ticks(a), ticks(b)];
  const shortRuns = (async () => {
    let requests = 0;
    for (let i = 0; i < LONG / SHORT; i++) requests += (await wrkScenario(a, scenario, SHORT)).requests;
    return requests;
  })();
  const [na, wb] = await Promise.all([shortRuns, wrkScenario(b, scenario, LONG)]);
  return { short: usPerReq(a, ta, na), long: usPerReq(b, tb, wb.requests) };
}

/** Co-runs `old` and `young` for 4 s; resolves with µs/request and RSS of each. */
async function ages(old, young) {
  const [to, ty] = [ticks(old), ticks(young)];
  const [wo, wy] = await Promise.all([wrkScenario(old, scenario, 4), wrkScenario(young, scenario, 4)]);
  return {
    old: usPerReq(old, to, wo.requests),
    young: usPerReq(young, ty, wy.requests),
    oldRss: rssMb(old),
    youngRss: rssMb(young),
  };
}

prepareServerBench();
const rows = [];
try {
  for (const name of names) {
    const a = await start(name, 'short');
    const b = await start(name, 'long');
    await Promise.all([wrkScenario(a, scenario, 3), wrkScenario(b, scenario, 3)]);
    for (let rep = 0; rep < REPS; rep++) {
      const r = await connections(a, b);
      rows.push({ server: name, suspect: 'connections', rep, ...r, ratio: r.long / r.short });
      console.log(
        `${name} connections rep ${rep + 1}: long/short ${r2(r.long / r.short)} (${r.long.toFixed(1)} / ${r.short.toFixed(1)} µs)`,
      );
    }
    await Promise.all([stopServer(a), stopServer(b)]);

    const old = await start(name, 'old');
    await wrkScenario(old, scenario, AGE);
    const young = await start(name, 'young');
    await wrkScenario(young, scenario, 3);
    for (let rep = 0; rep < REPS; rep++) {
      const r = await ages(old, young);
      rows.push({ server: name, suspect: 'age', rep, ...r, ratio: r.old / r.young });
      console.log(
        `${name} age rep ${rep + 1}: old/young ${r2(r.old / r.young)} (${r.old.toFixed(1)} / ${r.young.toFixed(1)} µs)`,
      );
    }
    await Promise.all([stopServer(old), stopServer(young)]);
  }
} finally {
  stopAll();
}

const date = new Date().toISOString();
const md = [
  `# Suspects (${date})`,
  '',
  `Two processes of the same server co-run on core 0 (\`${scenario.label}\`), differing only in the suspect; the ratio of ` +
    'their CPU per request. connections: wrk restarted every ' +
    `${SHORT} s vs one ${LONG} s run. age: ${AGE} s of load first vs a fresh process (3 s warm-up), then 4 s co-runs.`,
  '',
  '| server | suspect | ratio per rep | CPU µs/request (per rep) |',
  '|---|---|---:|---|',
  ...names.flatMap((name) =>
    ['connections', 'age'].map((suspect) => {
      const rs = rows.filter((r) => r.server === name && r.suspect === suspect);
      const us = rs.map((r) =>
        suspect === 'age'
          ? `${r.old.toFixed(1)} / ${r.young.toFixed(1)}`
          : `${r.long.toFixed(1)} / ${r.short.toFixed(1)}`,
      );
      return `| ${name} | ${suspect === 'age' ? 'age (old/young)' : 'connections (long/short)'} | ${rs.map((r) => r2(r.ratio)).join(', ')} | ${us.join('; ')} |`;
    }),
  ),
  '',
];
const base = join(OUT, `suspects-${fileStamp(date)}`);
writeResults(
  base,
  { date, scenario: scenario.name, short: SHORT, long: LONG, age: AGE, rows },
  md.join('\n'),
);
console.log(`wrote ${base}.md`);
process.exit(0);
