// Issue 42 item 4: load shedding (`new App({ loadShedding })`) — a blocked event loop sheds new
// requests with 503 + retry-after before routing, health probes excepted, and recovers.
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, serve, Struct, type AppOptions, type RunningServer } from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger } from './fixtures';

const Done = Struct('Done', { done: v.boolean() });
class Block extends Endpoint('/block') {
  // Holds the event loop: what a CPU-bound handler or a sync call does to every other request.
  get = this.operation({ returns: Done }, () => {
    const end = performance.now() + 600;
    while (performance.now() < end);
    return { done: true };
  });
}
class Ping extends Endpoint('/ping') {
  get = this.operation({ returns: Done }, () => ({ done: true }));
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Block());
    this.includeEndpoint(new Ping());
  }
}

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function listening(options: AppOptions): Promise<RunningServer> {
  const running = await serve(new App(options), { port: 0, signals: false, quiet: true });
  servers.push(running);
  return running;
}

/** Polls `path` until it answers `status` (bounded: 200 tries, 20 ms apart). */
async function until(url: string, status: number): Promise<Response> {
  for (let i = 0; i < 200; i++) {
    const res = await fetch(url);
    if (res.status === status) return res;
    await res.arrayBuffer();
    await sleep(20);
  }
  throw new Error(`${url} never answered ${status}`);
}

describe('load shedding', () => {
  it('sheds with 503 + retry-after while the event loop is blocked, probes excepted, and recovers', async () => {
    const logger = memoryLogger();
    const running = await listening({
      logger,
      health: true,
      // A shed window lasts one interval: 1 s leaves the polling client (same process) ample time to see it.
      loadShedding: { maxEventLoopDelayMs: 250, sampleIntervalMs: 1000, retryAfterSeconds: 2 },
    });
    expect((await fetch(`${running.url}/ping`)).status).toBe(200);
    expect((await fetch(`${running.url}/block`)).status).toBe(200);
    const shed = await until(`${running.url}/ping`, 503);
    expect(shed.headers.get('retry-after')).toBe('2');
    expect(shed.headers.get('content-type')).toBe('application/problem+json');
    expect(await shed.json()).toEqual({ type: 'overloaded', title: 'The server is overloaded', status: 503 });
    expect(logger.lines.some((l) => /^warn shedding load: event-loop delay \d+ ms > 250 ms/.test(l))).toBe(
      true,
    );
    // Recovers on its own once a sample sees a healthy loop.
    const back = await until(`${running.url}/ping`, 200);
    expect(await back.json()).toEqual({ done: true });
    expect(logger.lines).toContain('info load back under the limits; no longer shedding');
  });

  it('never sheds health probes', async () => {
    const running = await listening({
      logger: memoryLogger(),
      health: true,
      // Always past this limit: every request but the probes is shed.
      loadShedding: { maxRssBytes: 1, sampleIntervalMs: 20 },
    });
    await until(`${running.url}/ping`, 503);
    expect((await fetch(`${running.url}/livez`)).status).toBe(200);
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
    // Unrouted paths are shed too: shedding comes before routing.
    const miss = await fetch(`${running.url}/nowhere`);
    expect(miss.status).toBe(503);
    expect(miss.headers.get('retry-after')).toBe('5');
  });

  it('sheds on heap in use', async () => {
    const running = await listening({
      logger: memoryLogger(),
      loadShedding: { maxHeapUsedBytes: 1, sampleIntervalMs: 20 },
    });
    const shed = await until(`${running.url}/ping`, 503);
    expect(((await shed.json()) as { type: string }).type).toBe('overloaded');
  });

  it('wiring refuses nonsense values', () => {
    const where = 'new App(options)';
    expectWiringError(() => new App({ loadShedding: {} }), 'API_WIRING_LIMIT', where);
    expectWiringError(() => new App({ loadShedding: { maxEventLoopDelayMs: 0 } }), 'API_WIRING_LIMIT', where);
    expectWiringError(() => new App({ loadShedding: { maxRssBytes: -1 } }), 'API_WIRING_LIMIT', where);
    expectWiringError(
      () => new App({ loadShedding: { maxRssBytes: 1e9, sampleIntervalMs: 0.5 } }),
      'API_WIRING_LIMIT',
      where,
    );
    expectWiringError(
      () => new App({ loadShedding: { maxDelay: 5 } as never }),
      'API_WIRING_UNKNOWN_OPTION',
      where,
    );
    expectWiringError(() => new App({ loadShedding: 5 as never }), 'API_WIRING_INVALID_ARGUMENT', where);
  });
});
