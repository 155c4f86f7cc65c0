// Issue 42 items 1 and 2: the request's `signal` (client gone, deadline, shutdown cap) and
// deadlines (`limits.deadlineMs`, app-wide and per mount), over a real socket.
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseApp,
  Endpoint,
  serve,
  Struct,
  type AppOptions,
  type LimitsOptions,
  type RunningServer,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger } from './fixtures';

const Done = Struct('Done', { done: v.boolean() });

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What the handlers saw, for the test to wait on. */
interface Seen {
  started: Deferred<AbortSignal>;
  aborted: Deferred<{ at: number; reason: unknown }>;
  ran: number;
}
let seen: Seen;
function reset(): void {
  seen = { started: deferred(), aborted: deferred(), ran: 0 };
}
reset();

/** Waits until `signal` aborts or `ms` pass (then returns `{ done: true }`). */
function hold(signal: AbortSignal, ms: number): Promise<{ done: boolean }> {
  seen.started.resolve(signal);
  seen.ran++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ done: true }), ms);
    signal.addEventListener('abort', () => {
      seen.aborted.resolve({ at: performance.now(), reason: signal.reason });
      clearTimeout(timer);
      resolve({ done: false });
    });
  });
}

class Slow extends Endpoint('/slow') {
  get = this.operation({ signal: true, returns: Done }, ({ signal }) => hold(signal, 400));
}
class Quick extends Endpoint('/quick') {
  get = this.operation({ returns: Done }, () => ({ done: true }));
}
class Late extends Endpoint('/late') {
  // Ignores its signal: finishes (or fails) well after a 100 ms deadline.
  get = this.operation(
    { params: Struct('LateParams', { fail: v.optional(v.string()) }), returns: Done },
    async ({ params }) => {
      seen.ran++;
      await sleep(300);
      if (params.fail !== undefined) throw new Error('late failure');
      return { done: true };
    },
  );
}
class Patient extends Endpoint('/patient') {
  get = this.operation({ returns: Done }, async () => {
    await sleep(200);
    return { done: true };
  });
}

class App extends BaseApp {
  constructor(
    options: AppOptions,
    readonly patientLimits?: LimitsOptions,
  ) {
    super(options);
  }
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Slow());
    this.includeEndpoint(new Quick());
    this.includeEndpoint(new Late());
    this.includeEndpoint(new Patient(), this.patientLimits ? { limits: this.patientLimits } : {});
  }
}

const servers: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  reset();
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function listening(options: AppOptions = {}, patient?: LimitsOptions): Promise<RunningServer> {
  const running = await serve(new App(options, patient), { port: 0, signals: false, quiet: true });
  servers.push(running);
  return running;
}

