// Issue 42 items 1 and 2 with streams: an app-wide deadline covers the time to a stream's head
// only (a stream past its head is never cut by it), and the request's signal reaches the producer.
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, serve, Struct, type RunningServer } from '@api/core';
import { NDJSONStreamingResponse } from '../src/index';
import { memoryLogger } from './fakes';

const Tick = Struct('Tick', { n: v.number() });
const seen = { aborted: 0, reason: undefined as unknown };

class Steady extends Endpoint('/steady') {
  // Head at once, then eight items 40 ms apart: about 320 ms, well past the 100 ms deadline.
  get = this.operation({ signal: true, returns: NDJSONStreamingResponse.of(Tick) }, ({ signal }) => {
    async function* ticks() {
      for (let n = 0; n < 8; n++) {
        yield { n };
        await sleep(40, undefined, { signal });
      }
    }
    return new NDJSONStreamingResponse({ stream: ticks() });
  });
}
class SlowStart extends Endpoint('/slow-start') {
  // Its setup (awaited before the head) outlasts the deadline: 503, and the producer is told.
  get = this.operation({ signal: true, returns: NDJSONStreamingResponse.of(Tick) }, ({ signal }) => {
    async function* lifecycle() {
      try {
        await sleep(400, undefined, { signal });
      } catch (error) {
        seen.aborted++;
        seen.reason = signal.reason;
        throw error;
      }
      yield (async function* () {
        yield { n: 0 };
      })();
    }
    return new NDJSONStreamingResponse({ stream: lifecycle() });
  });
}
class Endless extends Endpoint('/endless') {
  get = this.operation({ signal: true, returns: NDJSONStreamingResponse.of(Tick) }, ({ signal }) => {
    async function* ticks() {
      signal.addEventListener('abort', () => {
        seen.aborted++;
        seen.reason = signal.reason;
      });
      for (let n = 0; ; n++) {
        yield { n };
        await sleep(10);
      }
    }
    return new NDJSONStreamingResponse({ stream: ticks() });
  });
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Steady());
    this.includeEndpoint(new SlowStart());
    this.includeEndpoint(new Endless());
  }
}

let running: RunningServer | undefined;
afterEach(async () => {
  Object.assign(seen, { aborted: 0, reason: undefined });
  await running?.close();
  running = undefined;
});
async function listening(): Promise<RunningServer> {
  running = await serve(new App({ logger: memoryLogger(), limits: { deadlineMs: 100 } }), {
    port: 0,
    signals: false,
    quiet: true,
  });
  return running;
}

describe('a deadline and streams', () => {
  it('never cuts a stream whose head went out in time', async () => {
    const { url } = await listening();
    const res = await fetch(`${url}/steady`);
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((n) => ({ n })));
  });

  it('answers 503 when the head is not out by the deadline, and the producer sees its signal abort', async () => {
    const { url } = await listening();
    const res = await fetch(`${url}/slow-start`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { type: string }).type).toBe('deadline-exceeded');
    for (let i = 0; i < 200 && seen.aborted === 0; i++) await sleep(5);
    expect(seen.aborted).toBe(1);
    expect((seen.reason as DOMException).name).toBe('TimeoutError');
  });

  it("aborts the producer's signal when the client leaves mid-stream", async () => {
    const { url } = await listening();
    const controller = new AbortController();
    const res = await fetch(`${url}/endless`, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    for (let i = 0; i < 200 && seen.aborted === 0; i++) await sleep(5);
    expect(seen.aborted).toBe(1);
    expect((seen.reason as DOMException).message).toBe('the client went away');
  });
});
