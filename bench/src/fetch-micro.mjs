#!/usr/bin/env node
// In-process micro-benchmark of `app.fetch(new Request(...))`: @api against Hono, the same routes,
// handlers and validation (servers/api.mjs and servers/hono-app.mjs), in ONE process, alternating
// (api then hono, hono then api, …), so machine load and the runtime's JIT state hit both alike.
// Runs on whichever runtime runs it:
//   node src/fetch-micro.mjs | <bun> src/fetch-micro.mjs | <deno> run -A src/fetch-micro.mjs
// (`pnpm bench --runtimes --micro` runs it on Node and on the pinned Bun and Deno.)
// Prints, per scenario, ops/s of each and the ratio api/hono (median of the per-round ratios,
// with min–max) and the same ratio in CPU time (process.cpuUsage: steadier on a busy machine), and last one line `fetch-micro <runtime>: info <r>, movies <r>, invalid <r>`.
// Options: --rounds N (default 9), --iterations N per round and framework (default 4000),
// --scenarios info,movies,invalid.
import { AUTH, INVALID_MOVIE, MOVIE } from './scenarios.mjs';

const args = typeof Deno !== 'undefined' ? Deno.args : process.argv.slice(2);
const argOf = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
};
const ROUNDS = Number(argOf('rounds', 9));
const ITER = Number(argOf('iterations', 4000));
const WANT = argOf('scenarios', 'info,movies,invalid').split(',');
const RUNTIME =
  typeof Bun !== 'undefined'
    ? `bun ${Bun.version}`
    : typeof Deno !== 'undefined'
      ? `deno ${Deno.version.deno}`
      : `node ${process.versions.node}`;

const quiet = { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) };
const { App } = await import('../servers/api.mjs');
const { app: hono } = await import('../servers/hono-app.mjs');
const api = new App({ logger: quiet });

const movie = JSON.stringify(MOVIE);
const invalid = JSON.stringify(INVALID_MOVIE);
// With its content-length, as a request off the wire (wrk's) carries it: a Request built with a
// string body has none, which sends @api's body read down its chunked (streamed) path.
const json = (body) => ({
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(body)),
  authorization: AUTH,
});
const movieHeaders = json(movie);
const invalidHeaders = json(invalid);
const SCENARIOS = {
  info: { status: 200, make: () => new Request('http://127.0.0.1/info') },
  movies: {
    status: 201,
    make: () =>
      new Request('http://127.0.0.1/movies', { method: 'POST', headers: movieHeaders, body: movie }),
  },
  invalid: {
    status: 422,
    make: () =>
      new Request('http://127.0.0.1/movies', { method: 'POST', headers: invalidHeaders, body: invalid }),
  },
};

/** CPU time of the process so far, ms (user + system): what a busy box's other processes do not inflate. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Runs `n` requests: [wall ms, CPU ms]. */
async function run(fetch, scenario, n) {
  const t0 = performance.now();
  const c0 = cpuMs();
  for (let i = 0; i < n; i++) {
    const res = await fetch(scenario.make());
    await res.arrayBuffer();
    if (res.status !== scenario.status) throw new Error(`status ${res.status}, want ${scenario.status}`);
  }
  return [performance.now() - t0, cpuMs() - c0];
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r2 = (x) => x.toFixed(2);

const summary = [];
console.log(`fetch-micro on ${RUNTIME}: ${ROUNDS} rounds × ${ITER} requests per framework, alternating`);
for (const name of WANT) {
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  const apiFetch = (r) => api.fetch(r);
  const honoFetch = (r) => hono.fetch(r);
  // Warm-up: both, until the JIT has seen them.
  await run(apiFetch, scenario, ITER);
  await run(honoFetch, scenario, ITER);
  const ratios = [];
  const apiOps = [];
  const honoOps = [];
  /** The same ratio in CPU time (hono's CPU ms / api's): steadier than wall time on a loaded box. */
  const cpuRatios = [];
  for (let round = 0; round < ROUNDS; round++) {
    let a;
    let h;
    if (round % 2 === 0) {
      a = await run(apiFetch, scenario, ITER);
      h = await run(honoFetch, scenario, ITER);
    } else {
      h = await run(honoFetch, scenario, ITER);
      a = await run(apiFetch, scenario, ITER);
    }
    apiOps.push((ITER / a[0]) * 1000);
    honoOps.push((ITER / h[0]) * 1000);
    ratios.push(h[0] / a[0]);
    cpuRatios.push(h[1] / a[1]);
  }
  const line = `${r2(median(ratios))} (${r2(Math.min(...ratios))}–${r2(Math.max(...ratios))})`;
  const cpuLine = `${r2(median(cpuRatios))} (${r2(Math.min(...cpuRatios))}–${r2(Math.max(...cpuRatios))})`;
  console.log(
    `  ${name.padEnd(8)} api ${Math.round(median(apiOps)).toLocaleString('en-US').padStart(8)} ops/s, ` +
      `hono ${Math.round(median(honoOps)).toLocaleString('en-US').padStart(8)} ops/s, api/hono ${line}; ` +
      `per CPU-second ${cpuLine}`,
  );
  summary.push(`${name} ${line}`);
}
console.log(`fetch-micro ${RUNTIME.split(' ')[0]}: ${summary.join(', ')}`);
if (typeof process !== 'undefined') process.exit(0);
