import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rateOf } from '../gcra/gcra';
import { redisStore, type RedisClient } from './redis-store';

/** A client whose script calls answer what `answer` says (a promise that never settles: a hung Redis). */
function fakeClient(answer: (command: 'evalsha' | 'eval', args: unknown[]) => Promise<unknown>) {
  const calls: [string, unknown[]][] = [];
  const client: RedisClient = {
    status: 'ready',
    evalsha: (...args) => (calls.push(['evalsha', args]), answer('evalsha', args)),
    eval: (...args) => (calls.push(['eval', args]), answer('eval', args)),
    on: () => undefined,
    once: () => undefined,
    off: () => undefined,
    quit: () => Promise.resolve(),
    disconnect: () => undefined,
  };
  return { client, calls };
}

const bucket = { key: 'api:a:1.2.3.4', rate: rateOf(10, 60), cost: 1 };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('redisStore', () => {
  it('sends one script call per request, and reads its reply as the answer', async () => {
    const { client, calls } = fakeClient(() => Promise.resolve([1, 1_000, 7_000_000]));
    const store = redisStore(client, { prefix: 'p:' });
    await expect(store.take([bucket])).resolves.toEqual({ allowed: true, now: 1_000, tats: [7_000_000] });
    expect(calls).toEqual([
      ['evalsha', [expect.stringMatching(/^[0-9a-f]{40}$/), 1, 'p:api:a:1.2.3.4', 1, 6_000_000, 60_000_000]],
    ]);
    const two = { key: 'b', rate: rateOf(1, 1), cost: 0 };
    await store.take([bucket, two]);
    expect(calls[1]![1].slice(1)).toEqual([
      2,
      'p:api:a:1.2.3.4',
      'p:b',
      1,
      6_000_000,
      60_000_000,
      0,
      1_000_000,
      1_000_000,
    ]);
  });

  it('loads the script with EVAL when the server does not know it (NOSCRIPT)', async () => {
    const { client, calls } = fakeClient((command) =>
      command === 'evalsha'
        ? Promise.reject(new Error('NOSCRIPT No matching script. Please use EVAL.'))
        : Promise.resolve([0, 5, 9]),
    );
    const store = redisStore(client);
    await expect(store.take([bucket])).resolves.toEqual({ allowed: false, now: 5, tats: [9] });
    expect(calls.map(([command]) => command)).toEqual(['evalsha', 'eval']);
    expect(String(calls[1]![1][0])).toContain("redis.call('TIME')");
  });

  it('passes other errors on as they are', async () => {
    const { client } = fakeClient(() =>
      Promise.reject(new Error('READONLY You can’t write against a read only replica.')),
    );
    await expect(redisStore(client).take([bucket])).rejects.toThrow(/^READONLY/);
  });

  it('fails a call Redis does not answer within timeoutMs (at most a quarter later), with one timer for all', async () => {
    const { client } = fakeClient(() => new Promise(() => undefined));
    const store = redisStore(client, { timeoutMs: 200 });
    const settled: unknown[] = [];
    for (let i = 0; i < 50; i++)
      store.take([bucket]).then(
        () => settled.push('answered'),
        (error: unknown) => settled.push(error),
      );
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(199);
    expect(settled).toEqual([]);
    await vi.advanceTimersByTimeAsync(51);
    expect(settled).toHaveLength(50);
    expect(settled[0]).toMatchObject({
      name: 'RedisTimeoutError',
      message: 'Redis did not answer within 200 ms',
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps an answer that comes in time, and leaves no timer behind', async () => {
    let reply: (value: unknown) => void = () => undefined;
    const { client } = fakeClient(() => new Promise((resolve) => (reply = resolve)));
    const store = redisStore(client, { timeoutMs: 200 });
    const taken = store.take([bucket]);
    await vi.advanceTimersByTimeAsync(150);
    reply([1, 2, 3]);
    await expect(taken).resolves.toEqual({ allowed: true, now: 2, tats: [3] });
    await vi.advanceTimersByTimeAsync(100);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cuts the connection at close when QUIT is not answered within timeoutMs (a hung server)', async () => {
    const { client } = fakeClient(() => Promise.resolve([1, 0, 0]));
    const cut = vi.fn();
    const hung: RedisClient = { ...client, quit: () => new Promise(() => undefined), disconnect: cut };
    let closed = false;
    void redisStore(hung, { timeoutMs: 200 }).close!()!.then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(199);
    expect([closed, cut.mock.calls.length]).toEqual([false, 0]);
    await vi.advanceTimersByTimeAsync(1);
    expect([closed, cut.mock.calls.length]).toEqual([true, 1]);
  });

  it('quits without cutting when QUIT is answered, and leaves no timer behind', async () => {
    const { client } = fakeClient(() => Promise.resolve([1, 0, 0]));
    const cut = vi.fn();
    await redisStore({ ...client, disconnect: cut }).close!();
    expect(cut).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
