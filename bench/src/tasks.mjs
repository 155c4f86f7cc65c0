#!/usr/bin/env node
// @api/tasks throughput: N trivial items through `add` + dispatch (one in-process worker), against a
// bare array-and-promise queue with the same shape (bounded, awaited push, one async worker) in the
// same run, rounds interleaved; then the BullMQ backend end to end on a throwaway redis-server.
//
//   pnpm --filter @api/bench tasks [--items 200000] [--rounds 7] [--bull-items 20000] [--no-bullmq] [--no-build] [--out DIR]
//
// Writes bench/results/tasks-<timestamp>.md and .json. Run on a quiet machine (it records `uptime`).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { median } from './report.mjs';
import {
  argOf,
  BENCH,
  fileStamp,
  freePort,
  pinSelfIfPossible,
  SERVER_CORE,
  turboBuild,
  writeResults,
} from './harness/index.mjs';

const args = process.argv.slice(2);
const arg = (name, dflt) => argOf(args, name, dflt);
const N = Number(arg('items', 200_000));
const ROUNDS = Number(arg('rounds', 7));
const BULL_N = Number(arg('bull-items', 20_000));
const MAXSIZE = 1024;

// Measure the built package, never a stale dist (turbo caches unchanged builds).
if (!args.includes('--no-build')) turboBuild(['@api/tasks...'], '@api/tasks and what it depends on');
// Pin to one core (best effort), as the micro-benchmark does.
pinSelfIfPossible(SERVER_CORE);

const v = await import('valibot');
const { Struct } = await import('@api/core');
const { BackgroundTasks, bullmqBackend } = await import('@api/tasks');

const Item = Struct('Item', { id: v.number(), kind: v.string() });
const item = (i) => ({ id: i, kind: 'touch' });
const quiet = { info() {}, warn: console.warn, error: console.error };

/**
 * The baseline: what one writes by hand — an array with a head index (compacted when drained), a
 * pending-promise wake-up for the worker, `push` resolving at once while there is room and waiting
 * when `MAXSIZE` items are held, one async worker loop calling the handler.
 */
