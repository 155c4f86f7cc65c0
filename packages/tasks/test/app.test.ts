import { request } from 'node:http';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, BaseFactory, Endpoint, serve, Struct, type AppOptions } from '@api/core';
import { defineExtension, type Extension } from '@api/core/extension';
import { TestClient } from '@api/testing';
import { backgroundTasks, TasksClosedError, type BackgroundTasks } from '../src/index';
import { QueueApp } from './fixtures/queue-app';
import { MemoryLog, sleep, until } from './helpers';

// The demo's own queue tests (created:<id> after POST /widgets, the 202/503 of reindex with
// retry-after and its Problem body) live in apps/demo/test/tasks.test.ts; here, the queue's place
// in an app's lifecycle, on a minimal app (test/fixtures/queue-app.ts).
describe('backgroundTasks() in an app', () => {
  it('drains before a factory resource opened earlier is closed (logged order)', async () => {
    const lines: string[] = [];
    // Slow reindex work: still running when shutdown starts.
    const app = new QueueApp({ lines, reindexDelayMs: 100 });
    const client = await TestClient.start(app);
    expect((await client.post('/widgets', { json: { name: 'a', priceCents: 1 } })).status).toBe(201);
    expect((await client.post('/widgets/w1/reindex')).status).toBe(202);
    await client.close();
    expect(lines).toEqual(['store opened', 'created:w1', 'reindexed:w1', 'store closed']);
  });

  it('the queue refuses adds once the app has shut down', async () => {
    const app = new QueueApp();
    const client = await TestClient.start(app);
    await client.close();
    await expect(app.tasks!.add(Struct('Late', { n: v.number() }), { n: 1 })).rejects.toBeInstanceOf(
      TasksClosedError,
    );
  });

  it('logs through the app logger and refuses registration after wiring', async () => {
    const log = new MemoryLog();
    const Boom = Struct('Boom', { n: v.number() });
    let tasks!: BackgroundTasks;
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        tasks = this.include(backgroundTasks());
        tasks.register(Boom, () => {
          throw new Error('boom');
        });
      }
    }
    const client = await TestClient.start(new App({ logger: log }));
    expect(() => tasks.register(Struct('Other', {}), () => undefined)).toThrow(/worker has already started/);
    await tasks.add(Boom, { n: 1 });
    await client.close();
    expect(log.of('error')).toEqual(['BackgroundTasks: handler for Boom failed; the worker goes on']);
  });
});

// ---------------------------------------------------------------- the drain deadline vs the HTTP cap

const Job = Struct('Job', { name: v.string(), ms: v.number() });

class Factory extends BaseFactory {
  lines: string[] = [];
  createStore(): { close(): void } {
    return this.enter({ close: () => void this.lines.push('store closed') });
  }
}

interface CapAppOptions extends AppOptions<Factory> {
  readonly lines: string[];
  readonly drainTimeout: number;
  readonly shutdownTimeoutMs: number;
  /**
   * Log `drain began` when the drain phase starts, and `a macrotask after the cap` one macrotask
   * after the cap's WARN: their order shows whether anything waited between the two phases.
   */
  readonly probeDrain?: boolean;
}

/** Says when the drain phase begins (its hook runs before the queue's: it is included first). */
const drainProbe = (lines: string[]): Extension<void> =>
  defineExtension({
    name: 'drain-probe',
    setup: (wiring) => wiring.onDrain(() => void lines.push('drain began')),
  });

/** GET /slow?ms=…&job=…: answers after `ms`; then (if `job`) enqueues a Job taking `job` ms. */
class CapApp extends BaseApp.withFactory(Factory) {
  tasks!: BackgroundTasks;
  /** Requests that reached the /slow handler (tests wait for it before shutting down). */
  requestsStarted = 0;
  readonly #drainTimeout: number;
  readonly #probeDrain: boolean;
  constructor(options: CapAppOptions) {
    // One log for the app and the queue (the queue logs through the app's logger), so the test
    // sees which deadline each line names, in order.
    const lines = options.lines;
    super({
      limits: { shutdownTimeoutMs: options.shutdownTimeoutMs },
      logger: {
        info: () => undefined,
        warn: (m: string) => {
          lines.push(`WARN ${m}`);
          if (options.probeDrain && m.includes('shutdown cap'))
            setImmediate(() => lines.push('a macrotask after the cap'));
        },
        error: (m: string) => void lines.push(`ERROR ${m}`),
      },
    });
    this.factory.lines = options.lines;
    this.#drainTimeout = options.drainTimeout;
    this.#probeDrain = options.probeDrain ?? false;
  }
  protected override async wire(): Promise<void> {
    const lines = this.factory.lines;
    this.factory.createStore();
    if (this.#probeDrain) this.include(drainProbe(lines));
    const tasks = (this.tasks = this.include(backgroundTasks({ drainTimeout: this.#drainTimeout })));
    tasks.register(Job, async (job, { signal }) => {
      lines.push(`job ${job.name} started`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, job.ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          lines.push(`job ${job.name} aborted`);
          resolve();
        });
      });
      if (!signal.aborted) lines.push(`job ${job.name} done`);
    });
    const Query = Struct('Query', { ms: v.number(), job: v.optional(v.number()) });
    const onStart = (): void => void this.requestsStarted++;
    class Slow extends Endpoint('/slow') {
      get = this.operation(
        { params: Query, returns: Struct('Ok', { ok: v.boolean() }) },
        async ({ params }) => {
          onStart();
          await sleep(params.ms);
          lines.push(`request ${params.ms} ms done`);
          if (params.job !== undefined) await tasks.add(Job, { name: 'from-request', ms: params.job });
          return { ok: true };
        },
      );
    }
    this.includeEndpoint(new Slow());
  }
}

function get(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0)); // cut at the HTTP cap
    req.end();
  });
}

