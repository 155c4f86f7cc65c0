import { createParser, type EventSourceMessage } from 'eventsource-parser';
import * as v from 'valibot';
import { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { Endpoint, HTTPError, NotFoundError, Struct, WiringError } from '@api/core';
import { TestClient } from '@api/testing';
import { deferred } from '../../test/fakes';
import { chunk, rawRequest, rawStream, start, TestApp, waitFor } from '../../test/wire';
import { ServerSentEvent, SSEResponse } from '../index';

const Notice = Struct('Notice', { message: v.string() });
const Up = Struct('Up', { n: v.number() }, { tag: true });
const Down = Struct('Down', { n: v.number() }, { tag: true });
const LastEvent = Struct('LastEvent', { last_event_id: v.optional(v.string()) });
const Trace = v.object({ xTraceId: v.string() });

function decode(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  parser.feed(text);
  return events;
}

const NASTY = [
  'a\n',
  'line one\r\nline two\rline three\nline four',
  '',
  '\n\n',
  ' spaced',
  'data: fake\n\nid: 9',
];

class Feed extends Endpoint('/feed') {
  get = this.operation({ returns: SSEResponse.of(Notice) }, () => {
    async function* events() {
      yield { message: 'model', dropped: true } as { message: string };
      yield 'plain text';
      yield new ServerSentEvent({ data: { message: 'full' }, event: 'widget.created', id: '1', retry: 3000 });
      yield new ServerSentEvent({ data: 'two\nlines', id: '' });
      yield new ServerSentEvent({ retry: 10 });
    }
    return new SSEResponse({ stream: events() });
  });
}

class Nasty extends Endpoint('/nasty') {
  get = this.operation({ returns: SSEResponse.of(v.string()) }, () => {
    async function* events() {
      for (const [i, data] of NASTY.entries()) yield new ServerSentEvent({ data, id: String(i) });
    }
    return new SSEResponse({ stream: events() });
  });
}

class Tagged extends Endpoint('/tagged') {
  get = this.operation({ returns: SSEResponse.of(v.variant('type', [Up, Down])) }, () => {
    async function* events() {
      yield { n: 1, type: 'Up' as const };
      yield new ServerSentEvent({ event: 'change', data: { type: 'Down' as const, n: 2 } });
    }
    return new SSEResponse({ stream: events() });
  });
}

class Resumable extends Endpoint('/resume') {
  get = this.operation(
    { headers: LastEvent, returns: SSEResponse.of(Notice, { headers: Trace }) },
    ({ headers }) => {
      const after = Number(headers.last_event_id ?? '0');
      async function* events() {
        for (let id = after + 1; id <= 3; id++)
          yield new ServerSentEvent({ id: String(id), data: { message: `#${id}` } });
      }
      return new SSEResponse({ stream: events(), headers: { xTraceId: `after-${after}` } });
    },
  );
}

let idle = { pulled: 0, closed: false };
class Idle extends Endpoint('/idle') {
  get = this.operation({ returns: SSEResponse.of(Notice) }, () => {
    async function* lifecycle() {
      try {
        yield (async function* () {
          idle.pulled++;
          yield { message: 'hello' };
          await new Promise(() => undefined); // nothing more, ever
        })();
      } finally {
        idle.closed = true; // teardown runs at once on disconnect, though the stream is mid-await
      }
    }
    return new SSEResponse({ stream: lifecycle(), keepalive: 0.05 });
  });
}

class BadFields extends Endpoint('/bad') {
  get = this.operation({ returns: SSEResponse.of(Notice) }, () => {
    async function* events() {
      yield { message: 'ok' };
      yield new ServerSentEvent({ event: 'oops\nevent: injected', data: { message: 'x' } });
    }
    return new SSEResponse({ stream: events() });
  });
}
class BadFirst extends Endpoint('/bad-first') {
  get = this.operation({ returns: SSEResponse.of(Notice) }, () => {
    async function* events() {
      yield new ServerSentEvent({ id: 'a\0b' });
    }
    return new SSEResponse({ stream: events() });
  });
}

/** What the head-rule sources below did. */
let gate = { setup: 0, teardown: 0, release: deferred() };
function gated(
  options: { failSetup?: () => never; failFirst?: () => never } = {},
): () => AsyncGenerator<AsyncGenerator<{ message: string }>> {
  return async function* () {
    gate.setup++;
    options.failSetup?.();
    try {
      yield (async function* () {
        await gate.release.promise; // nothing to send until the test says so
        options.failFirst?.();
        yield { message: 'late' };
        await new Promise(() => undefined);
      })();
    } finally {
      gate.teardown++;
    }
  };
}
class TeapotError extends HTTPError.define({ type: 'teapot', title: 'I am a teapot', status: 418 }) {}
class Quiet extends Endpoint('/quiet') {
  get = this.operation(
    { returns: SSEResponse.of(Notice) },
    () => new SSEResponse({ stream: gated()(), keepalive: 0.2 }),
  );
}
class QuietFailing extends Endpoint('/quiet/fail') {
  get = this.operation({ returns: SSEResponse.of(Notice) }, () => {
    const failFirst = (): never => {
      throw new Error('the feed broke');
    };
    return new SSEResponse({ stream: gated({ failFirst })() });
  });
}
class QuietSetupFails extends Endpoint('/quiet/setup') {
  get = this.operation({ returns: SSEResponse.of(Notice) }, () => {
    const failSetup = (): never => {
      throw new TeapotError();
    };
    return new SSEResponse({ stream: gated({ failSetup })() });
  });
}
class PlainMissing extends Endpoint('/plain/missing') {
  get = this.operation({ returns: SSEResponse.of(Notice) }, () => {
    // eslint-disable-next-line require-yield -- the first item fails
    async function* events(): AsyncGenerator<{ message: string }> {
      await gate.release.promise;
      throw new NotFoundError();
    }
    return new SSEResponse({ stream: events() });
  });
}

describe('the head of an SSE response', () => {
  const SSE_HEAD =
    /^HTTP\/1\.1 200 OK\r\ncontent-type: text\/event-stream\r\ncache-control: no-cache\r\ndate: [^\r]+\r\n(?:connection: keep-alive\r\nkeep-alive: timeout=\d+\r\n)?transfer-encoding: chunked\r\n\r\n/i;

  it("goes out as soon as a lifecycle generator's setup succeeded, with nothing to send yet; then pings, then items", async () => {
    gate = { setup: 0, teardown: 0, release: deferred() };
    const { client } = await start((a) => a.endpoint(new Quiet()));
    const stream = rawStream(client.url, '/quiet');
    try {
      await stream.until(/\r\n\r\n/);
      expect(stream.text()).toMatch(SSE_HEAD);
      const head = SSE_HEAD.exec(stream.text())![0];
      expect(stream.text()).toBe(head); // the head alone: no event, no ping yet
      await stream.until(/(: ping\n\n\r\n[^]*){2}$/);
      expect(stream.text()).toBe(head + chunk(': ping\n\n') + chunk(': ping\n\n'));
      gate.release.resolve();
      await stream.until(/late/);
      const body = stream.text().slice(head.length);
      expect(body.endsWith(chunk('data: {"message":"late"}\n\n'))).toBe(true);
      expect(body.replaceAll(chunk(': ping\n\n'), '')).toBe(chunk('data: {"message":"late"}\n\n'));
      expect(gate).toMatchObject({ setup: 1, teardown: 0 });
    } finally {
      stream.close();
    }
    await waitFor(() => gate.teardown === 1, 500);
  });

  it("makes a failure of the lifecycle's first item a mid-stream failure: one log line, cut, teardown ran", async () => {
    gate = { setup: 0, teardown: 0, release: deferred() };
    const { client, app } = await start((a) => a.endpoint(new QuietFailing()));
    const stream = rawStream(client.url, '/quiet/fail');
    await stream.until(/\r\n\r\n/);
    expect(stream.text()).toMatch(SSE_HEAD);
    gate.release.resolve();
    await stream.closed;
    const head = SSE_HEAD.exec(stream.text())![0];
    expect(stream.text()).toBe(head); // no item, and no terminating chunk: the client sees a cut
    await waitFor(() => gate.teardown === 1, 500);
    const errors = app.log.lines.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.message)).toEqual(['error streaming response for GET /quiet/fail']);
    expect((errors[0]?.error as Error).message).toBe('the feed broke');
  });

  it("still renders a lifecycle generator's setup failure as a normal error response", async () => {
    gate = { setup: 0, teardown: 0, release: deferred() };
    const { client } = await start((a) => a.endpoint(new QuietSetupFails()));
    const res = await client.get('/quiet/setup');
    expect(res.status).toBe(418);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.text).toBe('{"type":"teapot","title":"I am a teapot","status":418}');
    expect(gate.setup).toBe(1);
  });

  it('waits for the first item of a plain async iterable: its NotFoundError is a 404', async () => {
    gate = { setup: 0, teardown: 0, release: deferred() };
    const { client } = await start((a) => a.endpoint(new PlainMissing()));
    const stream = rawStream(client.url, '/plain/missing', { connection: 'close' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stream.text()).toBe(''); // no head while the first item is pending
    gate.release.resolve();
    await stream.closed;
    expect(stream.text()).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(stream.text().endsWith('\r\n\r\n{"type":"not-found","title":"Not found","status":404}')).toBe(
      true,
    );
  });
});

