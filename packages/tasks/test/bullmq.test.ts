import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as wait } from 'node:timers/promises';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Struct, WiringError } from '@api/core';
import { Queue } from 'bullmq';
import {
  BackgroundTasks,
  bullmqBackend,
  TaskItemError,
  TasksClosedError,
  type BullMQBackendOptions,
} from '../src/index';
import { MemoryLog, sleep, until } from './helpers';
import { skipRedis, startRedis, type RedisHandle } from '../../../config/test/redis';

const Item = Struct('Item', { id: v.number() });
const Note = Struct('Note', { text: v.pipe(v.string(), v.minLength(1)) });

let redis: RedisHandle;
let dir: string;
let queueCounter = 0;
const uniqueQueue = (): string => `q${process.pid}-${++queueCounter}`;

beforeAll(async () => {
  if (skipRedis) return;
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), 'api-tasks-'));
}, 20_000);
afterAll(async () => {
  if (skipRedis) return;
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

function bullmq(
  queueName: string,
  more: Partial<BullMQBackendOptions> = {},
): ReturnType<typeof bullmqBackend> {
  return bullmqBackend({ connection: { host: '127.0.0.1', port: redis.port }, queueName, ...more });
}

/** Runs `use` with a BullMQ Queue on `queueName` (to look at what Redis holds), then closes it. */
async function withQueue<T>(queueName: string, use: (queue: Queue) => Promise<T>): Promise<T> {
  const queue = new Queue(queueName, { connection: { host: '127.0.0.1', port: redis.port } });
  try {
    return await use(queue);
  } finally {
    await queue.close();
  }
}

function redisCounts(queueName: string): Promise<Record<string, number>> {
  return withQueue(queueName, (queue) =>
    queue.getJobCounts('wait', 'active', 'completed', 'failed', 'delayed'),
  );
}

describe.skipIf(skipRedis)('BullMQ backend, one process', () => {
  it('round-trips items through Redis: validated at add, validated again by the worker, in order', async () => {
    const log = new MemoryLog();
    const tasks = new BackgroundTasks({ logger: log, backend: bullmq(uniqueQueue()) });
    expect(tasks.backend).toBe('bullmq');
    const seen: string[] = [];
    tasks.register(Item, (item) => void seen.push(`item:${item.id}`));
    tasks.register(Note, async (note) => {
      await sleep(1);
      seen.push(`note:${note.text}`);
    });
    await tasks.start();
    await tasks.add(Item, { id: 1 });
    await tasks.add(Note, { text: 'hello' });
    expect(tasks.tryAdd(Item, { id: 2 })).toBe(true);
    await until(() => seen.length === 3);
    await tasks.close();
    expect(seen).toEqual(['item:1', 'note:hello', 'item:2']);
    expect(tasks.stats()).toEqual({
      queued: 0,
      inFlight: 0,
      processed: 3,
      failed: 0,
      interrupted: 0,
      dropped: 0,
    });
    expect(log.lines).toEqual([]);
  });

  it('refuses a bad item at add naming the field, and an item with no JSON form', async () => {
    const tasks = new BackgroundTasks({
      logger: new MemoryLog(),
      backend: bullmq(uniqueQueue(), { worker: false }),
    });
    await expect(tasks.add(Note, { text: '' })).rejects.toThrow(
      /^BackgroundTasks\.add\(Note\): Invalid min length: expected >=1 at `\$\.text`; nothing was enqueued$/,
    );
    const Dated = Struct('Dated', { at: v.date() });
    // A Date becomes a string in JSON: the schema refuses the JSON form, so the add fails here,
    // not later in another process.
    await expect(tasks.add(Dated, { at: new Date() })).rejects.toThrow(TaskItemError);
    await expect(tasks.add(Item, { id: 1n as unknown as number })).rejects.toThrow(
      /cannot be encoded as JSON/,
    );
    await tasks.close();
  });

  it('needs a named schema (dispatch crosses processes by Struct name)', () => {
    const tasks = new BackgroundTasks({ backend: bullmq(uniqueQueue()) });
    expect(() => tasks.register(v.object({ id: v.number() }), () => undefined)).toThrow(WiringError);
    expect(() => tasks.register(v.object({ id: v.number() }), () => undefined)).toThrow(
      /dispatches by schema name across processes.*Fix: declare the item with Struct/,
    );
    tasks.register(Item, () => undefined);
    expect(() => tasks.register(Struct('Item', { other: v.string() }), () => undefined)).toThrow(
      /two different schemas are named Item/,
    );
  });

  it('logs a failing handler with the schema name, marks the item failed in Redis, and goes on', async () => {
    const log = new MemoryLog();
    const queueName = uniqueQueue();
    const tasks = new BackgroundTasks({ logger: log, backend: bullmq(queueName) });
    const seen: number[] = [];
    tasks.register(Item, (item) => {
      if (item.id === 2) throw new Error('boom');
      seen.push(item.id);
    });
    await tasks.start();
    for (const id of [1, 2, 3]) await tasks.add(Item, { id });
    await until(() => seen.length === 2);
    await tasks.close();
    expect(seen).toEqual([1, 3]);
    expect(log.of('error')).toEqual(['BackgroundTasks: handler for Item failed; the worker goes on']);
    expect(tasks.stats()).toMatchObject({ processed: 2, failed: 1 });
    expect(await redisCounts(queueName)).toMatchObject({ wait: 0, active: 0, completed: 0, failed: 1 });
  });

  it('items survive a restart: added by one queue that closes, handled by the next one', async () => {
    const queueName = uniqueQueue();
    const producer = new BackgroundTasks({ backend: bullmq(queueName, { worker: false }) });
    for (let id = 0; id < 50; id++) await producer.add(Item, { id });
    await producer.close();
    await expect(producer.add(Item, { id: 99 })).rejects.toThrow(TasksClosedError);
    expect(await redisCounts(queueName)).toMatchObject({ wait: 50 });

    const consumer = new BackgroundTasks({ backend: bullmq(queueName) });
    const seen: number[] = [];
    consumer.register(Item, (item) => void seen.push(item.id));
    await consumer.start();
    await until(() => seen.length === 50);
    await consumer.close();
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(await redisCounts(queueName)).toMatchObject({ wait: 0, active: 0, failed: 0 });
  });

  it('shutdown closes the worker gracefully: the item in flight finishes, the rest stay in Redis', async () => {
    const queueName = uniqueQueue();
    const tasks = new BackgroundTasks({ drainTimeout: 5, backend: bullmq(queueName) });
    const seen: number[] = [];
    tasks.register(Item, async (item) => {
      await sleep(100);
      seen.push(item.id);
    });
    await tasks.start();
    for (let id = 0; id < 5; id++) await tasks.add(Item, { id });
    await until(() => tasks.stats().inFlight === 1);
    await tasks.close();
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i));
    expect(await redisCounts(queueName)).toMatchObject({ wait: 5 - seen.length, active: 0, failed: 0 });
  });

  it('on drainTimeout aborts the in-flight handler and warns; an item it abandons goes to the next worker', async () => {
    const queueName = uniqueQueue();
    const log = new MemoryLog();
    const options = { lockDuration: 1_000, stalledInterval: 300 };
    const stuck = new BackgroundTasks({
      logger: log,
      drainTimeout: 0.05,
      backend: bullmq(queueName, options),
    });
    let signalled = false;
    stuck.register(Item, async (_item, { signal }) => {
      signal.addEventListener('abort', () => (signalled = true));
      await sleep(5_000); // ignores its signal
    });
    await stuck.start();
    await stuck.add(Item, { id: 7 });
    await until(() => stuck.stats().inFlight === 1);
    const started = performance.now();
    await stuck.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(signalled).toBe(true);
    expect(log.of('warn')).toEqual([
      expect.stringMatching(
        /drainTimeout 0\.05 s.*queued 0, dropped 0, interrupted 1 .*1 in flight \(Item\) did not stop within the grace.*another worker once its lock expires/,
      ),
    ]);

    const next = new BackgroundTasks({ backend: bullmq(queueName, options) });
    const seen: number[] = [];
    next.register(Item, (item) => void seen.push(item.id));
    await next.start();
    await until(() => seen.length === 1, 10_000);
    await next.close();
    expect(seen).toEqual([7]);
  }, 20_000);

  it.each(['returns', 'throws'] as const)(
    'a handler that %s on its signal at the deadline: the item goes back to wait (not completed, not failed) and the next worker runs it once',
    async (mode) => {
      const queueName = uniqueQueue();
      const log = new MemoryLog();
      const first = new BackgroundTasks({ logger: log, drainTimeout: 0.05, backend: bullmq(queueName) });
      first.register(Item, async (_item, { signal }) => {
        try {
          await wait(10_000, undefined, { signal });
        } catch (error) {
          if (mode === 'throws') throw error;
        }
      });
      await first.start();
      await first.add(Item, { id: 7 });
      await until(() => first.stats().inFlight === 1);
      await first.close();
      // The queue's own abort is not a handler failure: no ERROR line, one WARN with the counts.
      expect(log.of('error')).toEqual([]);
      expect(log.of('warn')).toEqual([
        'BackgroundTasks: the task drain deadline (drainTimeout 0.05 s; not the HTTP shutdown cap) reached before the BullMQ worker stopped: queued 0, dropped 0, interrupted 1 (items not taken stay in Redis; 1 in flight (Item) stopped on its signal and went back to the wait list for the next worker)',
      ]);
      expect(first.stats()).toEqual({
        queued: 0,
        inFlight: 0,
        processed: 0,
        failed: 0,
        interrupted: 1,
        dropped: 0,
      });
      expect(await redisCounts(queueName)).toEqual({
        wait: 1,
        active: 0,
        completed: 0,
        failed: 0,
        delayed: 0,
      });
      // An interruption is no attempt.
      expect(
        await withQueue(queueName, async (q) => (await q.getWaiting()).map((j) => j.attemptsMade)),
      ).toEqual([0]);

      // The next worker takes it at once (the lock was released; lockDuration is 30 s).
      const next = new BackgroundTasks({ backend: bullmq(queueName) });
      const seen: number[] = [];
      next.register(Item, (item) => void seen.push(item.id));
      await next.start();
      await until(() => seen.length === 1);
      await sleep(200); // a second run would show up now
      await next.close();
      expect(seen).toEqual([7]);
      expect(await redisCounts(queueName)).toEqual({
        wait: 0,
        active: 0,
        completed: 0,
        failed: 0,
        delayed: 0,
      });
    },
  );

  it('retries a failing item per its registration (BullMQ attempts and backoff), logging each attempt', async () => {
    const queueName = uniqueQueue();
    const log = new MemoryLog();
    const tasks = new BackgroundTasks({ logger: log, backend: bullmq(queueName) });
    const runs: number[] = [];
    tasks.register(
      Item,
      () => {
        runs.push(Date.now());
        if (runs.length < 3) throw new Error(`run ${runs.length} failed`);
      },
      { attempts: 3, backoff: { type: 'fixed', delay: 200 } },
    );
    await tasks.start();
    await tasks.add(Item, { id: 1 });
    await until(() => tasks.stats().processed === 1, 10_000);
    await tasks.close();
    expect(runs).toHaveLength(3);
    // BullMQ held the item in its delayed set for the backoff between runs (timers are never early).
    expect(runs[1]! - runs[0]!).toBeGreaterThanOrEqual(195);
    expect(runs[2]! - runs[1]!).toBeGreaterThanOrEqual(195);
    expect(log.of('error')).toEqual([
      'BackgroundTasks: handler for Item failed (attempt 1 of 3; BullMQ retries it); the worker goes on',
      'BackgroundTasks: handler for Item failed (attempt 2 of 3; BullMQ retries it); the worker goes on',
    ]);
    expect(tasks.stats()).toMatchObject({ processed: 1, failed: 2, interrupted: 0, dropped: 0 });
    expect(await redisCounts(queueName)).toEqual({ wait: 0, active: 0, completed: 0, failed: 0, delayed: 0 });
  });

  it('an item that fails its last attempt stays in the failed set, with its attempts and reason', async () => {
    const queueName = uniqueQueue();
    const log = new MemoryLog();
    const tasks = new BackgroundTasks({ logger: log, backend: bullmq(queueName) });
    tasks.register(
      Item,
      () => {
        throw new Error('always');
      },
      { attempts: 2 },
    );
    await tasks.start();
    await tasks.add(Item, { id: 1 });
    await until(() => tasks.stats().failed === 2, 10_000);
    await tasks.close();
    expect(log.of('error')).toEqual([
      'BackgroundTasks: handler for Item failed (attempt 1 of 2; BullMQ retries it); the worker goes on',
      'BackgroundTasks: handler for Item failed (attempt 2 of 2; the last); the worker goes on',
    ]);
    const failed = await withQueue(queueName, (q) => q.getFailed());
    expect(failed.map((j) => [j.name, j.data, j.attemptsMade, j.failedReason])).toEqual([
      ['Item', { id: 1 }, 2, 'Item: a handler failed (see the log)'],
    ]);
  });

  it('add and tryAdd with { delay } hold the item in the delayed set until then', async () => {
    const queueName = uniqueQueue();
    const tasks = new BackgroundTasks({ backend: bullmq(queueName) });
    const ran: [number, number][] = [];
    tasks.register(Item, (item) => void ran.push([item.id, Date.now()]));
    await tasks.start();
    const added = Date.now();
    await tasks.add(Item, { id: 1 }, { delay: 300 });
    expect(tasks.tryAdd(Item, { id: 2 }, { delay: 300 })).toBe(true);
    await until(() => tasks.stats().queued === 0);
    expect(await redisCounts(queueName)).toMatchObject({ delayed: 2, wait: 0 });
    await until(() => ran.length === 2, 5_000);
    await tasks.close();
    for (const [, at] of ran) expect(at - added).toBeGreaterThanOrEqual(295);
    expect(ran.map(([id]) => id).sort()).toEqual([1, 2]);
  });

  it('an item no handler here can take fails at once whatever its attempts; differing retry options are reported', async () => {
    const queueName = uniqueQueue();
    // The producer registers Item with retries and adds a Note it has no options for.
    const producer = new BackgroundTasks({ backend: bullmq(queueName, { worker: false }) });
    producer.register(Item, () => undefined, { attempts: 3 });
    await producer.add(Item, { id: 1 });
    await producer.add(Note, { text: 'n' });
    await producer.close();

    const log = new MemoryLog();
    const consumer = new BackgroundTasks({ logger: log, backend: bullmq(queueName) });
    const notes: string[] = [];
    consumer.register(Note, (note) => void notes.push(note.text), { attempts: 2 });
    await consumer.start();
    await until(() => notes.length === 1 && consumer.stats().dropped === 1);
    await consumer.close();
    expect(log.of('error')).toEqual([
      'BackgroundTasks: no handler is registered for Item in this process; the item is dropped (marked failed in Redis). Fix: every process that shares queue "' +
        queueName +
        '" registers the same handlers',
    ]);
    expect(log.of('warn')).toEqual([
      `BackgroundTasks: a Note item arrived with attempts 1 but Note is registered here with attempts 2; BullMQ follows the item's own options, set by the process that added it. Fix: register Note with the same options in every process that shares queue "${queueName}", producers included`,
    ]);
    // Not retried: one attempt, although the item asked for three.
    const failed = await withQueue(queueName, (q) => q.getFailed());
    expect(failed.map((j) => [j.name, j.attemptsMade, j.opts.attempts])).toEqual([['Item', 1, 3]]);
  });

  it('with maxsize 1, a second add waits for the first write and tryAdd returns false meanwhile', async () => {
    const tasks = new BackgroundTasks({ maxsize: 1, backend: bullmq(uniqueQueue(), { worker: false }) });
    const first = tasks.add(Item, { id: 1 });
    expect(tasks.tryAdd(Item, { id: 2 })).toBe(false);
    const second = tasks.add(Item, { id: 3 });
    expect(tasks.stats().queued).toBe(2);
    await Promise.all([first, second]);
    expect(tasks.tryAdd(Item, { id: 4 })).toBe(true);
    await tasks.close();
  });

  it('fails start() with a clear error when Redis does not answer', async () => {
    const tasks = new BackgroundTasks({
      logger: new MemoryLog(),
      backend: bullmqBackend({ connection: { host: '127.0.0.1', port: 1 }, connectTimeout: 300 }),
    });
    await expect(tasks.start()).rejects.toThrow(/Redis did not answer within 300 ms/);
    await tasks.close();
  });
});

