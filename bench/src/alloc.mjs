#!/usr/bin/env node
// JavaScript heap allocated per request, per server, on one scenario: a count, not a timing, so it
// holds on a busy machine. Each server runs with a young generation large enough (256 MB) that no
// collection happens inside a window; a window is: a forced full GC, N keep-alive requests (8
// connections, from this process), then the growth of `heapUsed` ÷ N. A window in which a scavenge
// ran anyway is reported as such, not counted. Allocation is what a per-request cost on the wire
// does not show in an instruction count: fresh memory the caches miss on, and collections later.
//
// Usage: pnpm --filter @api/bench alloc [--servers raw,fastify,api] [--scenario movies]
//          [--warmup 20000] [--requests 4000] [--windows 5]
// Prints one line per server (median of the windows, and every window); writes nothing.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { SCENARIOS } from './scenarios.mjs';
import { argOf, BENCH, freePort, turboBuild } from './harness/index.mjs';
import { median } from './harness/stats.mjs';

const argv = process.argv.slice(2);
const servers = argOf(argv, 'servers', 'raw,fastify,api').split(',');
const scenario = SCENARIOS.find((s) => s.name === argOf(argv, 'scenario', 'movies'));
const WARMUP = Number(argOf(argv, 'warmup', 20_000));
const REQUESTS = Number(argOf(argv, 'requests', 4_000));
const WINDOWS = Number(argOf(argv, 'windows', 5));
if (!scenario) throw new Error(`unknown scenario (one of ${SCENARIOS.map((s) => s.name).join(', ')})`);

/** Starts `name` with the preload; resolves with a function that waits for its next ALLOC line. */
async function start(name, port) {
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--min-semi-space-size=256',
      '--max-semi-space-size=256',
      '--require',
      join(BENCH, 'src/alloc-preload.cjs'),
      join(BENCH, 'servers', `${name}.mjs`),
    ],
    { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const waiting = [];
  let buffered = '';
  child.stdout.on('data', (data) => {
    buffered += data;
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      if (line === 'ready' || line.startsWith('ALLOC ')) waiting.shift()?.(line);
    }
  });
  const next = () => new Promise((resolve) => waiting.push(resolve));
  await next(); // 'ready'
  return { child, next };
}

/** `n` requests of the scenario over 8 keep-alive connections; rejects on a status other than expected. */
async function load(port, agent, n) {
  const body = scenario.body === undefined ? undefined : JSON.stringify(scenario.body);
  const headers = {
    ...(scenario.auth ? { authorization: scenario.auth } : {}),
    ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
  };
  const one = () =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: scenario.method, path: scenario.path, agent, headers },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === scenario.expect
              ? resolve()
              : reject(new Error(`status ${res.statusCode}, expected ${scenario.expect}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let left = n;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (left-- > 0) await one();
    }),
  );
}

turboBuild(['@api/bench^...'], 'the @api packages');
console.log(
  `alloc: ${scenario.label}, ${WARMUP.toLocaleString('en')} warm-up then ${WINDOWS} windows of ` +
    `${REQUESTS.toLocaleString('en')} requests per server (bytes of JS heap per request)`,
);
for (const name of servers) {
  const port = await freePort();
  const { child, next } = await start(name, port);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const windows = [];
  try {
    await load(port, agent, WARMUP);
    for (let w = 0; w < WINDOWS; w++) {
      child.kill('SIGUSR2');
      const marked = Number((await next()).split(' ')[2]);
      await load(port, agent, REQUESTS);
      child.kill('SIGUSR2');
      const [, , used, scavenges] = (await next()).split(' ');
      windows.push(
        Number(scavenges) === 0 ? Math.round((Number(used) - marked) / REQUESTS) : `gc×${scavenges}`,
      );
    }
  } finally {
    agent.destroy();
    child.kill();
  }
  const counted = windows.filter((x) => typeof x === 'number');
  const steady = counted.length ? Math.round(median(counted)).toLocaleString('en') : 'n/a';
  console.log(`${name.padEnd(10)} ${steady.padStart(7)} B/request; windows ${windows.join(' ')}`);
}