class BareQueue {
  #items = [];
  #head = 0;
  #wake = null;
  #space = [];
  #closed = false;
  #done;
  constructor(handler) {
    this.handler = handler;
    this.#done = this.#work();
  }
  push(value) {
    if (this.#items.length - this.#head < MAXSIZE) {
      this.#items.push(value);
      if (this.#wake) {
        const wake = this.#wake;
        this.#wake = null;
        wake();
      }
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#space.push(() => (this.push(value), resolve())));
  }
  async #work() {
    for (;;) {
      while (this.#head < this.#items.length) {
        const value = this.#items[this.#head++];
        this.handler(value);
        if (this.#space.length > 0) this.#space.shift()();
      }
      this.#items = [];
      this.#head = 0;
      if (this.#closed) return;
      await new Promise((resolve) => (this.#wake = resolve));
    }
  }
  close() {
    this.#closed = true;
    if (this.#wake) this.#wake();
    return this.#done;
  }
}

async function runBare() {
  let seen = 0;
  const q = new BareQueue(() => void seen++);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await q.push(item(i));
  await q.close();
  const ms = performance.now() - t0;
  if (seen !== N) throw new Error(`bare: ${seen} of ${N}`);
  return (N / ms) * 1000;
}

async function runTasks(schema, useTry = false) {
  let seen = 0;
  const tasks = new BackgroundTasks({ maxsize: MAXSIZE, drainTimeout: 60, logger: quiet });
  tasks.register(schema, () => void seen++);
  const t0 = performance.now();
  if (useTry) {
    for (let i = 0; i < N; i++) while (!tasks.tryAdd(schema, item(i))) await new Promise(setImmediate);
  } else for (let i = 0; i < N; i++) await tasks.add(schema, item(i));
  await tasks.close();
  const ms = performance.now() - t0;
  if (seen !== N || tasks.stats().processed !== N) throw new Error(`tasks: ${seen} of ${N}`);
  return (N / ms) * 1000;
}

const Unchecked = v.unknown();
const rows = {
  bare: { label: 'bare array-and-promise queue (no validation)', run: runBare },
  tasks: {
    label: '@api/tasks in process: `await add(Item, …)` (2-field Struct validated)',
    run: () => runTasks(Item),
  },
  tasksUnchecked: {
    label: '@api/tasks in process, `v.unknown()` schema (no validation cost)',
    run: () => runTasks(Unchecked),
  },
  tasksTry: {
    label: '@api/tasks in process: `tryAdd` (yield a macrotask when full)',
    run: () => runTasks(Item, true),
  },
};

const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`load average before: ${load}; ${N} items × ${ROUNDS} rounds (interleaved)`);
const samples = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
for (const key of Object.keys(rows)) await rows[key].run(); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  const order = Object.keys(rows);
  for (let i = 0; i < r % order.length; i++) order.push(order.shift()); // rotate who goes first
  for (const key of order) samples[key].push(await rows[key].run());
  console.log(
    `round ${r + 1}: ${Object.keys(rows)
      .map((k) => `${k} ${(samples[k].at(-1) / 1e6).toFixed(2)}M/s`)
      .join(', ')}`,
  );
}
const result = Object.fromEntries(
  Object.entries(samples).map(([k, xs]) => [
    k,
    { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) },
  ]),
);

// ---------------------------------------------------------------- BullMQ backend
async function bullmqRun() {
  let redisPath;
  try {
    redisPath = execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    return { skipped: 'redis-server not installed' };
  }
  const port = await freePort();
  const redis = spawn(
    redisPath,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise((resolve, reject) => {
    let out = '';
    redis.stdout.on('data', (c) => {
      out += c;
      if (out.includes('Ready to accept connections')) resolve();
    });
    redis.once('exit', () => reject(new Error(out)));
  });
  redis.stdout.resume();
  try {
    const connection = { host: '127.0.0.1', port };
    // Producer only: how fast adds reach Redis (≤ maxsize unacknowledged; one addBulk per macrotask).
    const producer = new BackgroundTasks({
      maxsize: MAXSIZE,
      logger: quiet,
      backend: bullmqBackend({ connection, queueName: 'bench', worker: false }),
    });
    let t0 = performance.now();
    const pending = [];
    for (let i = 0; i < BULL_N; i++) pending.push(producer.add(Item, item(i)));
    await Promise.all(pending);
    const addRate = (BULL_N / (performance.now() - t0)) * 1000;
    await producer.close();
    // Consumer: one serial worker (concurrency 1) drains what was added.
    let seen = 0;
    let finished;
    const done = new Promise((resolve) => (finished = resolve));
    const consumer = new BackgroundTasks({
      logger: quiet,
      backend: bullmqBackend({ connection, queueName: 'bench' }),
    });
    consumer.register(Item, () => {
      if (++seen === BULL_N) finished();
    });
    t0 = performance.now();
    await consumer.start();
    await done;
    const consumeRate = (BULL_N / (performance.now() - t0)) * 1000;
    await consumer.close();
    return { items: BULL_N, addRate, consumeRate };
  } finally {
    redis.kill('SIGKILL');
  }
}
const bullmq = args.includes('--no-bullmq') ? { skipped: '--no-bullmq' } : await bullmqRun();
const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

// ---------------------------------------------------------------- report
const ratio = result.tasks.median / result.bare.median;
const ts = fileStamp(new Date().toISOString());
const machine = {
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  loadBefore: load,
  loadAfter,
};
const json = {
  date: new Date().toISOString(),
  items: N,
  rounds: ROUNDS,
  maxsize: MAXSIZE,
  machine,
  inProcess: result,
  ratioToBare: ratio,
  bullmq,
};
const fmt = (x) => `${(x / 1e6).toFixed(2)} M/s`;
const md = [
  `# @api/tasks throughput — ${json.date}`,
  '',
  `${N.toLocaleString('en')} trivial items (handler: \`count++\`) through add + dispatch, one worker, maxsize ${MAXSIZE};`,
  `median of ${ROUNDS} interleaved rounds, process pinned to one core. Node ${machine.node}, ${machine.cpu} (${machine.cores} cores);`,
  `load average ${load} before, ${loadAfter} after.`,
  '',
  '| queue | items/s (median) | min | max | vs bare |',
  '|---|---:|---:|---:|---:|',
  ...Object.entries(rows).map(([k, row]) => {
    const r = result[k];
    return `| ${row.label} | ${fmt(r.median)} | ${fmt(r.min)} | ${fmt(r.max)} | ${(r.median / result.bare.median).toFixed(2)}× |`;
  }),
  '',
  `Target: ≥ 0.50 M/s in process — ${result.tasks.median >= 500_000 ? 'met' : '**not met**'} (${fmt(result.tasks.median)}, ${ratio.toFixed(2)}× the bare queue).`,
  '',
  '## BullMQ backend (Redis on this machine, one process)',
  '',
  bullmq.skipped
    ? `Skipped: ${bullmq.skipped}.`
    : [
        `| phase | items | items/s |`,
        `|---|---:|---:|`,
        `| add (≤ ${MAXSIZE} unacknowledged; one addBulk per macrotask) | ${bullmq.items.toLocaleString('en')} | ${Math.round(bullmq.addRate).toLocaleString('en')} |`,
        `| consume (one serial worker) | ${bullmq.items.toLocaleString('en')} | ${Math.round(bullmq.consumeRate).toLocaleString('en')} |`,
        '',
        `In process is ${(result.tasks.median / bullmq.consumeRate).toFixed(0)}× the BullMQ worker: each BullMQ item costs Redis round trips (fetch, lock, complete); it buys durability and several processes.`,
      ].join('\n'),
  '',
].join('\n');
const outDir = arg('out', join(BENCH, 'results'));
writeResults(join(outDir, `tasks-${ts}`), json, md);
console.log(`\n${md}\nwritten: ${join(outDir, `tasks-${ts}`)}.md / .json`);