/** Sends raw requests on one connection and collects what comes back. */
function rawClient(port: number): { socket: Socket; text: () => string; send: (head: string) => void } {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  return { socket, text: () => text, send: (head) => socket.write(head) };
}

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('the request signal', () => {
  it('aborts within 50 ms (asserted with margin) when the client disconnects mid-handler', async () => {
    const running = await listening();
    const client = rawClient(running.port);
    client.send('GET /slow HTTP/1.1\r\nhost: x\r\n\r\n');
    const signal = await seen.started.promise;
    expect(signal.aborted).toBe(false);
    const left = performance.now();
    client.socket.destroy();
    const { at, reason } = await seen.aborted.promise;
    // Event-driven (the response's 'close'), not polled: the bound is 50 ms; 150 ms leaves 3x margin.
    expect(at - left).toBeLessThan(150);
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('AbortError');
    expect((reason as DOMException).message).toBe('the client went away');
  });

  it('stays quiet when the answer completes: background work given the signal keeps running', async () => {
    class Background extends Endpoint('/background') {
      get = this.operation({ signal: true, returns: Done }, ({ signal }) => {
        seen.started.resolve(signal);
        return { done: true };
      });
    }
    class BackgroundApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Background());
      }
    }
    const running = await serve(new BackgroundApp({ logger: memoryLogger() }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    servers.push(running);
    const res = await fetch(`${running.url}/background`);
    expect(await res.json()).toEqual({ done: true });
    const signal = await seen.started.promise;
    await sleep(50);
    expect(signal.aborted).toBe(false);
  });

  it('aborts at the shutdown cap with an AbortError', async () => {
    const running = await serve(new App({ logger: memoryLogger(), limits: { shutdownTimeoutMs: 150 } }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    const pending = fetch(`${running.url}/slow`).then(
      (r) => r.status,
      () => 'cut',
    );
    const signal = await seen.started.promise;
    const closing = running.close();
    await sleep(50);
    expect(signal.aborted).toBe(false);
    const { reason } = await seen.aborted.promise;
    expect((reason as DOMException).name).toBe('AbortError');
    expect((reason as DOMException).message).toBe('the shutdown cap was reached');
    await closing;
    expect(await pending).toBe('cut');
  });

  it('app.fetch: aborts when the Request is aborted (a fetch server whose client left)', async () => {
    const app = new App({ logger: memoryLogger() });
    const client = new AbortController();
    const answer = app.fetch(new Request('http://x.example/slow', { signal: client.signal }));
    const signal = await seen.started.promise;
    client.abort();
    const { reason } = await seen.aborted.promise;
    expect(signal.aborted).toBe(true);
    expect((reason as DOMException).message).toBe('the client went away');
    await Promise.resolve(answer).then(
      (res) => res.body?.cancel(),
      () => undefined,
    );
    await app.close();
  });

  it('a route that does not bind it makes no control (nothing aborts, nothing is allocated)', async () => {
    const running = await listening();
    const res = await fetch(`${running.url}/quick`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
  });
});

describe('deadlines', () => {
  it('answer 503 once at the deadline, abort the signal, and drop the late result (logged once)', async () => {
    const logger = memoryLogger();
    const running = await listening({ logger, limits: { deadlineMs: 100 }, requestLog: false });
    const started = performance.now();
    const res = await fetch(`${running.url}/slow`);
    const took = performance.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toEqual({
      type: 'deadline-exceeded',
      title: 'The answer was not ready within its deadline',
      status: 503,
    });
    expect(took).toBeGreaterThanOrEqual(95);
    const { reason } = await seen.aborted.promise;
    expect((reason as DOMException).name).toBe('TimeoutError');
    // The handler saw its signal abort and returned its value: dropped, logged once.
    await until(() => logger.lines.some((l) => l.includes('deadline')), 'the late-result line');
    expect(logger.lines.filter((l) => l.includes('deadline'))).toEqual([
      'warn GET /slow: the result came after the deadline (100 ms) had answered 503; dropped',
    ]);
  });

  it('keeps the connection usable: the late result writes nothing on it', async () => {
    const logger = memoryLogger();
    const running = await listening({ logger, limits: { deadlineMs: 100 } });
    const client = rawClient(running.port);
    client.send('GET /late HTTP/1.1\r\nhost: x\r\n\r\n');
    await until(() => client.text().includes('deadline-exceeded'), 'the 503');
    await until(() => logger.lines.some((l) => l.includes('dropped')), 'the late result');
    client.send('GET /quick HTTP/1.1\r\nhost: x\r\n\r\n');
    await until(() => client.text().includes('{"done":true}'), 'the next answer');
    const text = client.text();
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(2);
    expect(text.startsWith('HTTP/1.1 503 Service Unavailable\r\n')).toBe(true);
    expect(text).toContain('HTTP/1.1 200 OK\r\n');
    expect(client.socket.destroyed).toBe(false);
  });

  it('drops a late failure too, logged once with the error, the route and the request id', async () => {
    const fields: unknown[] = [];
    const base = memoryLogger();
    const logger = {
      ...base,
      warn: (m: string, e?: unknown, f?: unknown) => (base.warn(m, e), fields.push(f)),
    };
    const running = await listening({ logger, limits: { deadlineMs: 100 } });
    const res = await fetch(`${running.url}/late?fail=1`);
    expect(res.status).toBe(503);
    await until(() => base.lines.some((l) => l.includes('dropped')), 'the late failure');
    expect(base.lines).toEqual([
      'warn GET /late: the failure came after the deadline (100 ms) had answered 503; dropped',
    ]);
    expect((base.errors[0] as Error).message).toBe('late failure');
    expect(fields).toEqual([
      {
        method: 'GET',
        path: '/late',
        route: '/late',
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
        deadlineMs: 100,
      },
    ]);
  });

  it('answers in time untouched, and a mount may set its own deadline', async () => {
    const running = await listening({ limits: { deadlineMs: 100 } }, { deadlineMs: 2_000 });
    expect((await fetch(`${running.url}/quick`)).status).toBe(200);
    const patient = await fetch(`${running.url}/patient`);
    expect(patient.status).toBe(200);
    expect(await patient.json()).toEqual({ done: true });
  });

  it('a per-mount deadline applies without an app-wide one', async () => {
    const running = await listening({ logger: memoryLogger() }, { deadlineMs: 50 });
    expect((await fetch(`${running.url}/patient`)).status).toBe(503);
    expect((await fetch(`${running.url}/late`)).status).toBe(200);
  });

  it('wiring refuses nonsense values', () => {
    for (const bad of [0, -5, 1.5, Number.NaN, Infinity, 2 ** 31, '100'])
      expectWiringError(
        () => new App({ limits: { deadlineMs: bad as number } }),
        'API_WIRING_LIMIT',
        'new App({ limits })',
      );
  });

  it('a mount with a nonsense deadline fails at start', async () => {
    const app = new App({}, { deadlineMs: -1 });
    const error = await app.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expectWiringError(error, 'API_WIRING_LIMIT', 'Patient mount limits');
  });
});
