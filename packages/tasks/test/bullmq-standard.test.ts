// Standard Schema (zod, ArkType) payloads through BullMQ and a real Redis: named with `named()`,
// validated in their JSON form at add, validated again by the worker (an async refinement awaited,
// the handler given the output), and an item in Redis that fails its schema dropped and logged.
import { type } from 'arktype';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { named, WiringError } from '@api/core';
import { BackgroundTasks, bullmqBackend, TaskItemError } from '../src/index';
import { MemoryLog, sleep, until } from './helpers';
import { skipRedis, startRedis, type RedisHandle } from '../../../config/test/redis';

const Reminder = named(
  'Reminder',
  z.object({
    userId: z.string().refine(async (id) => {
      await sleep(1);
      return id !== 'gone';
    }),
    at: z.iso.datetime().transform((s) => new Date(s)),
  }),
);
const Ping = named('Ping', type({ id: 'string', n: 'number.integer' }));

let redis: RedisHandle;
let counter = 0;
beforeAll(async () => {
  if (skipRedis) return;
  redis = await startRedis();
}, 20_000);
afterAll(async () => {
  if (skipRedis) return;
  await redis.stop();
});

function backend(queueName: string, worker = true): ReturnType<typeof bullmqBackend> {
  return bullmqBackend({ connection: { host: '127.0.0.1', port: redis.port }, queueName, worker });
}

describe.skipIf(skipRedis)('BullMQ backend with Standard Schemas', () => {
  it('round-trips zod and ArkType items: the handler gets the output of the JSON form', async () => {
    const log = new MemoryLog();
    const tasks = new BackgroundTasks({ logger: log, backend: backend(`std${process.pid}-${++counter}`) });
    const seen: unknown[] = [];
    tasks.register(Reminder, (item) => void seen.push(item));
    tasks.register(Ping, (item) => void seen.push(item));
    await tasks.start();
    await tasks.add(Reminder, { userId: 'u1', at: '2026-01-02T03:04:05.000Z' });
    expect(tasks.tryAdd(Ping, { id: 'p', n: 2 })).toBe(true);
    await until(() => seen.length === 2);
    await tasks.close();
    expect(seen).toEqual([
      { userId: 'u1', at: new Date('2026-01-02T03:04:05.000Z') },
      { id: 'p', n: 2 },
    ]);
    expect(tasks.stats()).toMatchObject({ processed: 2, failed: 0, dropped: 0 });
    expect(log.lines).toEqual([]);
  });

  it('refuses at add, by path and without the value', async () => {
    const tasks = new BackgroundTasks({
      logger: new MemoryLog(),
      backend: backend(`std${process.pid}-${++counter}`, false),
    });
    await expect(tasks.add(Reminder, { userId: 'gone', at: '2026-01-02T03:04:05.000Z' })).rejects.toThrow(
      new TaskItemError('BackgroundTasks.add(Reminder)', 'Reminder', 'Invalid value at `$.userId`', [
        { path: '$.userId', message: 'Invalid value' },
      ]),
    );
    const error = (await tasks
      .add(Ping, { id: 'p', n: '<script>' as unknown as number })
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      'BackgroundTasks.add(Ping): Expected number, got string at `$.n`; nothing was enqueued',
    );
    await tasks.close();
  });

  it('drops and logs an item from Redis that fails its schema at run (async check included)', async () => {
    const log = new MemoryLog();
    const queueName = `std${process.pid}-${++counter}`;
    const producer = new Queue(queueName, { connection: { host: '127.0.0.1', port: redis.port } });
    await producer.add('Reminder', { userId: 'gone', at: '2026-01-02T03:04:05.000Z' });
    await producer.add('Reminder', { userId: 'u2', at: 'not a date' });
    await producer.close();
    const tasks = new BackgroundTasks({ logger: log, backend: backend(queueName) });
    const seen: unknown[] = [];
    tasks.register(Reminder, (item) => void seen.push(item));
    await tasks.start();
    await until(() => tasks.stats().dropped === 2);
    await tasks.close();
    expect(seen).toEqual([]);
    expect(log.of('error')).toEqual([
      'BackgroundTasks: a Reminder item from Redis fails its schema (Invalid value at `$.userId`); it is dropped (marked failed in Redis)',
      'BackgroundTasks: a Reminder item from Redis fails its schema (Invalid iso timestamp at `$.at`); it is dropped (marked failed in Redis)',
    ]);
  });

  it('needs a named schema', () => {
    const tasks = new BackgroundTasks({ backend: backend(`std${process.pid}-${++counter}`, false) });
    const register = () => tasks.register(z.object({ id: z.string() }), () => undefined);
    expect(register).toThrow(WiringError);
    expect(register).toThrow(/name a zod \/ ArkType schema with named\('Name', schema\)/);
  });
});
