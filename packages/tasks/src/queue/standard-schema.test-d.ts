// Types of Standard Schema (zod, ArkType) task payloads: `add`/`tryAdd` take the schema's input,
// the handler receives its output (transforms included).
import { type } from 'arktype';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { named } from '@api/core';
import { BackgroundTasks } from '../index';

const Count = named(
  'Count',
  z.object({ n: z.string().transform((s) => Number(s)), at: z.date().optional() }),
);
const Ping = type({ id: 'string', 'times?': 'number' });

describe('BackgroundTasks types with Standard Schemas', () => {
  const tasks = new BackgroundTasks({ drainTimeout: null });

  it("types the handler item from a zod schema's output and add from its input", async () => {
    tasks.register(Count, (item, context) => {
      expectTypeOf(item).toEqualTypeOf<{ n: number; at?: Date | undefined }>();
      expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
    });
    await tasks.add(Count, { n: '1' });
    expectTypeOf(tasks.tryAdd(Count, { n: '1', at: new Date() })).toEqualTypeOf<boolean>();
    // @ts-expect-error add takes the input (a string), not the transform's output
    await tasks.add(Count, { n: 1 });
    // @ts-expect-error a missing field
    tasks.tryAdd(Count, {});
  });

  it('types ArkType payloads', async () => {
    tasks.register(Ping, (item) => {
      expectTypeOf(item).toEqualTypeOf<{ id: string; times?: number }>();
    });
    await tasks.add(Ping, { id: 'a' });
    // @ts-expect-error times is a number
    await tasks.add(Ping, { id: 'a', times: '1' });
  });

  it('refuses a handler typed for another payload', () => {
    // @ts-expect-error the handler expects a string item
    tasks.register(Count, (item: string) => void item);
  });
});
