import { setTimeout as wait } from 'node:timers/promises';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseFactory, Struct, WiringError } from '@api/core';
import { FactoryHarness } from '@api/testing';
import {
  BackgroundTasks,
  inProcessBackend,
  TaskItemError,
  TasksClosedError,
  type BackgroundTasksOptions,
} from '../index';
import { gate, MemoryLog, nextMacrotask, sleep, until } from '../../test/helpers';

const WidgetEvent = Struct('WidgetEvent', {
  action: v.picklist(['created', 'updated', 'deleted']),
  widgetId: v.string(),
});
const Reindex = Struct('Reindex', { widgetId: v.string() });

const open: BackgroundTasks[] = [];
function queue(options: BackgroundTasksOptions = {}): { tasks: BackgroundTasks; log: MemoryLog } {
  const log = new MemoryLog();
  const tasks = new BackgroundTasks({ logger: log, ...options });
  open.push(tasks);
  return { tasks, log };
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe('BackgroundTasks: dispatch', () => {
  it('dispatches by schema identity, in FIFO order, to the handler registered for each type', async () => {
    const { tasks } = queue();
    const seen: string[] = [];
    tasks.register(WidgetEvent, (e) => void seen.push(`event:${e.action}:${e.widgetId}`));
    tasks.register(Reindex, (r) => void seen.push(`reindex:${r.widgetId}`));
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'a' });
    await tasks.add(Reindex, { widgetId: 'a' });
    await tasks.add(WidgetEvent, { action: 'deleted', widgetId: 'b' });
    await tasks.close();
    expect(seen).toEqual(['event:created:a', 'reindex:a', 'event:deleted:b']);
    expect(tasks.stats()).toEqual({
      queued: 0,
      inFlight: 0,
      processed: 3,
      failed: 0,
      interrupted: 0,
      dropped: 0,
    });
  });

  it('dispatches by identity, not by name: two schemas with one name are two item types', async () => {
    const { tasks } = queue();
    const Other = Struct('WidgetEvent', { n: v.number() });
    const seen: unknown[] = [];
    tasks.register(WidgetEvent, (e) => void seen.push(e.widgetId));
    tasks.register(Other, (e) => void seen.push(e.n));
    await tasks.add(Other, { n: 1 });
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'w' });
    await tasks.close();
    expect(seen).toEqual([1, 'w']);
  });

  it('hands the handler the validated output (a copy: later changes by the caller do not leak in)', async () => {
    const { tasks } = queue();
    const Trimmed = Struct('Trimmed', { name: v.pipe(v.string(), v.trim()) });
    const seen: unknown[] = [];
    tasks.register(Trimmed, (item) => void seen.push(item));
    const item = { name: '  x  ', extra: true };
    await tasks.add(Trimmed, item);
    item.name = 'changed';
    await tasks.close();
    expect(seen).toEqual([{ name: 'x' }]);
  });

  it('runs the handler after the enqueuing code has gone on (a later macrotask), never inside add', async () => {
    const { tasks } = queue();
    const order: string[] = [];
    tasks.register(Reindex, () => void order.push('handler'));
    const added = tasks.add(Reindex, { widgetId: 'w' });
    order.push('add returned');
    await added;
    order.push('add resolved');
    await tasks.close();
    expect(order).toEqual(['add returned', 'add resolved', 'handler']);
  });

  it('add resolves within the same macrotask when there is room', async () => {
    const { tasks } = queue({ maxsize: 3 });
    tasks.register(Reindex, () => undefined);
    let macrotaskRan = false;
    setImmediate(() => (macrotaskRan = true));
    await tasks.add(Reindex, { widgetId: '1' });
    await tasks.add(Reindex, { widgetId: '2' });
    await tasks.add(Reindex, { widgetId: '3' });
    expect(macrotaskRan).toBe(false);
    expect(tasks.stats().queued).toBe(3);
  });

  it('refuses a bad item naming the field, and enqueues nothing', async () => {
    const { tasks } = queue();
    const seen: unknown[] = [];
    tasks.register(WidgetEvent, (e) => void seen.push(e));
    const bad = tasks.add(WidgetEvent, { action: 'created', widgetId: 7 as unknown as string });
    await expect(bad).rejects.toBeInstanceOf(TaskItemError);
    await expect(bad).rejects.toThrow(
      'BackgroundTasks.add(WidgetEvent): Expected string, got number at `$.widgetId`; nothing was enqueued',
    );
    const error = (await bad.catch((e: unknown) => e)) as TaskItemError;
    expect(error.schema).toBe('WidgetEvent');
    expect(error.issues).toEqual([{ path: '$.widgetId', message: 'Expected string, got number' }]);
    expect(() => tasks.tryAdd(WidgetEvent, { action: 'nope' as 'created', widgetId: 'w' })).toThrow(
      /tryAdd\(WidgetEvent\): Expected .*created.* at `\$\.action`/,
    );
    expect(tasks.stats().queued).toBe(0);
    await tasks.close();
    expect(seen).toEqual([]);
    expect(tasks.stats()).toMatchObject({ processed: 0, dropped: 0 });
  });

  it('never puts the refused value in the error message', async () => {
    const { tasks } = queue();
    const error = (await tasks
      .add(Reindex, { widgetId: { secret: 'hunter2' } as unknown as string })
      .catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain('hunter2');
  });
});

