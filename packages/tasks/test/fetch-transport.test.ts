// On the fetch transport the BullMQ backend (a long-lived Redis worker) fails wiring, saying so;
// the in-process queue still works through app.fetch.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Struct, WiringError } from '@api/core';
import { backgroundTasks, bullmqBackend, type BackgroundTasksOptions } from '../src/index';

const Job = Struct('Job', { n: v.number() });
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

function appWith(options: BackgroundTasksOptions, done: number[] = []): BaseApp {
  class Enqueue extends Endpoint('/jobs') {
    constructor(readonly add: (n: number) => Promise<void>) {
      super();
    }
    post = this.operation({ returns: v.unknown() }, async () => {
      await this.add(7);
      return { queued: true };
    });
  }
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      const tasks = this.include(backgroundTasks({ ...options, logger: quiet }));
      tasks.register(Job, (job) => void done.push(job.n));
      this.includeEndpoint(new Enqueue((n) => tasks.add(Job, { n })));
    }
  }
  return new App({ logger: quiet });
}

describe('backgroundTasks() on the fetch transport', () => {
  it('refuses the BullMQ backend with a WiringError naming the fix', async () => {
    const app = appWith({ backend: bullmqBackend({ connection: { host: '127.0.0.1', port: 1 } }) });
    const started = app.start({ transport: 'fetch' });
    await expect(started).rejects.toBeInstanceOf(WiringError);
    await expect(started).rejects.toThrow(
      'App.include(backgroundTasks({ backend: bullmq })): the bullmq backend needs Node (TCP connections to Redis from a long-lived worker), and the app is started for the fetch transport',
    );
  });

  it('runs the in-process queue behind app.fetch', async () => {
    const done: number[] = [];
    const app = appWith({}, done);
    const res = await app.fetch(new Request('http://x/jobs', { method: 'POST' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ queued: true });
    await app.close();
    expect(done).toEqual([7]);
  });
});
