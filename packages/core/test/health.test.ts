// Issue 42 item 3: liveness and readiness probes (`new App({ health })`), answered before
// intercepts, auth and load shedding, and readiness 503 from SIGTERM while in-flight requests finish.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, serve, Struct, type AppOptions, type RunningServer } from '../src/index';
import { AuthenticationRequiredError } from '../src/index';
import { defineExtension } from '../src/extension';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger } from './fixtures';

const Done = Struct('Done', { done: v.boolean() });
class Work extends Endpoint('/work') {
  get = this.operation({ returns: Done }, async () => {
    await sleep(150);
    return { done: true };
  });
}

/** Refuses every request it sees (what an app-wide auth or rate limit would do). */
const refuseAll = defineExtension({
  name: 'refuse-all',
  setup(wiring) {
    wiring.addIntercept({
      intercept: () => {
        throw new AuthenticationRequiredError();
      },
    });
  },
});

class App extends BaseApp {
  refuse = false;
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Work());
    if (this.refuse) this.include(refuseAll);
  }
}

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function listening(options: AppOptions, refuse = false): Promise<{ app: App; running: RunningServer }> {
  const app = new App({ logger: memoryLogger(), ...options });
  app.refuse = refuse;
  const running = await serve(app, { port: 0, signals: false, quiet: true });
  servers.push(running);
  return { app, running };
}