describe('BackgroundTasks: register', () => {
  it('refuses a second handler for one schema with a WiringError naming allowOneToMany', () => {
    const { tasks } = queue();
    tasks.register(WidgetEvent, () => undefined);
    expect(() => tasks.register(WidgetEvent, () => undefined)).toThrow(
      expect.objectContaining({
        code: 'API_WIRING_DUPLICATE',
        where: 'BackgroundTasks.register(WidgetEvent)',
      }),
    );
    expect(() => tasks.register(WidgetEvent, () => undefined)).toThrow(
      /register\(WidgetEvent\): WidgetEvent already has a handler\. Fix: .*\{ allowOneToMany: true \}/,
    );
  });

  it('refuses what is not a schema, an async schema, and a handler that is not a function', () => {
    const { tasks } = queue();
    expect(() => tasks.register({} as never, () => undefined)).toThrow(
      /not a schema \(valibot, or a Standard Schema/,
    );
    expect(() => tasks.register(v.objectAsync({ a: v.string() }) as never, () => undefined)).toThrow(
      /asynchronous/,
    );
    expect(() => tasks.register(Reindex, 'nope' as never)).toThrow(/handler is not a function/);
  });

  it('refuses registration once the worker started (items taken earlier would have missed it)', async () => {
    const { tasks } = queue();
    tasks.register(WidgetEvent, () => undefined);
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'w' });
    await until(() => tasks.stats().processed === 1);
    expect(() => tasks.register(Reindex, () => undefined)).toThrow(
      /worker has already started.*Fix: register/,
    );
    const { tasks: other } = queue();
    await other.start();
    expect(() => other.register(Reindex, () => undefined)).toThrow(WiringError);
  });

  it('registers freely until the first item is dispatched', async () => {
    const { tasks } = queue();
    tasks.register(WidgetEvent, () => undefined);
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'w' });
    const seen: string[] = [];
    tasks.register(Reindex, (r) => void seen.push(r.widgetId)); // same macrotask: worker not started
    await tasks.add(Reindex, { widgetId: 'r' });
    await tasks.close();
    expect(seen).toEqual(['r']);
  });
});

describe('BackgroundTasks: one-to-many', () => {
  it('runs every handler in registration order, each isolated from the others’ failures', async () => {
    const { tasks, log } = queue({ allowOneToMany: true });
    const seen: string[] = [];
    tasks.register(WidgetEvent, function first(e) {
      seen.push(`first:${e.widgetId}`);
    });
    tasks.register(WidgetEvent, async function second(e) {
      await sleep(5);
      seen.push(`second:${e.widgetId}`);
      if (e.widgetId === 'a') throw new Error('second failed');
    });
    tasks.register(WidgetEvent, function third(e) {
      seen.push(`third:${e.widgetId}`);
      if (e.widgetId === 'b') throw new Error('third failed');
    });
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'a' });
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'b' });
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'c' });
    await tasks.close();
    expect(seen).toEqual([
      'first:a',
      'second:a',
      'third:a',
      'first:b',
      'second:b',
      'third:b',
      'first:c',
      'second:c',
      'third:c',
    ]);
    expect(log.of('error')).toEqual([
      'BackgroundTasks: handler second (2 of 3) for WidgetEvent failed; the worker goes on',
      'BackgroundTasks: handler third (3 of 3) for WidgetEvent failed; the worker goes on',
    ]);
    expect(tasks.stats()).toMatchObject({ processed: 1, failed: 2 });
  });
});