describe('the drain deadline and the HTTP shutdown cap', () => {
  it('items enqueued by requests finishing under the cap are drained after them, before teardown', async () => {
    const lines: string[] = [];
    const app = new CapApp({ lines, drainTimeout: 2, shutdownTimeoutMs: 2_000 });
    const running = await serve(app, { port: 0, signals: false, quiet: true });
    const answered = get(`${running.url}/slow?ms=100&job=50`);
    await until(() => app.requestsStarted === 1); // the request is in flight
    await running.close();
    expect(await answered).toBe(200);
    expect(lines).toEqual([
      'request 100 ms done',
      'job from-request started',
      'job from-request done',
      'store closed',
    ]);
  });

  it('the drain gets its own drainTimeout after the HTTP cap: the two deadlines add up, they do not overlap', async () => {
    const lines: string[] = [];
    // HTTP cap 300 ms (a 5 s request is cut there); a job of 600 ms started before shutdown;
    // drainTimeout 0.5 s. Sharing one deadline from SIGTERM it would be cut at 500 ms; with the
    // drain counted from the end of the HTTP phase (300 + 500 = 800 ms) it completes.
    const app = new CapApp({ lines, drainTimeout: 0.5, shutdownTimeoutMs: 300 });
    const running = await serve(app, { port: 0, signals: false, quiet: true });
    await app.tasks.add(Job, { name: 'long', ms: 600 });
    const cut = get(`${running.url}/slow?ms=5000`);
    await until(() => app.requestsStarted === 1);
    const started = performance.now();
    await running.close();
    const took = performance.now() - started;
    expect(await cut).toBe(0);
    expect(lines).toEqual([
      'job long started',
      'WARN CapApp: shutdown cap (300 ms) reached with 1 request(s) and 0 upgraded socket(s) open; closing them',
      'job long done',
      'store closed',
    ]);
    // Done (not aborted) even though 300 ms cap + 600 ms job > the 500 ms drainTimeout.
    expect(took).toBeGreaterThanOrEqual(550);
  });

  it('when both deadlines are hit, shutdown takes at most cap + drainTimeout + grace, and the WARN names the drain deadline', async () => {
    const lines: string[] = [];
    const app = new CapApp({ lines, drainTimeout: 0.2, shutdownTimeoutMs: 200, probeDrain: true });
    const running = await serve(app, { port: 0, signals: false, quiet: true });
    await app.tasks.add(Job, { name: 'endless', ms: 60_000 });
    await app.tasks.add(Job, { name: 'queued', ms: 1 });
    const cut = get(`${running.url}/slow?ms=5000`);
    await until(() => app.requestsStarted === 1);
    const started = performance.now();
    await running.close();
    const took = performance.now() - started;
    expect(await cut).toBe(0);
    // Timers never fire early: at least cap + drainTimeout. The worst case of the README
    // (cap + drainTimeout + 0.1 s grace = 500 ms) with 2x room for a loaded machine.
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(2 * (200 + 200 + 100));
    // Each deadline says which it is: core's HTTP cap first, then the task drain deadline. The
    // drain begins in the cap's own macrotask: nothing waits between the two deadlines, so the
    // formula has no hidden term.
    expect(lines).toEqual([
      'job endless started',
      'WARN CapApp: shutdown cap (200 ms) reached with 1 request(s) and 0 upgraded socket(s) open; closing them',
      'drain began',
      'a macrotask after the cap',
      'job endless aborted',
      'WARN BackgroundTasks: the task drain deadline (drainTimeout 0.2 s; not the HTTP shutdown cap) reached before the queue drained: queued 1, dropped 1, interrupted 1 (1 in flight stopped on its signal)',
      'store closed',
    ]);
  });
});

describe('SIGTERM through serve() (a child process)', () => {
  it('an item added 1 ms before SIGTERM is processed before the factory resource opened earlier is closed', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const fixture = fileURLToPath(new URL('./fixtures/serve-queue-app.ts', import.meta.url));
    const child = spawn(process.execPath, ['--conditions=@api/source', '--import', 'tsx', fixture], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, REINDEX_MS: '200' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until(() => /listening on (http:\/\/\S+)/.test(out), 20_000);
      const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
      const created = await fetch(`${url}/widgets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'a', priceCents: 1 }),
      });
      expect(created.status).toBe(201);
      const reindex = await fetch(`${url}/widgets/w1/reindex`, { method: 'POST' });
      expect(reindex.status).toBe(202);
      await sleep(1);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    const lines = out.split('\n').filter((l) => /^(store|created|reindexed)/.test(l));
    expect(lines).toEqual(['store opened', 'created:w1', 'reindexed:w1', 'store closed']);
    expect(out).toMatch(/SIGTERM received/);
  }, 30_000);
});
