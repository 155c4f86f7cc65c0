import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { BaseApp, Struct } from '@api/core';
import type { Extension } from '@api/core/extension';
import {
  BackgroundTasks,
  backgroundTasks,
  bullmqBackend,
  type TaskAddOptions,
  type TaskContext,
  type TaskRegistrationOptions,
  type TaskStats,
} from '../index';

const WidgetEvent = Struct('WidgetEvent', {
  action: v.picklist(['created', 'deleted']),
  widgetId: v.string(),
});
const Count = Struct('Count', { n: v.pipe(v.string(), v.transform(Number)) });

describe('BackgroundTasks types', () => {
  const tasks = new BackgroundTasks({ maxsize: 10, drainTimeout: null, allowOneToMany: true });

  it('types the handler item from the schema output and the context', () => {
    tasks.register(WidgetEvent, (event, context) => {
      expectTypeOf(event).toEqualTypeOf<{ action: 'created' | 'deleted'; widgetId: string }>();
      expectTypeOf(context).toEqualTypeOf<TaskContext>();
      expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
    });
    tasks.register(Count, (item) => {
      expectTypeOf(item.n).toEqualTypeOf<number>(); // output, after the transform
    });
    tasks.register(WidgetEvent, async () => {}); // async handlers
    tasks.register(WidgetEvent, () => 42); // a returned value is ignored
  });

  it('types add/tryAdd items from the schema input', () => {
    expectTypeOf(tasks.add(WidgetEvent, { action: 'created', widgetId: 'w' })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(tasks.tryAdd(Count, { n: '3' })).toEqualTypeOf<boolean>();
    // @ts-expect-error: 'updated' is not an action
    void tasks.add(WidgetEvent, { action: 'updated', widgetId: 'w' });
    // @ts-expect-error: widgetId is missing
    void tasks.add(WidgetEvent, { action: 'created' });
    // @ts-expect-error: the input of Count is a string
    tasks.tryAdd(Count, { n: 3 });
  });

  it('types retry options at registration and a delay at add', () => {
    tasks.register(WidgetEvent, () => undefined, { attempts: 3 });
    tasks.register(WidgetEvent, () => undefined, { attempts: 3, backoff: 1_000 });
    tasks.register(WidgetEvent, () => undefined, {
      attempts: 5,
      backoff: { type: 'exponential', delay: 500, jitter: 0.5 },
    });
    expectTypeOf<TaskRegistrationOptions['attempts']>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error: BullMQ's backoff types are 'fixed' and 'exponential'
    tasks.register(WidgetEvent, () => undefined, { attempts: 2, backoff: { type: 'linear', delay: 1 } });
    // @ts-expect-error: attempts is a number
    tasks.register(WidgetEvent, () => undefined, { attempts: '3' });
    expectTypeOf(
      tasks.add(WidgetEvent, { action: 'created', widgetId: 'w' }, { delay: 60_000 }),
    ).toEqualTypeOf<Promise<void>>();
    expectTypeOf(tasks.tryAdd(Count, { n: '3' }, { delay: 0 })).toEqualTypeOf<boolean>();
    expectTypeOf<TaskAddOptions>().toEqualTypeOf<{ readonly delay?: number | undefined }>();
    // @ts-expect-error: delay is milliseconds, not a string
    void tasks.add(WidgetEvent, { action: 'created', widgetId: 'w' }, { delay: '1m' });
  });

  it('refuses a handler whose item does not match the schema', () => {
    // @ts-expect-error: the item is a WidgetEvent, not a number
    tasks.register(WidgetEvent, (n: number) => n);
  });

  it('exposes stats and lifecycle', () => {
    expectTypeOf(tasks.stats()).toEqualTypeOf<TaskStats>();
    expectTypeOf<keyof TaskStats>().toEqualTypeOf<
      'queued' | 'inFlight' | 'processed' | 'failed' | 'interrupted' | 'dropped'
    >();
    expectTypeOf(tasks.stats().interrupted).toEqualTypeOf<number>();
    expectTypeOf(tasks.close()).toEqualTypeOf<Promise<void>>();
    expectTypeOf(tasks).toMatchTypeOf<AsyncDisposable>();
    expectTypeOf(tasks.register(WidgetEvent, () => undefined)).toEqualTypeOf<BackgroundTasks>();
  });

  it('options: optional exactly where they may be undefined; the backend is an option', () => {
    new BackgroundTasks({ maxsize: undefined, drainTimeout: undefined, logger: undefined });
    new BackgroundTasks({ backend: bullmqBackend({ connection: { port: 6379 } }) });
    // @ts-expect-error: the BullMQ backend needs a connection
    bullmqBackend({});
    // @ts-expect-error: drainTimeout is seconds
    new BackgroundTasks({ drainTimeout: '1s' });
  });
});

describe('backgroundTasks() types', () => {
  it('is an extension whose include() returns the queue (no await needed)', () => {
    expectTypeOf(backgroundTasks({ drainTimeout: 1 })).toEqualTypeOf<Extension<BackgroundTasks>>();
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        const tasks = this.include(backgroundTasks());
        expectTypeOf(tasks).toEqualTypeOf<BackgroundTasks>();
        tasks.register(WidgetEvent, (event) => expectTypeOf(event.widgetId).toEqualTypeOf<string>());
      }
    }
    void App;
  });
});