describe('BackgroundTasks: failures', () => {
  it('logs a failing handler with the schema name and goes on (sync throw and rejection)', async () => {
    const { tasks, log } = queue();
    const seen: string[] = [];
    tasks.register(Reindex, async function reindex(r) {
      await Promise.resolve();
      if (r.widgetId === 'async-bad') throw new Error('boom async');
      seen.push(r.widgetId);
    });
    tasks.register(WidgetEvent, (e) => {
      if (e.widgetId === 'sync-bad') throw new Error('boom sync');
      seen.push(e.widgetId);
    });
    await tasks.add(Reindex, { widgetId: 'async-bad' });
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'sync-bad' });
    await tasks.add(Reindex, { widgetId: 'r-ok' });
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'e-ok' });
    await tasks.close();
    expect(seen).toEqual(['r-ok', 'e-ok']);
    expect(
      log.lines.filter((l) => l.level === 'error').map((l) => [l.message, (l.error as Error).message]),
    ).toEqual([
      ['BackgroundTasks: handler reindex for Reindex failed; the worker goes on', 'boom async'],
      ['BackgroundTasks: handler for WidgetEvent failed; the worker goes on', 'boom sync'],
    ]);
    expect(tasks.stats()).toEqual({
      queued: 0,
      inFlight: 0,
      processed: 2,
      failed: 2,
      interrupted: 0,
      dropped: 0,
    });
  });

  it('logs an item nobody registered a handler for (once per schema), drops it, and goes on', async () => {
    const { tasks, log } = queue();
    const seen: string[] = [];
    tasks.register(Reindex, (r) => void seen.push(r.widgetId));
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'x' });
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'y' });
    await tasks.add(Reindex, { widgetId: 'r' });
    await tasks.close();
    expect(seen).toEqual(['r']);
    expect(log.of('error')).toEqual([
      expect.stringMatching(
        /^BackgroundTasks: no handler is registered for WidgetEvent; the item is dropped .*Fix: tasks\.register\(WidgetEvent, handler\)/,
      ),
    ]);
    expect(tasks.stats()).toMatchObject({ processed: 1, dropped: 2 });
  });

  it('leaves no unhandled rejection behind: failing handlers, refused items, closed adds', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { tasks } = queue({ drainTimeout: 0.02 });
      tasks.register(Reindex, async () => {
        throw new Error('rejects');
      });
      tasks.register(WidgetEvent, () => new Promise(() => undefined)); // never settles
      for (let i = 0; i < 10; i++) await tasks.add(Reindex, { widgetId: String(i) });
      await tasks.add(WidgetEvent, { action: 'created', widgetId: 'stuck' });
      await tasks.close();
      await expect(tasks.add(Reindex, { widgetId: 'late' })).rejects.toBeInstanceOf(TasksClosedError);
      await sleep(20);
      expect(unhandled).toEqual([]);
      expect(tasks.stats()).toMatchObject({ failed: 10, dropped: 1 });
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('BackgroundTasks: retries and delays in process', () => {
  it('refuses attempts and backoff at registration with a WiringError naming the fix', () => {
    const { tasks } = queue();
    expect(() => tasks.register(Reindex, () => undefined, { attempts: 3 })).toThrow(
      expect.objectContaining({ code: 'API_WIRING_TASKS_RETRY', where: 'BackgroundTasks.register(Reindex)' }),
    );
    expect(() => tasks.register(Reindex, () => undefined, { attempts: 3 })).toThrow(
      "BackgroundTasks.register(Reindex): the in-process backend does not retry failed items (attempts 3). Fix: retry inside the handler, or use bullmqBackend({ … }), where attempts and backoff are BullMQ's own job options.",
    );
    expect(() =>
      tasks.register(Reindex, () => undefined, { attempts: 2, backoff: { type: 'fixed', delay: 10 } }),
    ).toThrow(/in-process backend does not retry failed items \(attempts 2, backoff\)/);
    // attempts 1 is the default: nothing to refuse.
    expect(() => tasks.register(Reindex, () => undefined, { attempts: 1 })).not.toThrow();
  });

  it('checks the options themselves whatever the backend', () => {
    const { tasks } = queue();
    const register = (options: unknown) => () =>
      tasks.register(WidgetEvent, () => undefined, options as never);
    expect(register({ attempts: 0 })).toThrow(/attempts 0 is not a whole number ≥ 1/);
    expect(register({ attempts: 2.5 })).toThrow(/attempts 2\.5 is not a whole number ≥ 1/);
    expect(register({ retries: 3 })).toThrow(/unknown option "retries"\. Fix: use only attempts and backoff/);
    expect(register({ backoff: 100 })).toThrow(/a backoff without attempts ≥ 2 would never be used/);
    expect(register({ attempts: 2, backoff: { type: 'linear', delay: 1 } })).toThrow(
      /backoff\.type "linear" is not 'fixed' or 'exponential'/,
    );
    expect(register({ attempts: 2, backoff: -1 })).toThrow(
      /backoff -1 is not a whole number of milliseconds/,
    );
    expect(register({ attempts: 2, backoff: { type: 'fixed', delay: 1, jitter: 2 } })).toThrow(
      /backoff\.jitter 2 is not a share from 0 to 1/,
    );
    expect(register('3')).toThrow(/the options are "3", not an object/);
  });

  it('rejects an add with a delay (TypeError, nothing enqueued); a zero delay is no delay', async () => {
    const { tasks } = queue();
    const seen: string[] = [];
    tasks.register(Reindex, (r) => void seen.push(r.widgetId));
    await expect(tasks.add(Reindex, { widgetId: 'later' }, { delay: 500 })).rejects.toThrow(
      'BackgroundTasks.add(Reindex): the in-process backend cannot delay an item (delay 500 ms); nothing was enqueued. Fix: use bullmqBackend({ … }) for delayed items, or wait before you add',
    );
    expect(() => tasks.tryAdd(Reindex, { widgetId: 'later' }, { delay: 500 })).toThrow(TypeError);
    await expect(tasks.add(Reindex, { widgetId: 'x' }, { delay: -1 })).rejects.toThrow(
      /delay -1 is not a whole number of milliseconds ≥ 0/,
    );
    await expect(tasks.add(Reindex, { widgetId: 'x' }, { wait: 1 } as never)).rejects.toThrow(
      /unknown option "wait"/,
    );
    await tasks.add(Reindex, { widgetId: 'now' }, { delay: 0 });
    expect(tasks.tryAdd(Reindex, { widgetId: 'now too' }, {})).toBe(true);
    await tasks.close();
    expect(seen).toEqual(['now', 'now too']);
    expect(tasks.stats()).toMatchObject({ processed: 2, dropped: 0 });
  });
});

describe('BackgroundTasks: backpressure', () => {
  it('with maxsize 2 a third add waits for room and tryAdd returns false; both recover', async () => {
    const { tasks } = queue({ maxsize: 2 });
    const release = gate();
    const seen: string[] = [];
    tasks.register(Reindex, async (r) => {
      await release.promise;
      seen.push(r.widgetId);
    });
    await tasks.add(Reindex, { widgetId: '1' });
    await nextMacrotask(); // the worker takes '1' and blocks on the gate
    expect(tasks.stats()).toMatchObject({ queued: 0, inFlight: 1 });
    await tasks.add(Reindex, { widgetId: '2' });
    await tasks.add(Reindex, { widgetId: '3' });
    let thirdResolved = false;
    const third = tasks.add(Reindex, { widgetId: '4' }).then(() => (thirdResolved = true));
    expect(tasks.tryAdd(Reindex, { widgetId: 'try' })).toBe(false);
    await sleep(20);
    expect(thirdResolved).toBe(false);
    expect(tasks.stats()).toMatchObject({ queued: 2, inFlight: 1 });
    release.open();
    await third;
    await until(() => tasks.stats().queued < 2);
    expect(tasks.tryAdd(Reindex, { widgetId: '5' })).toBe(true);
    await tasks.close();
    expect(seen).toEqual(['1', '2', '3', '4', '5']);
  });

  it('waiting adds keep their order ahead of later tryAdds', async () => {
    const { tasks } = queue({ maxsize: 1 });
    const release = gate();
    const seen: string[] = [];
    tasks.register(Reindex, async (r) => {
      await release.promise;
      seen.push(r.widgetId);
    });
    await tasks.add(Reindex, { widgetId: 'a' });
    await nextMacrotask();
    await tasks.add(Reindex, { widgetId: 'b' });
    const waiting = [tasks.add(Reindex, { widgetId: 'c' }), tasks.add(Reindex, { widgetId: 'd' })];
    expect(tasks.tryAdd(Reindex, { widgetId: 'x' })).toBe(false);
    release.open();
    await Promise.all(waiting);
    await tasks.close();
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses maxsize and drainTimeout values that make no sense', () => {
    expect(() => new BackgroundTasks({ maxsize: 0 })).toThrow(/maxsize 0 is not a positive integer/);
    expect(() => new BackgroundTasks({ maxsize: 1.5 })).toThrow(
      expect.objectContaining({ code: 'API_WIRING_LIMIT' }),
    );
    expect(() => new BackgroundTasks({ drainTimeout: -1 })).toThrow(/drainTimeout -1/);
    expect(() => new BackgroundTasks({ drainTimeout: Infinity })).toThrow(WiringError);
    expect(() => new BackgroundTasks({ maxsize: Infinity, drainTimeout: null })).not.toThrow();
    expect(() => new BackgroundTasks({ backend: { kind: 'homemade' } })).toThrow(
      /backend option is not a backend of @api\/tasks/,
    );
    expect(new BackgroundTasks({ backend: inProcessBackend() }).backend).toBe('in-process');
  });
});

describe('BackgroundTasks: drain', () => {
  it('waits for the queue to be empty and nothing in flight', async () => {
    const { tasks } = queue();
    const seen: string[] = [];
    tasks.register(Reindex, async (r) => {
      await sleep(10);
      seen.push(r.widgetId);
    });
    for (const id of ['1', '2', '3']) await tasks.add(Reindex, { widgetId: id });
    await tasks.close();
    expect(seen).toEqual(['1', '2', '3']);
    expect(tasks.stats()).toEqual({
      queued: 0,
      inFlight: 0,
      processed: 3,
      failed: 0,
      interrupted: 0,
      dropped: 0,
    });
  });

  it('processes follow-up items that handlers enqueue during the drain', async () => {
    const { tasks } = queue();
    const seen: string[] = [];
    tasks.register(WidgetEvent, async (e) => {
      await sleep(5);
      seen.push(`event:${e.widgetId}`);
      await tasks.add(Reindex, { widgetId: e.widgetId });
    });
    tasks.register(Reindex, async (r) => {
      await sleep(5);
      seen.push(`reindex:${r.widgetId}`);
      if (r.widgetId.length < 3) await tasks.add(Reindex, { widgetId: `${r.widgetId}+` });
    });
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'w' });
    await tasks.close();
    expect(seen).toEqual(['event:w', 'reindex:w', 'reindex:w+', 'reindex:w++']);
    expect(tasks.stats()).toMatchObject({ processed: 4, dropped: 0 });
  });

  it('on drainTimeout aborts the in-flight handler, waits a short grace, drops the rest, warns once with the counts', async () => {
    const { tasks, log } = queue({ drainTimeout: 0.05 });
    let aborted: unknown;
    tasks.register(Reindex, async (_r, { signal }) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        signal.addEventListener('abort', () => {
          aborted = signal.reason;
          clearTimeout(timer);
          resolve();
        });
      });
    });
    for (const id of ['slow', 'q1', 'q2']) await tasks.add(Reindex, { widgetId: id });
    await nextMacrotask();
    const started = performance.now();
    await tasks.close();
    const took = performance.now() - started;
    expect(took).toBeLessThan(500);
    expect(took).toBeGreaterThanOrEqual(45);
    expect(String(aborted)).toMatch(/task drain deadline/);
    expect(log.of('warn')).toEqual([
      'BackgroundTasks: the task drain deadline (drainTimeout 0.05 s; not the HTTP shutdown cap) reached before the queue drained: queued 2, dropped 2, interrupted 1 (1 in flight stopped on its signal)',
    ]);
    // The handler returned on its signal: its work was cut short, so it is not `processed`.
    expect(tasks.stats()).toEqual({
      queued: 0,
      inFlight: 0,
      processed: 0,
      failed: 0,
      interrupted: 1,
      dropped: 2,
    });
  });

  it('a 5 s handler that ignores its signal: close still resolves in < 500 ms and counts it dropped', async () => {
    const { tasks, log } = queue({ drainTimeout: 0.05 });
    let finished = false;
    tasks.register(Reindex, async () => {
      await sleep(5_000);
      finished = true;
    });
    await tasks.add(Reindex, { widgetId: 'slow' });
    await tasks.add(Reindex, { widgetId: 'queued' });
    await nextMacrotask();
    const started = performance.now();
    await tasks.close();
    expect(performance.now() - started).toBeLessThan(500);
    expect(finished).toBe(false);
    expect(log.of('warn')).toEqual([
      expect.stringMatching(
        /drainTimeout 0\.05 s.*queued 1, dropped 2, interrupted 0 \(1 in flight did not stop within the grace/,
      ),
    ]);
    expect(tasks.stats()).toEqual({
      queued: 0,
      inFlight: 0,
      processed: 0,
      failed: 0,
      interrupted: 0,
      dropped: 2,
    });
  });

  it('the deadline’s own abort is no handler failure: no ERROR line, counted interrupted, one WARN', async () => {
    const { tasks, log } = queue({ drainTimeout: 0.05 });
    // The usual way a handler honours its signal: an abortable wait, which rejects on abort.
    tasks.register(Reindex, async (_r, { signal }) => wait(5_000, undefined, { signal }));
    await tasks.add(Reindex, { widgetId: 'slow' });
    await nextMacrotask();
    await tasks.close();
    expect(log.of('error')).toEqual([]);
    expect(log.of('warn')).toEqual([
      'BackgroundTasks: the task drain deadline (drainTimeout 0.05 s; not the HTTP shutdown cap) reached before the queue drained: queued 0, dropped 0, interrupted 1 (1 in flight stopped on its signal)',
    ]);
    expect(tasks.stats()).toMatchObject({ processed: 0, failed: 0, interrupted: 1, dropped: 0 });
  });

  it('one-to-many: the handlers after the deadline do not run; the item counts interrupted once', async () => {
    const { tasks, log } = queue({ drainTimeout: 0.05, allowOneToMany: true });
    const seen: string[] = [];
    tasks.register(Reindex, async function first(_r, { signal }) {
      seen.push('first');
      await wait(5_000, undefined, { signal }).catch(() => seen.push('first stopped'));
    });
    tasks.register(Reindex, function second() {
      seen.push('second');
    });
    await tasks.add(Reindex, { widgetId: 'x' });
    await nextMacrotask();
    await tasks.close();
    expect(seen).toEqual(['first', 'first stopped']);
    expect(log.of('error')).toEqual([]);
    expect(tasks.stats()).toMatchObject({ processed: 0, failed: 0, interrupted: 1, dropped: 0 });
  });

  it.each([0, null])('drainTimeout %s does not wait', async (drainTimeout) => {
    const { tasks, log } = queue({ drainTimeout });
    const seen: string[] = [];
    tasks.register(Reindex, (r) => void seen.push(r.widgetId));
    await tasks.add(Reindex, { widgetId: 'a' });
    await tasks.add(Reindex, { widgetId: 'b' });
    await tasks.close();
    // Load-independent: nothing ran, although each handler would have finished at once.
    expect(seen).toEqual([]);
    expect(log.of('warn')).toEqual([
      'BackgroundTasks: drainTimeout 0 (the task drain does not wait) reached before the queue drained: queued 2, dropped 2, interrupted 0 (none in flight)',
    ]);
  });

  it('an idle queue closes at once and says nothing', async () => {
    const { tasks, log } = queue();
    await tasks.close();
    expect(log.lines).toEqual([]);
  });

  it('rejects add (and throws on tryAdd) after close, with a clear error', async () => {
    const { tasks } = queue();
    tasks.register(Reindex, () => undefined);
    await tasks.close();
    await expect(tasks.add(Reindex, { widgetId: 'late' })).rejects.toThrow(TasksClosedError);
    await expect(tasks.add(Reindex, { widgetId: 'late' })).rejects.toThrow(
      /^BackgroundTasks\.add\(Reindex\): the queue has shut down/,
    );
    expect(() => tasks.tryAdd(Reindex, { widgetId: 'late' })).toThrow(TasksClosedError);
    expect(() => tasks.register(WidgetEvent, () => undefined)).toThrow(/shutting down/);
    await expect(tasks.start()).rejects.toThrow(TasksClosedError);
    await expect(tasks.close()).resolves.toBeUndefined(); // idempotent
  });

  it('an add waiting for room when the deadline passes rejects instead of hanging', async () => {
    const { tasks } = queue({ maxsize: 1, drainTimeout: 0.03 });
    tasks.register(Reindex, () => sleep(1_000));
    await tasks.add(Reindex, { widgetId: 'in-flight' });
    await nextMacrotask();
    await tasks.add(Reindex, { widgetId: 'queued' });
    const waiting = expect(tasks.add(Reindex, { widgetId: 'waiting' })).rejects.toThrow(TasksClosedError);
    await tasks.close();
    await waiting;
  });

  it('a handler awaiting add on its own full queue cannot deadlock shutdown: the deadline rejects that add', async () => {
    // The one worker is busy running the handler, so the room the handler waits for never comes
    // (documented: in handlers use tryAdd, or add without awaiting). The drain deadline ends it.
    const { tasks, log } = queue({ maxsize: 1, drainTimeout: 0.05 });
    let outcome = 'pending';
    const release = gate();
    tasks.register(Reindex, async (r) => {
      if (r.widgetId !== 'first') return;
      await release.promise;
      await tasks.add(Reindex, { widgetId: 'follow-up' }).then(
        () => (outcome = 'added'),
        (error: unknown) => (outcome = (error as Error).name),
      );
    });
    await tasks.add(Reindex, { widgetId: 'first' });
    await nextMacrotask(); // the worker runs 'first'
    await tasks.add(Reindex, { widgetId: 'fills the queue' });
    release.open(); // the handler now awaits room that only it could make
    await sleep(20);
    expect(outcome).toBe('pending');
    await tasks.close();
    expect(outcome).toBe('TasksClosedError');
    expect(log.of('warn')).toEqual([
      expect.stringMatching(
        /queued 1, dropped 1, interrupted 1 \(1 in flight stopped on its signal, 1 waiting add\(s\) rejected\)/,
      ),
    ]);
  });

  it('is AsyncDisposable: `await using` drains at the end of the scope', async () => {
    const seen: string[] = [];
    {
      await using tasks = new BackgroundTasks({ logger: new MemoryLog() });
      tasks.register(Reindex, async (r) => {
        await sleep(5);
        seen.push(r.widgetId);
      });
      await tasks.add(Reindex, { widgetId: 'x' });
    }
    expect(seen).toEqual(['x']);
  });

  it('keeps the counters consistent: added = queued + inFlight + processed + failed + interrupted + dropped', async () => {
    const { tasks } = queue({ drainTimeout: 0.05, maxsize: 64 });
    let n = 0;
    tasks.register(Reindex, async (r) => {
      if (r.widgetId === 'slow') await sleep(2_000);
      if (++n % 3 === 0) throw new Error('every third fails');
    });
    let added = 0;
    for (let i = 0; i < 50; i++) {
      await tasks.add(Reindex, { widgetId: i === 20 ? 'slow' : String(i) });
      added++;
      const s = tasks.stats();
      expect(s.queued + s.inFlight + s.processed + s.failed + s.interrupted + s.dropped).toBe(added);
    }
    await tasks.close();
    const s = tasks.stats();
    expect(s.queued + s.inFlight + s.processed + s.failed + s.interrupted + s.dropped).toBe(added);
    expect(s.dropped).toBeGreaterThan(0);
  });
});

describe('BackgroundTasks under a factory', () => {
  it('opened after the resources its handlers use, it drains before they close', async () => {
    const events: string[] = [];
    class Factory extends BaseFactory {
      createStore(): { write(s: string): void } {
        let open = true;
        events.push('store opened');
        return this.enter({
          write: (s: string) => {
            if (!open) throw new Error('store is closed');
            events.push(`store.write(${s})`);
          },
          close: () => {
            open = false;
            events.push('store closed');
          },
        });
      }
      async createTasks(store: { write(s: string): void }): Promise<BackgroundTasks> {
        const tasks = await this.aenter(new BackgroundTasks({ drainTimeout: 1, logger: new MemoryLog() }));
        tasks.register(WidgetEvent, async (e) => {
          await sleep(5);
          store.write(`${e.action}:${e.widgetId}`);
        });
        return tasks;
      }
    }
    const harness = new FactoryHarness(Factory);
    const store = harness.factory.createStore();
    const tasks = await harness.run((f) => f.createTasks(store));
    await tasks.add(WidgetEvent, { action: 'created', widgetId: 'w1' });
    await harness.close();
    expect(events).toEqual(['store opened', 'store.write(created:w1)', 'store closed']);
  });
});
