import { createParser, type EventSourceMessage } from 'eventsource-parser';
import * as v from 'valibot';
import { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { Endpoint, Struct, WiringError } from '@api/core';
import { TestClient } from '@api/testing';
import { rawRequest, start, TestApp, waitFor } from '../../test/wire';
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

const NASTY = ['a\n', 'line one\r\nline two\rline three\nline four', '', '\n\n', ' spaced', 'data: fake\n\nid: 9'];

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
  get = this.operation({ headers: LastEvent, returns: SSEResponse.of(Notice, { headers: Trace }) }, ({ headers }) => {
    const after = Number(headers.last_event_id ?? '0');
    async function* events() {
      for (let id = after + 1; id <= 3; id++) yield new ServerSentEvent({ id: String(id), data: { message: `#${id}` } });
    }
    return new SSEResponse({ stream: events(), headers: { xTraceId: `after-${after}` } });
  });
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

  it('never sets connection itself (node:http alone answers the client\'s connection: close)', async () => {
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
      post = this.operation({ returns: SSEResponse.of(Notice) }, () => new SSEResponse({ stream: (async function* () {})() }));
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
