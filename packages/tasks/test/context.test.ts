// The `propagator` option: a context captured at `add` travels with the item — wrapped in
// process, beside its fields in the job's data on BullMQ — and the handlers run inside it. Written
// against a plain AsyncLocalStorage propagator (what @api/otel's `taskContext()` does for traces).
import { AsyncLocalStorage } from 'node:async_hooks';
import * as v from 'valibot';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Struct, WiringError } from '@api/core';
import {
  BackgroundTasks,
  bullmqBackend,
  type TaskContextPropagator,
  type TaskOutcome,
  type TaskRun,
} from '../src/index';
import { MemoryLog, until } from './helpers';
import { skipRedis, startRedis, type RedisHandle } from '../../../config/test/redis';

const Item = Struct('Item', { id: v.number() });
const tenant = new AsyncLocalStorage<string>();

/** Carries the current tenant; records every restore (what it was given, how the item ended). */
function tenantPropagator(): TaskContextPropagator & {
  restored: { carried: unknown; task: TaskRun; outcome: TaskOutcome }[];
} {
  const restored: { carried: unknown; task: TaskRun; outcome: TaskOutcome }[] = [];
  return {
    restored,
    capture: () => {
      const current = tenant.getStore();
      return current === undefined ? undefined : { tenant: current };
    },
    restore: (carried, task, run) =>
      tenant.run(carried?.tenant ?? 'none', () => {
        const outcome = run();
        const record = (o: TaskOutcome): TaskOutcome => (restored.push({ carried, task, outcome: o }), o);
        return typeof outcome === 'string' ? record(outcome) : outcome.then(record);
      }),
  };
}

describe('a context propagator, in process', () => {
  it('carries the context captured at add into the handlers (sync and async), with the item’s run', async () => {
    const propagator = tenantPropagator();
    const tasks = new BackgroundTasks({ propagator, logger: new MemoryLog() });
    const seen: string[] = [];
    tasks.register(Item, async (item) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push(`${item.id}@${tenant.getStore()}`);
      if (item.id === 3) throw new Error('no');
    });
    await tenant.run('acme', () => tasks.add(Item, { id: 1 }));
    expect(tenant.run('globex', () => tasks.tryAdd(Item, { id: 2 }))).toBe(true);
    await tenant.run('acme', () => tasks.add(Item, { id: 3 }));
    await tasks.add(Item, { id: 4 }); // nothing to carry
    await tasks.close();
    expect(seen).toEqual(['1@acme', '2@globex', '3@acme', '4@none']);
    const task = { name: 'Item', backend: 'in-process', queue: undefined, attempt: 1 };
    expect(propagator.restored).toEqual([
      { carried: { tenant: 'acme' }, task, outcome: 'processed' },
      { carried: { tenant: 'globex' }, task, outcome: 'processed' },
      { carried: { tenant: 'acme' }, task, outcome: 'failed' },
      { carried: undefined, task, outcome: 'processed' },
    ]);
    expect(tasks.stats()).toMatchObject({ processed: 3, failed: 1 });
  });

  it('refuses a captured context it could not carry: the add fails, nothing is enqueued', async () => {
    const tasks = new BackgroundTasks({
      logger: new MemoryLog(),
      propagator: { capture: () => ({ 'bad name': 'x' }), restore: (_c, _t, run) => run() },
    });
    tasks.register(Item, () => undefined);
    await expect(tasks.add(Item, { id: 1 })).rejects.toThrow(
      'BackgroundTasks.add(Item): the propagator\'s capture() returned a context the queue cannot carry: the carried context has an entry named "bad name" (names: 1–64 of A-Z a-z 0-9 - _ .). Fix: return a small map of strings (or undefined for none)',
    );
    expect(tasks.stats().queued).toBe(0);
    await tasks.close();
  });

  it('a propagator cannot lose an item: a throw before run, or no run at all, is logged and the handlers run', async () => {
    for (const restore of [
      () => {
        throw new Error('tracer broke');
      },
      () => 'processed' as const,
    ]) {
      const log = new MemoryLog();
      const tasks = new BackgroundTasks({
        logger: log,
        propagator: { capture: () => ({ t: '1' }), restore: restore },
      });
      const ran: number[] = [];
      tasks.register(Item, (item) => void ran.push(item.id));
      await tasks.add(Item, { id: 7 });
      await tasks.close();
      expect(ran).toEqual([7]);
      expect(tasks.stats()).toMatchObject({ processed: 1, failed: 0, dropped: 0 });
      expect(log.of('error')).toHaveLength(1);
      expect(log.of('error')[0]).toMatch(/^BackgroundTasks: the context propagator/);
    }
  });

  it('refuses a propagator without capture and restore (WiringError)', () => {
    expect(
      () =>
        new BackgroundTasks({ propagator: { capture: () => undefined } as unknown as TaskContextPropagator }),
    ).toThrow(
      new WiringError(
        'BackgroundTasks: the propagator option has no capture() and restore(carried, task, run). Fix: pass a TaskContextPropagator (e.g. taskContext() from @api/otel), or leave it out.',
      ),
    );
  });
});