/** A port nobody listens on right now (serve() is given it, to probe before it resolves). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function probe(
  url: string,
  method = 'GET',
): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(url, { method });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

describe('health probes', () => {
  it('answer /livez and /readyz 200 with no-store JSON; HEAD too; other methods 405', async () => {
    const { running } = await listening({ health: true });
    for (const path of ['/livez', '/readyz']) {
      const res = await probe(`${running.url}${path}`);
      expect(res).toMatchObject({ status: 200, body: '{"status":"ok"}' });
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await probe(`${running.url}${path}`, 'HEAD')).toMatchObject({ status: 200, body: '' });
      const post = await probe(`${running.url}${path}`, 'POST');
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('use the paths the app names', async () => {
    const { running } = await listening({ health: { livePath: '/ops/live', readyPath: '/ops/ready' } });
    expect((await probe(`${running.url}/ops/live`)).status).toBe(200);
    expect((await probe(`${running.url}/ops/ready`)).status).toBe(200);
    expect((await probe(`${running.url}/livez`)).status).toBe(404);
  });

  it('are answered before app-wide intercepts (auth, rate limits)', async () => {
    const { running } = await listening({ health: true }, true);
    expect((await probe(`${running.url}/work`)).status).toBe(401);
    expect((await probe(`${running.url}/livez`)).status).toBe(200);
    expect((await probe(`${running.url}/readyz`)).status).toBe(200);
  });

  it('readiness answers 503 once unready while other requests are still served', async () => {
    const { app, running } = await listening({ health: true });
    app.markUnready();
    expect(await probe(`${running.url}/readyz`)).toMatchObject({
      status: 503,
      body: '{"status":"draining"}',
    });
    expect((await probe(`${running.url}/livez`)).status).toBe(200);
    expect((await probe(`${running.url}/work`)).status).toBe(200);
  });

  it('readiness answers 503 while the app drains, and liveness 200, as in-flight requests finish', async () => {
    const { app, running } = await listening({ health: true });
    const work = probe(`${running.url}/work`);
    await sleep(30);
    const drained = app.drain();
    const ready = await probe(`${running.url}/readyz`);
    expect(ready).toMatchObject({ status: 503, body: '{"status":"draining"}' });
    expect(ready.headers.get('connection')).toBe('close');
    expect((await probe(`${running.url}/livez`)).status).toBe(200);
    expect(await work).toMatchObject({ status: 200, body: '{"done":true}' });
    await drained;
  });

  it('readiness answers 503 while the app starts (node listener), liveness 200', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    class SlowStart extends App {
      protected override async wire(): Promise<void> {
        await gate;
        await super.wire();
      }
    }
    const app = new SlowStart({ health: true, logger: memoryLogger() });
    const server = createServer(app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const work = probe(`${url}/work`);
      expect(await probe(`${url}/readyz`)).toMatchObject({ status: 503, body: '{"status":"starting"}' });
      expect(await probe(`${url}/livez`)).toMatchObject({ status: 200, body: '{"status":"ok"}' });
      release();
      expect((await work).status).toBe(200);
      expect((await probe(`${url}/readyz`)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    }
  });

  it('a probe as the very first request starts the app (node listener): readiness turns 200 with no other request', async () => {
    const app = new App({ health: true, logger: memoryLogger() });
    const server = createServer(app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await probe(`${url}/readyz`)).toMatchObject({ status: 503, body: '{"status":"starting"}' });
      let ready = await probe(`${url}/readyz`);
      for (let i = 0; i < 200 && ready.status !== 200; i++) {
        await sleep(10);
        ready = await probe(`${url}/readyz`);
      }
      expect(ready).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    }
  });

  it('serve() listens while the app starts: readiness 503 "starting" over the socket, then 200', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let wiring = false;
    class SlowStart extends App {
      protected override async wire(): Promise<void> {
        wiring = true;
        await gate; // startup work (a connection pool, a migration) still running
        await super.wire();
      }
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const serving = serve(new SlowStart({ health: true, logger: memoryLogger() }), {
      port,
      signals: false,
      quiet: true,
    });
    try {
      for (let i = 0; i < 500 && !wiring; i++) await sleep(5);
      expect(await probe(`${url}/readyz`)).toMatchObject({ status: 503, body: '{"status":"starting"}' });
      expect(await probe(`${url}/readyz`, 'HEAD')).toMatchObject({ status: 503, body: '' });
      const live = await probe(`${url}/livez`);
      expect(live).toMatchObject({ status: 200, body: '{"status":"ok"}' });
      expect(live.headers.get('cache-control')).toBe('no-store');
      const work = probe(`${url}/work`); // waits for the start
      release();
      const running = await serving;
      servers.push(running);
      expect(await work).toMatchObject({ status: 200, body: '{"done":true}' });
      expect(await probe(`${url}/readyz`)).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    } finally {
      release();
    }
  });

  it('serve() of an app whose start fails closes the port it listened on, and rejects', async () => {
    class Broken extends App {
      protected override async wire(): Promise<void> {
        await sleep(20);
        throw new Error('no database');
      }
    }
    const port = await freePort();
    await expect(
      serve(new Broken({ health: true, logger: memoryLogger() }), { port, signals: false, quiet: true }),
    ).rejects.toThrow('no database');
    await expect(fetch(`http://127.0.0.1:${port}/livez`)).rejects.toThrow();
  });

  it('app.fetch answers a probe at once while the app starts (liveness 200, readiness 503), then serves', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    class SlowStart extends App {
      protected override async wire(): Promise<void> {
        await gate;
        await super.wire();
      }
    }
    const app = new SlowStart({ health: true, logger: memoryLogger() });
    const ready = await app.fetch(new Request('http://x.test/readyz'));
    expect([ready.status, ready.headers.get('cache-control'), await ready.text()]).toEqual([
      503,
      'no-store',
      '{"status":"starting"}',
    ]);
    const live = await app.fetch(new Request('http://x.test/livez', { method: 'HEAD' }));
    expect([live.status, await live.text()]).toEqual([200, '']);
    const work = app.fetch(new Request('http://x.test/work'));
    release();
    expect((await work).status).toBe(200);
    expect((await app.fetch(new Request('http://x.test/readyz'))).status).toBe(200);
    await app.close();
  });

  it('are off by default', async () => {
    const { running } = await listening({});
    expect((await probe(`${running.url}/livez`)).status).toBe(404);
  });

  it('wiring refuses bad options and a route at a probe path', async () => {
    expectWiringError(
      () => new App({ health: 'yes' as never }),
      'API_WIRING_INVALID_ARGUMENT',
      'new App(options)',
    );
    expectWiringError(
      () => new App({ health: { livePath: 'livez' } }),
      'API_WIRING_INVALID_PATH',
      'new App(options)',
    );
    expectWiringError(
      () => new App({ health: { livePath: '/same', readyPath: '/same' } }),
      'API_WIRING_INVALID_PATH',
      'new App(options)',
    );
    expectWiringError(
      () => new App({ health: { live: '/x' } as never }),
      'API_WIRING_UNKNOWN_OPTION',
      'new App(options)',
    );
    class Clash extends Endpoint('/readyz') {
      get = this.operation({ returns: Done }, () => ({ done: true }));
    }
    class ClashApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Clash());
      }
    }
    const error = await new ClashApp({ health: true }).start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expectWiringError(error, 'API_WIRING_DUPLICATE_ROUTE', /health\.readiness/);
  });
});

describe('serve() on SIGTERM', () => {
  it('turns readiness 503 at once, keeps accepting for drainDelayMs, lets in-flight requests finish', async () => {
    const child = fileURLToPath(new URL('./child/serve-health-app.ts', import.meta.url));
    const proc = spawn(process.execPath, ['--conditions=@api/source', '--import', 'tsx', child], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no port: ${out}`)), 15_000);
      proc.stdout.on('data', () => {
        const m = /port=(\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });
    const url = `http://127.0.0.1:${port}`;
    expect((await probe(`${url}/readyz`)).status).toBe(200);
    const slow = probe(`${url}/slow`);
    for (let i = 0; i < 500 && !out.includes('slow started'); i++) await sleep(10);
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
    proc.kill('SIGTERM');
    for (let i = 0; i < 500 && !out.includes('readiness answers 503'); i++) await sleep(5);
    // Within the 1 s delay: new connections are still accepted; readiness says 503, liveness 200.
    expect(await probe(`${url}/readyz`)).toMatchObject({ status: 503, body: '{"status":"draining"}' });
    expect((await probe(`${url}/livez`)).status).toBe(200);
    expect(await slow).toMatchObject({ status: 200, body: '{"done":true}' });
    expect(await exited).toBe(0);
    expect(out).toContain('SIGTERM received\n');
    expect(out).toContain('readiness answers 503; still accepting for 1000 ms before shutting down');
    expect(out).toContain('App shut down cleanly; exiting with 0');
  }, 30_000);
});
