import { ServerResponse } from 'node:http';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BaseApp,
  Endpoint,
  ExceptionResponse,
  HTTPError,
  NotFoundError,
  serve,
  Struct,
  defineExceptionHandler,
} from '@api/core';
import { NDJSONStreamingResponse, SSEResponse } from '../src/index';
import { memoryLogger } from './fakes';
import { rawRequest, start, waitFor } from './wire';

const Tick = Struct('Tick', { n: v.number() });

class TeapotError extends HTTPError.define({ type: 'teapot', title: 'I am a teapot', status: 418 }) {}
class UpstreamError extends Error {}
const SECRET = 'db password is hunter2';

/** What the sources of this file did, for assertions. */
const seen = { setup: 0, teardown: 0, pulls: 0, tornAt: 0 };
beforeEach(() => {
  Object.assign(seen, { setup: 0, teardown: 0, pulls: 0, tornAt: 0 });
});

/** Counts the pump's `next()` calls on `inner` (a pull), not the steps the generator runs itself. */
function counted<T>(inner: AsyncGenerator<T>): AsyncIterableIterator<T> {
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next: () => {
      seen.pulls++;
      return inner.next();
    },
    return: (value?: unknown) => inner.return(value as never),
  };
}

function lifecycle(failSetup?: () => never, firstItem?: () => never) {
  return async function* () {
    seen.setup++;
    if (failSetup) failSetup();
    try {
      yield counted(
        (async function* () {
          if (firstItem) firstItem();
          for (let n = 0; ; n++) {
            yield { n };
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        })(),
      );
    } finally {
      seen.teardown++;
      seen.tornAt = performance.now();
    }
  };
}

class Streams extends Endpoint('/ticks') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    return new NDJSONStreamingResponse({ stream: lifecycle()() });
  });
}
class Failing extends Endpoint('/fail/teapot') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    return new NDJSONStreamingResponse({ stream: lifecycle(() => { throw new TeapotError(); })() });
  });
}
class Crashing extends Endpoint('/fail/crash') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    return new NDJSONStreamingResponse({ stream: lifecycle(() => { throw new Error(SECRET); })() });
  });
}
class Upstream extends Endpoint('/fail/upstream') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    return new NDJSONStreamingResponse({ stream: lifecycle(() => { throw new UpstreamError('down'); })() });
  });
}
// NDJSON (and bytes) await a lifecycle generator's first item before the head: its failure is a
// normal error response. (SSE sends the head once setup succeeded: see sse-response.test.ts.)
class Missing extends Endpoint('/fail/first') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    return new NDJSONStreamingResponse({ stream: lifecycle(undefined, () => { throw new NotFoundError(); })() });
  });
}
// SSE with a plain async iterable awaits its first item too.
class MissingEvents extends Endpoint('/fail/first-event') {
  get = this.operation({ returns: SSEResponse.of(Tick) }, () => {
    // eslint-disable-next-line require-yield -- the first item fails
    async function* events(): AsyncGenerator<{ n: number }> {
      seen.pulls++;
      throw new NotFoundError();
    }
    return new SSEResponse({ stream: events() });
  });
}

class BadHeader extends Endpoint('/fail/header') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    return new NDJSONStreamingResponse({ stream: lifecycle()(), rawHeaders: { 'x-note': 'a\r\nset-cookie: x=1' } });
  });
}

const upstreamHandler = defineExceptionHandler({
  exception: UpstreamError,
  returns: [ExceptionResponse.of(Struct('UpstreamProblem', { type: v.string(), title: v.string(), status: v.number() }))],
  handleException: () =>
    new ExceptionResponse<{ type: string; title: string; status: number }>({
      statusCode: 502,
      json: { type: 'upstream', title: 'Upstream failed', status: 502 },
    }),
});

describe('stream setup and the first item', () => {
  it('renders an HTTPError thrown in setup as its own response, after teardown', async () => {
    const { client } = await start((app) => app.endpoint(new Failing()));
    const res = await client.get('/fail/teapot');
    expect(res.status).toBe(418);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json()).toEqual({ type: 'teapot', title: 'I am a teapot', status: 418 });
    expect(seen).toMatchObject({ setup: 1, pulls: 0, teardown: 0 }); // setup threw before its try
  });

  it('renders any other setup failure as a 500 that leaks nothing, and logs it', async () => {
    const { client, app } = await start((a) => a.endpoint(new Crashing()));
    const res = await client.get('/fail/crash');
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({ type: 'internal-server-error', title: 'Internal server error', status: 500 });
    expect(res.text).not.toContain('hunter2');
    const logged = app.log.lines.filter((l) => l.level === 'error');
    expect(logged).toHaveLength(1);
    expect(String(logged[0]?.message)).toContain('GET /fail/crash');
    expect((logged[0]?.error as Error).message).toBe(SECRET);
  });

  it('lets a custom exception handler answer a setup failure (502)', async () => {
    const { client } = await start((app) => {
      app.handler(upstreamHandler);
      app.endpoint(new Upstream());
    });
    const res = await client.get('/fail/upstream');
    expect(res.status).toBe(502);
    expect(res.json()).toEqual({ type: 'upstream', title: 'Upstream failed', status: 502 });
  });

  it('renders a NotFoundError from the first item as a 404, and tears down', async () => {
    const { client } = await start((app) => app.endpoint(new Missing()));
    const res = await client.get('/fail/first');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ type: 'not-found', title: 'Not found', status: 404 });
    expect(seen).toMatchObject({ setup: 1, teardown: 1 });
  });

  it("renders a NotFoundError from an SSE plain iterable's first item as a 404", async () => {
    const { client } = await start((app) => app.endpoint(new MissingEvents()));
    const res = await client.get('/fail/first-event');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ type: 'not-found', title: 'Not found', status: 404 });
    expect(seen.pulls).toBe(1);
  });

  it('refuses a header that cannot be sent with a 500, before setup runs', async () => {
    const { client } = await start((app) => app.endpoint(new BadHeader()));
    const res = await client.get('/fail/header');
    expect(res.status).toBe(500);
    expect(res.headers.get('set-cookie')).toBeUndefined();
    expect(seen).toMatchObject({ setup: 0, teardown: 0 });
  });

  it('answers HEAD without running setup', async () => {
    const { client } = await start((app) => app.endpoint(new Streams()));
    const res = await client.head('/ticks');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(seen).toMatchObject({ setup: 0, pulls: 0, teardown: 0 });
  });
});