let redis: RedisHandle;
let queueCounter = 0;
const uniqueQueue = (): string => `ctx${process.pid}-${++queueCounter}`;
const connection = (): { host: string; port: number } => ({ host: '127.0.0.1', port: redis.port });

beforeAll(async () => {
  if (!skipRedis) redis = await startRedis();
}, 20_000);
afterAll(async () => {
  if (!skipRedis) await redis.stop();
});

describe.skipIf(skipRedis)('a context propagator, on BullMQ', () => {
  it('the context travels in the job’s data, beside the item, to the worker’s handlers', async () => {
    const queueName = uniqueQueue();
    const producer = new BackgroundTasks({
      propagator: tenantPropagator(),
      backend: bullmqBackend({ connection: connection(), queueName, worker: false }),
    });
    await tenant.run('acme', () => producer.add(Item, { id: 1 }));
    const queue = new Queue(queueName, { connection: connection() });
    try {
      const [job] = await queue.getJobs(['wait']);
      expect(job!.data).toEqual({ id: 1, $context: { tenant: 'acme' } });
    } finally {
      await queue.close();
    }
    await producer.close();

    const propagator = tenantPropagator();
    const consumer = new BackgroundTasks({
      propagator,
      backend: bullmqBackend({ connection: connection(), queueName }),
    });
    const seen: string[] = [];
    consumer.register(Item, (item) => void seen.push(`${item.id}@${tenant.getStore()}`));
    await consumer.start();
    await until(() => seen.length === 1, 10_000);
    await consumer.close();
    expect(seen).toEqual(['1@acme']);
    expect(propagator.restored).toEqual([
      {
        carried: { tenant: 'acme' },
        task: { name: 'Item', backend: 'bullmq', queue: queueName, attempt: 1 },
        outcome: 'processed',
      },
    ]);
  });

  it('a carried context that fails its checks is dropped (one WARN per schema); a worker without a propagator ignores it', async () => {
    const queueName = uniqueQueue();
    const queue = new Queue(queueName, { connection: connection() });
    try {
      await queue.add('Item', { id: 1, $context: { tenant: 'a\nb' } }, { attempts: 1 });
      await queue.add('Item', { id: 2, $context: ['not', 'a', 'map'] }, { attempts: 1 });
    } finally {
      await queue.close();
    }
    const log = new MemoryLog();
    const consumer = new BackgroundTasks({
      logger: log,
      propagator: tenantPropagator(),
      backend: bullmqBackend({ connection: connection(), queueName }),
    });
    const seen: string[] = [];
    consumer.register(Item, (item) => void seen.push(`${item.id}@${tenant.getStore()}`));
    await consumer.start();
    await until(() => seen.length === 2, 10_000);
    await consumer.close();
    expect(seen).toEqual(['1@none', '2@none']);
    expect(log.of('warn')).toEqual([
      "BackgroundTasks: a Item item from Redis carries a context that fails its checks (the carried context's tenant has characters other than printable ASCII); its handlers run without it (reported once per schema)",
    ]);

    const plainQueue = uniqueQueue();
    const producer = new BackgroundTasks({
      propagator: tenantPropagator(),
      backend: bullmqBackend({ connection: connection(), queueName: plainQueue, worker: false }),
    });
    await tenant.run('acme', () => producer.add(Item, { id: 3 }));
    await producer.close();
    const plain = new BackgroundTasks({
      backend: bullmqBackend({ connection: connection(), queueName: plainQueue }),
    });
    const items: unknown[] = [];
    plain.register(Item, (item) => void items.push(item));
    await plain.start();
    await until(() => items.length === 1, 10_000);
    await plain.close();
    expect(items).toEqual([{ id: 3 }]);
  });
});