const here = fileURLToPath(new URL('.', import.meta.url));
const packageDir = join(here, '..');

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly out: string;
  readonly exited: Promise<number | null>;
  output(): string;
}

async function spawnWorker(
  queueName: string,
  name: string,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const out = join(dir, `${queueName}-${name}.txt`);
  const child = spawn(
    process.execPath,
    ['--conditions=@api/source', '--import', 'tsx', join(here, 'fixtures', 'bullmq-worker.ts')],
    {
      cwd: packageDir,
      env: { ...process.env, REDIS_PORT: String(redis.port), QUEUE: queueName, OUT: out, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await Promise.race([
    until(() => text.includes('ready'), 20_000),
    exited.then(() => {
      throw new Error(`worker ${name} exited early: ${text}`);
    }),
  ]);
  return { child, out, exited, output: () => text };
}

function handled(worker: WorkerProcess): number[] {
  return existsSync(worker.out)
    ? readFileSync(worker.out, 'utf8').split('\n').filter(Boolean).map(Number)
    : [];
}

async function addAll(queueName: string, count: number): Promise<void> {
  const producer = new BackgroundTasks({ maxsize: 256, backend: bullmq(queueName, { worker: false }) });
  await Promise.all(Array.from({ length: count }, (_, id) => producer.add(Item, { id })));
  await producer.close();
}

describe.skipIf(skipRedis)('BullMQ backend, several processes', () => {
  it('two worker processes share 1,000 items; each item is handled exactly once', async () => {
    const queueName = uniqueQueue();
    const workers = await Promise.all([spawnWorker(queueName, 'a'), spawnWorker(queueName, 'b')]);
    try {
      await addAll(queueName, 1_000);
      await until(() => workers.reduce((n, w) => n + handled(w).length, 0) >= 1_000, 60_000);
      await sleep(200); // anything handled twice would show up now
      const [a, b] = workers.map(handled) as [number[], number[]];
      expect(a.length + b.length).toBe(1_000);
      expect(new Set([...a, ...b]).size).toBe(1_000);
      expect(a.length).toBeGreaterThan(0);
      expect(b.length).toBeGreaterThan(0);
    } finally {
      for (const w of workers) w.child.kill('SIGTERM');
      expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
    }
    expect(workers.map((w) => w.output())).toEqual([
      expect.stringMatching(
        /stopped \{"queued":0,"inFlight":0,"processed":\d+,"failed":0,"interrupted":0,"dropped":0\}/,
      ),
      expect.stringMatching(
        /stopped \{"queued":0,"inFlight":0,"processed":\d+,"failed":0,"interrupted":0,"dropped":0\}/,
      ),
    ]);
    expect(await redisCounts(queueName)).toMatchObject({ wait: 0, active: 0, failed: 0 });
  }, 90_000);

  it.each(['return', 'throw'] as const)(
    'a worker SIGTERMed mid-item with a short drain hands the item back: the next process runs it exactly once (handler %ss on abort)',
    async (onAbort) => {
      const queueName = uniqueQueue();
      const events = join(dir, `${queueName}-events.txt`);
      const lines = (): string[] =>
        existsSync(events) ? readFileSync(events, 'utf8').split('\n').filter(Boolean) : [];
      // lockDuration stays BullMQ's 30 s: a hand-over by lock expiry would come far too late.
      const first = await spawnWorker(queueName, 'first', {
        HOLD_MS: '60000',
        DRAIN_S: '0.2',
        EVENTS: events,
        ON_ABORT: onAbort,
      });
      await addAll(queueName, 1);
      await until(() => lines().includes('started 0'), 20_000);
      const second = await spawnWorker(queueName, 'second');
      try {
        first.child.kill('SIGTERM');
        expect(await first.exited).toBe(0);
        await until(() => handled(second).length >= 1, 10_000);
        await sleep(300); // a second run would show up now
        expect(handled(second)).toEqual([0]);
        expect(handled(first)).toEqual([]); // the first process did not complete it
        expect(lines()).toEqual(['started 0', 'stopped 0']);
        expect(first.output()).toMatch(
          /queued 0, dropped 0, interrupted 1 \(items not taken stay in Redis; 1 in flight \(Item\) stopped on its signal and went back to the wait list for the next worker\)/,
        );
        expect(first.output()).toMatch(
          /stopped \{"queued":0,"inFlight":0,"processed":0,"failed":0,"interrupted":1,"dropped":0\}/,
        );
        expect(first.output()).not.toMatch(/failed; the worker goes on/);
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
      expect(second.output()).toMatch(
        /stopped \{"queued":0,"inFlight":0,"processed":1,"failed":0,"interrupted":0,"dropped":0\}/,
      );
      expect(await redisCounts(queueName)).toEqual({
        wait: 0,
        active: 0,
        completed: 0,
        failed: 0,
        delayed: 0,
      });
    },
    60_000,
  );

  it('a worker killed mid-run loses nothing: the survivor takes its item once the lock expires', async () => {
    const queueName = uniqueQueue();
    const env = { DELAY_MS: '2', LOCK_MS: '1000', STALLED_MS: '300' };
    const [victim, survivor] = await Promise.all([
      spawnWorker(queueName, 'victim', env),
      spawnWorker(queueName, 'survivor', env),
    ]);
    try {
      await addAll(queueName, 1_000);
      await until(() => handled(victim).length >= 100, 60_000);
      victim.child.kill('SIGKILL');
      await victim.exited;
      await until(() => new Set([...handled(victim), ...handled(survivor)]).size >= 1_000, 60_000);
      const all = [...handled(victim), ...handled(survivor)];
      expect(new Set(all).size).toBe(1_000);
      // At least once: only the item the victim held when it died may have been handled twice.
      expect(all.length - 1_000).toBeLessThanOrEqual(1);
    } finally {
      survivor.child.kill('SIGTERM');
      await survivor.exited;
    }
    expect(await redisCounts(queueName)).toMatchObject({ wait: 0, active: 0 });
  }, 120_000);
});