describe('client disconnect', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    vi.restoreAllMocks();
  });

  it('stops the source and runs teardown within 100 ms; nothing is written after close', async () => {
    const late: string[] = [];
    const write = ServerResponse.prototype.write;
    vi.spyOn(ServerResponse.prototype, 'write').mockImplementation(function (this: ServerResponse, ...args: unknown[]) {
      if (this.destroyed || this.writableEnded) late.push(String(args[0]));
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof write);
    const { client } = await start((app) => app.endpoint(new Streams()));
    const session = await client.streamGet('/ticks');
    let items = 0;
    for await (const _item of session.ndjson()) if (++items === 3) break; // leaving the loop disconnects
    const leftAt = performance.now();
    await waitFor(() => seen.teardown === 1, 1000);
    expect(seen.tornAt - leftAt).toBeLessThan(100);
    const pulls = seen.pulls;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.pulls).toBe(pulls); // never pulled again
    expect(late).toEqual([]);
    expect(unhandled).toEqual([]);
  });
});

/** Never settles. */
const forever = (): Promise<never> => new Promise<never>(() => undefined);

class Stuck extends Endpoint('/stuck') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    async function* lifecycle() {
      try {
        yield (async function* () {
          yield { n: 0 };
          await forever();
        })();
      } finally {
        await forever(); // a teardown that never ends
      }
    }
    return new NDJSONStreamingResponse({ stream: lifecycle() });
  });
}

describe('graceful shutdown (core\'s shutdownSignal: no extension to include)', () => {
  it('ends open streams with their terminating chunk and runs teardown, well before the cap', async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Streams());
      }
    }
    const log = memoryLogger();
    const running = await serve(new App({ logger: log }), { port: 0, signals: false, quiet: true });
    const response = rawRequest(running.url, '/ticks');
    await waitFor(() => seen.pulls >= 2);
    const began = performance.now();
    await running.close();
    const res = await response;
    expect(performance.now() - began).toBeLessThan(1000);
    expect(res.status).toBe(200);
    expect(res.terminated).toBe(true);
    expect(seen.teardown).toBe(1);
    const lines = Buffer.concat(res.chunks).toString().trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(lines.map((_, n) => ({ n })));
    expect(log.lines).toEqual([]);
  });

  it('ends every open stream at once and waits for all their teardowns', async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Streams());
      }
    }
    const running = await serve(new App({ logger: memoryLogger() }), { port: 0, signals: false, quiet: true });
    const responses = [rawRequest(running.url, '/ticks'), rawRequest(running.url, '/ticks'), rawRequest(running.url, '/ticks')];
    await waitFor(() => seen.setup === 3 && seen.pulls >= 6);
    const began = performance.now();
    await running.close();
    expect(performance.now() - began).toBeLessThan(1000);
    expect(seen.teardown).toBe(3); // close() resolved after every teardown
    for (const res of await Promise.all(responses)) {
      expect(res.status).toBe(200);
      expect(res.terminated).toBe(true);
    }
  });

  it('leaves a teardown that hangs behind at the shutdown cap, with one log line naming its route', async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Streams());
        this.includeEndpoint(new Stuck());
      }
    }
    const log = memoryLogger();
    const CAP_MS = 300;
    const running = await serve(new App({ logger: log, limits: { shutdownTimeoutMs: CAP_MS } }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    const fine = rawRequest(running.url, '/ticks');
    const stuck = rawRequest(running.url, '/stuck');
    await waitFor(() => seen.pulls >= 2);
    await new Promise((resolve) => setTimeout(resolve, 20)); // /stuck has sent its first line
    const began = performance.now();
    await running.close();
    const took = performance.now() - began;
    expect(took).toBeGreaterThanOrEqual(CAP_MS - 5);
    expect(took).toBeLessThan(CAP_MS + 1000);
    const ok = await fine;
    expect(ok.terminated).toBe(true); // the other stream ended properly, at once
    expect(seen.teardown).toBe(1);
    const cut = await stuck;
    expect(cut.status).toBe(200);
    expect(cut.terminated).toBe(false); // its teardown never finished: closed by the cap, not ended
    expect(Buffer.concat(cut.chunks).toString()).toBe('{"n":0}\n');
    // The connection's 'close' (the cap closed it) lands just after close() resolved.
    await waitFor(() => log.lines.some((l) => l.message.startsWith('stream teardown')), 500);
    const mine = log.lines.filter((l) => l.message.startsWith('stream teardown'));
    expect(mine.map((l) => `${l.level} ${l.message}`)).toEqual([
      'warn stream teardown for GET /stuck still running when its connection closed during shutdown; shutdown goes on without it',
    ]);
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes(`shutdown cap (${CAP_MS} ms) reached`))).toBe(true);
  });
});
