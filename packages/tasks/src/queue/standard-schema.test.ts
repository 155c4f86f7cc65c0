// Task payloads from a Standard Schema (zod 4, ArkType 2), in process: validated at add with the
// library's validate (async refinements awaited), the handler runs on the schema's output
// (transforms included), and a refused item is a TaskItemError naming the path, never the value.
import { type } from 'arktype';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WiringError } from '@api/core';
import { BackgroundTasks, TaskItemError, type BackgroundTasksOptions } from '../index';
import { MemoryLog, sleep, until } from '../../test/helpers';

const Count = z.object({ n: z.string().transform((s) => Number(s)), tag: z.string().optional() });
// An async refinement: a code is checked somewhere slow (a database) before it is taken.
const Claim = z.object({
  code: z.string().refine(async (code) => {
    await sleep(5);
    return code !== 'taken';
  }),
});
const Ping = type({ id: 'string', 'times?': 'number.integer' });

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

describe('BackgroundTasks with Standard Schemas', () => {
  it("runs the handler on a zod schema's output (after its transform)", async () => {
    const { tasks } = queue();
    const seen: unknown[] = [];
    tasks.register(Count, (item) => void seen.push(item));
    await tasks.add(Count, { n: '41' });
    expect(tasks.tryAdd(Count, { n: '2', tag: 't' })).toBe(true);
    await until(() => seen.length === 2);
    expect(seen).toEqual([{ n: 41 }, { n: 2, tag: 't' }]);
    expect(tasks.stats()).toMatchObject({ processed: 2, failed: 0, dropped: 0 });
  });

  it('refuses an item by path without its value, and enqueues nothing', async () => {
    const { tasks } = queue();
    tasks.register(Count, () => undefined);
    const error = await tasks.add(Count, { n: { secret: 'hunter2' } as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskItemError);
    expect((error as TaskItemError).message).toBe(
      'BackgroundTasks.add(anonymous schema): Expected string, got object at `$.n`; nothing was enqueued',
    );
    expect((error as TaskItemError).issues).toEqual([
      { path: '$.n', message: 'Expected string, got object' },
    ]);
    expect(() => tasks.tryAdd(Count, { n: 5 as never })).toThrow(
      'BackgroundTasks.tryAdd(anonymous schema): Expected string, got number at `$.n`; nothing was enqueued',
    );
    expect(tasks.stats()).toMatchObject({ queued: 0, processed: 0, dropped: 0 });
  });

  it('awaits an async refinement at add; a refused item is a TaskItemError', async () => {
    const { tasks } = queue();
    const seen: string[] = [];
    tasks.register(Claim, (item) => void seen.push(item.code));
    await tasks.add(Claim, { code: 'free' });
    const error = await tasks.add(Claim, { code: 'taken' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskItemError);
    expect((error as Error).message).toBe(
      'BackgroundTasks.add(anonymous schema): Invalid value at `$.code`; nothing was enqueued',
    );
    await until(() => seen.length === 1);
    expect(seen).toEqual(['free']);
  });

  it('refuses tryAdd for a schema that validates asynchronously (add awaits it)', () => {
    const { tasks } = queue();
    tasks.register(Claim, () => undefined);
    expect(() => tasks.tryAdd(Claim, { code: 'free' })).toThrow(
      new TypeError(
        'BackgroundTasks.tryAdd(anonymous schema): the schema validates asynchronously, so the item cannot be taken synchronously; nothing was enqueued. Fix: use add(), which awaits the validation',
      ),
    );
    expect(tasks.stats().queued).toBe(0);
  });

  it('takes ArkType schemas, and refuses without echoing the value', async () => {
    const { tasks } = queue();
    const seen: unknown[] = [];
    tasks.register(Ping, (item) => void seen.push(item));
    await tasks.add(Ping, { id: 'a', times: 2 });
    await until(() => seen.length === 1);
    expect(seen).toEqual([{ id: 'a', times: 2 }]);
    const error = (await tasks.add(Ping, { id: '<script>', times: 1.5 }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(TaskItemError);
    expect(error.message).toBe(
      'BackgroundTasks.add(anonymous schema): Invalid integer at `$.times`; nothing was enqueued',
    );
  });

  it('logs a failing handler as for valibot, and the worker goes on', async () => {
    const { tasks, log } = queue();
    tasks.register(Count, function explode(item) {
      if (item.n === 1) throw new Error('boom');
    });
    await tasks.add(Count, { n: '1' });
    await tasks.add(Count, { n: '2' });
    await until(() => tasks.stats().processed === 1);
    expect(tasks.stats()).toMatchObject({ processed: 1, failed: 1 });
    expect(log.of('error')).toEqual([
      'BackgroundTasks: handler explode for anonymous schema failed; the worker goes on',
    ]);
    expect(log.lines[0]!.error).toEqual(new Error('boom'));
  });

  it('still refuses what is not a schema at register', () => {
    const { tasks } = queue();
    expect(() => tasks.register({ '~standard': { version: 2 } } as never, () => undefined)).toThrow(
      WiringError,
    );
  });
});