describe('SSEResponse on the wire', () => {
  it('sends models, strings and every ServerSentEvent field, exactly', async () => {
    const { client } = await start((app) => app.endpoint(new Feed()));
    const res = await client.get('/feed');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.text).toBe(
      'data: {"message":"model"}\n\n' +
        'data: plain text\n\n' +
        'event: widget.created\nid: 1\nretry: 3000\ndata: {"message":"full"}\n\n' +
        'id: \ndata: two\ndata: lines\n\n' +
        'retry: 10\n\n',
    );
  });

  it("never sets connection itself (node:http alone answers the client's connection: close)", async () => {
    const { client } = await start((app) => app.endpoint(new Feed()));
    const res = await rawRequest(client.url, '/feed');
    const connection = res.head.split('\r\n').filter((line) => /^connection:/i.test(line));
    expect(connection).toEqual(['Connection: close']);
  });

  it('round-trips CR, LF and CR LF in data through eventsource-parser, every line kept', async () => {
    const { client } = await start((app) => app.endpoint(new Nasty()));
    const res = await client.get('/nasty');
    expect(decode(res.text).map((e) => [e.id, e.data])).toEqual(
      NASTY.map((data, i) => [String(i), data.replace(/\r\n|\r/g, '\n')]),
    );
  });

  it('sends a union of tagged Structs as data with "type" first', async () => {
    const { client } = await start((app) => app.endpoint(new Tagged()));
    const res = await client.get('/tagged');
    expect(res.text).toBe('data: {"type":"Up","n":1}\n\nevent: change\ndata: {"type":"Down","n":2}\n\n');
  });

  it('resumes after Last-Event-ID, read as an ordinary headers field; typed headers go out', async () => {
    const { client } = await start((app) => app.endpoint(new Resumable()));
    await using session = await client.streamGet('/resume', { headers: { 'last-event-id': '1' } });
    expect(session.headers.get('x-trace-id')).toBe('after-1');
    const seen = [];
    for await (const event of session.events()) seen.push(event);
    expect(seen).toEqual([
      { id: '2', data: { message: '#2' } },
      { id: '3', data: { message: '#3' } },
    ]);
  });

  it('pings while idle; on disconnect tears down at once and never writes again', async () => {
    idle = { pulled: 0, closed: false };
    const late: string[] = [];
    const write = ServerResponse.prototype.write;
    const spy = vi.spyOn(ServerResponse.prototype, 'write').mockImplementation(function (
      this: ServerResponse,
      ...args: unknown[]
    ) {
      if (this.destroyed || this.writableEnded) late.push(String(args[0]));
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof write);
    try {
      const { client } = await start((app) => app.endpoint(new Idle()));
      const session = await client.streamGet('/idle');
      let text = '';
      for await (const chunk of session) {
        text += chunk.toString();
        if (text.split(': ping\n\n').length > 2) break; // two pings: leaving the loop disconnects
      }
      expect(text.startsWith('data: {"message":"hello"}\n\n: ping\n\n: ping\n\n')).toBe(true);
      await waitFor(() => idle.closed, 100);
      await new Promise((resolve) => setTimeout(resolve, 200)); // four keepalive periods
      expect(late).toEqual([]);
      expect(idle.pulled).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a bad field on the first item with a 500', async () => {
    const { client, app } = await start((a) => a.endpoint(new BadFirst()));
    const res = await client.get('/bad-first');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('NUL');
    expect(app.log.lines.filter((l) => l.level === 'error')).toHaveLength(1);
  });

  it('cuts the stream at a later bad field, logging one line, sending nothing of it', async () => {
    const { client, app } = await start((a) => a.endpoint(new BadFields()));
    const res = await rawRequest(client.url, '/bad');
    expect(Buffer.concat(res.chunks).toString()).toBe('data: {"message":"ok"}\n\n');
    expect(res.terminated).toBe(false);
    const errors = app.log.lines.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.message)).toEqual(['error streaming response for GET /bad']);
    expect(String(errors[0]?.error)).toMatch(/event contains CR, LF or NUL/);
  });

  it('is a WiringError on any method but GET, naming the class and the operation', async () => {
    class Post extends Endpoint('/events') {
      post = this.operation(
        { returns: SSEResponse.of(Notice) },
        () => new SSEResponse({ stream: (async function* () {})() }),
      );
    }
    const client = new TestClient(new TestApp({ wire: (app) => app.endpoint(new Post()) }));
    const failure = await client.start().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WiringError);
    expect(String((failure as Error).message)).toMatch(/^Post\.post: SSEResponse is GET-only/);
    await client.close();
  });
});
