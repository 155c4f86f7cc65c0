// The three wrappers through app.fetch (WHATWG Request → Response, the transport of fetch-only
// runtimes): the body is a ReadableStream the consumer pulls, with the same teardown and
// backpressure rules as on node:http.
import * as v from 'valibot';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Struct } from '@api/core';
import { NDJSONStreamingResponse, ServerSentEvent, SSEResponse, StreamingResponse } from '../src/index';
import { memoryLogger } from './fakes';

const Tick = Struct('Tick', { n: v.number() });
const seen = { pulls: 0, teardown: 0 };

/** An endless source that counts its pulls and its teardown. */
async function* endless(): AsyncGenerator<{ n: number }> {
  try {
    for (let n = 0; ; n++) {
      seen.pulls++;
      yield { n };
    }
  } finally {
    seen.teardown++;
  }
}

class Ticks extends Endpoint('/ticks') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    async function* three() {
      for (let n = 1; n <= 3; n++) yield { n };
    }
    return new NDJSONStreamingResponse({ stream: three() });
  });
}
class Endless extends Endpoint('/endless') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    return new NDJSONStreamingResponse({ stream: endless() });
  });
}
class Big extends Endpoint('/big') {
  get = this.operation({ returns: StreamingResponse.of({ contentType: 'text/plain' }) }, () => {
    async function* chunks() {
      try {
        for (;;) {
          seen.pulls++;
          yield 'x'.repeat(4096);
        }
      } finally {
        seen.teardown++;
      }
    }
    return new StreamingResponse({ stream: chunks() });
  });
}
class Slow extends Endpoint('/slow') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    async function* ticking() {
      try {
        for (let n = 0; ; n++) {
          yield { n };
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        seen.teardown++;
      }
    }
    return new NDJSONStreamingResponse({ stream: ticking() });
  });
}
class Breaking extends Endpoint('/breaking') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    async function* twoThenFail() {
      try {
        yield { n: 1 };
        yield { n: 2 };
        throw new Error('upstream went away');
      } finally {
        seen.teardown++;
      }
    }
    return new NDJSONStreamingResponse({ stream: twoThenFail() });
  });
}
class Events extends Endpoint('/events') {
  get = this.operation({ returns: SSEResponse.of(Tick) }, () => {
    async function* events() {
      yield new ServerSentEvent({ event: 'tick', id: '1', data: { n: 1 } });
      yield 'two\nlines';
    }
    return new SSEResponse({ stream: events() });
  });
}

class App extends BaseApp {
  protected override async wire() {
    for (const endpoint of [new Ticks(), new Endless(), new Slow(), new Big(), new Breaking(), new Events()])
      this.includeEndpoint(endpoint);
  }
}

const get = async (app: App, path: string): Promise<Response> => app.fetch(new Request(`http://api.test${path}`));
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('streams through app.fetch', () => {
  it('answers NDJSON as a ReadableStream: head first, one line per item, chunked by the server', async () => {
    const app = new App({ logger: memoryLogger() });
    const res = await get(app, '/ticks');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.body).toBeInstanceOf(ReadableStream);
    expect(await res.text()).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    await app.close();
  });

  it('answers SSE frames with cache-control: no-cache, decodable by an independent parser', async () => {
    const app = new App({ logger: memoryLogger() });
    const res = await get(app, '/events');
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    parser.feed(await res.text());
    expect(events.map((e) => [e.event, e.id, e.data])).toEqual([
      ['tick', '1', '{"n":1}'],
      [undefined, undefined, 'two\nlines'],
    ]);
    await app.close();
  });

  it('pulls the source only as the consumer reads: a stalled reader holds a bounded amount', async () => {
    Object.assign(seen, { pulls: 0, teardown: 0 });
    const app = new App({ logger: memoryLogger() });
    const res = await get(app, '/big');
    const reader = res.body!.getReader();
    await reader.read();
    await tick();
    const stalled = seen.pulls;
    // 4 KiB chunks: the writer's 16 KiB plus the chunk in hand, never the endless source.
    expect(stalled).toBeLessThan(12);
    await tick();
    expect(seen.pulls).toBe(stalled);
    // Reading on resumes the source.
    for (let i = 0; i < 20; i++) await reader.read();
    expect(seen.pulls).toBeGreaterThan(stalled + 10);
    await reader.cancel();
    await app.close();
  });

  it("runs the source's teardown when the consumer cancels (the client left)", async () => {
    Object.assign(seen, { pulls: 0, teardown: 0 });
    const app = new App({ logger: memoryLogger() });
    const res = await get(app, '/endless');
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('{"n":0}\n');
    await reader.cancel();
    await tick();
    expect(seen.teardown).toBe(1);
    const pulls = seen.pulls;
    await tick();
    expect(seen.pulls).toBe(pulls);
    await app.close();
  });

  it('errors the body after a mid-stream failure (never a clean end), logs it, runs the teardown', async () => {
    Object.assign(seen, { pulls: 0, teardown: 0 });
    const log = memoryLogger();
    const app = new App({ logger: log });
    const res = await get(app, '/breaking');
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    const failure = await (async () => {
      for (;;) {
        const step = await reader.read();
        if (step.done) return undefined;
        text += new TextDecoder().decode(step.value);
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(text).toBe('{"n":1}\n{"n":2}\n');
    expect(seen.teardown).toBe(1);
    expect(log.lines.some((l) => l.level === 'error' && String(l.message).includes('GET /breaking'))).toBe(
      true,
    );
    await app.close();
  });

  it('ends an open stream properly at shutdown and runs its teardown', async () => {
    Object.assign(seen, { pulls: 0, teardown: 0 });
    const app = new App({ logger: memoryLogger() });
    const res = await get(app, '/slow');
    const reading = res.text();
    await tick();
    await app.close();
    const text = await reading;
    expect(text.startsWith('{"n":0}\n{"n":1}\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    // The source was waiting on its timer: its finally runs once that step settles.
    await tick();
    expect(seen.teardown).toBe(1);
  });
});
