import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineMiddleware, Endpoint, Link, Location, SetCookie, Struct, WiringError } from '@api/core';
import { TestClient } from '@api/testing';
import { headerOf, rawRequest, start, TestApp } from '../../test/wire';
import { NDJSONStreamingResponse } from '../index';

const Question = Struct('Question', { text: v.string() });
const Chunk = Struct('Chunk', { text: v.string() });
const Started = Struct('Started', { id: v.string() }, { tag: true });
const Progress = Struct('Progress', { id: v.string(), percent: v.number() }, { tag: true });
const Trace = v.object({ xTraceId: v.string() });

async function* words(text: string): AsyncGenerator<{ text: string }> {
  for (const word of text.split(' ')) yield { text: word, ...{ leaked: 'never on the wire' } };
}

class Answers extends Endpoint('/answers') {
  post = this.operation({ json: Question, returns: NDJSONStreamingResponse.of(Chunk) }, ({ json }) => {
    return new NDJSONStreamingResponse({ stream: words(json.text) });
  });
}

class Jobs extends Endpoint('/jobs') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(v.union([Started, Progress])) }, () => {
    async function* events() {
      yield { type: 'Started' as const, id: 'j1' };
      yield { percent: 50, id: 'j1', type: 'Progress' as const };
      yield { type: 'Progress' as const, id: 'j1', percent: 100 };
    }
    return new NDJSONStreamingResponse({ stream: events() });
  });
}

const pulls: string[] = [];
class Dressed extends Endpoint('/dressed') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Chunk, { headers: Trace }) }, () => {
    async function* lifecycle() {
      pulls.push('setup');
      yield words('x');
    }
    return new NDJSONStreamingResponse({
      stream: lifecycle(),
      statusCode: 201,
      headers: { xTraceId: 't-1' },
      cookies: [new SetCookie('seen', 'yes')],
      rawHeaders: [['x-raw', 'r']],
      location: Location.fromPath('/jobs'),
      links: [Link.fromPath('/answers', { rel: 'related' })],
    });
  });
}

class Broken extends Endpoint('/broken') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Chunk) }, () => {
    async function* items() {
      yield { text: 'fine' };
      yield { text: 42 } as unknown as { text: string };
    }
    return new NDJSONStreamingResponse({ stream: items() });
  });
  post = this.operation({ returns: NDJSONStreamingResponse.of(Chunk) }, () => {
    async function* items() {
      yield { text: 42 } as unknown as { text: string };
    }
    return new NDJSONStreamingResponse({ stream: items() });
  });
}

class TeardownFails extends Endpoint('/teardown-fails') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Chunk) }, () => {
    async function* lifecycle() {
      yield words('all of it');
      throw new Error('could not close the cursor');
    }
    return new NDJSONStreamingResponse({ stream: lifecycle() });
  });
}

describe('NDJSONStreamingResponse on the wire', () => {
  it('writes one compact, declared-fields-only JSON value per line', async () => {
    const { client } = await start((app) => app.endpoint(new Answers()));
    const res = await client.post('/answers', { json: { text: 'to be or not' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.has('content-length')).toBe(false);
    expect(res.text).toBe('{"text":"to"}\n{"text":"be"}\n{"text":"or"}\n{"text":"not"}\n');
  });

  it('is read item by item by the test client', async () => {
    const { client } = await start((app) => app.endpoint(new Answers()));
    await using session = await client.streamPost('/answers', { json: { text: 'a b c' } });
    const seen: unknown[] = [];
    for await (const item of session.ndjson()) seen.push(item);
    expect(seen).toEqual([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
  });

  it('writes a union of tagged Structs with "type" first, each by its own member', async () => {
    const { client } = await start((app) => app.endpoint(new Jobs()));
    const res = await client.get('/jobs');
    expect(res.text).toBe(
      '{"type":"Started","id":"j1"}\n{"type":"Progress","id":"j1","percent":50}\n{"type":"Progress","id":"j1","percent":100}\n',
    );
  });

  it('carries status, typed headers, cookies, raw headers, Location, Link and the route tail, in order', async () => {
    const statuses: number[] = [];
    const mw = defineMiddleware({
      responseHeaders: { 'x-mw': 'm' },
      observe: (_request, status) => statuses.push(status),
    });
    const { client } = await start((app) => app.endpoint(new Dressed(), { middleware: [mw] }));
    const res = await client.get('/dressed');
    expect(res.status).toBe(201);
    expect(res.text).toBe('{"text":"x"}\n');
    const names = res.multiHeaders.map(([name]) => name.toLowerCase());
    const order = ['content-type', 'x-trace-id', 'set-cookie', 'x-raw', 'location', 'link', 'x-mw'];
    expect(names.filter((n) => order.includes(n))).toEqual(order);
    expect(res.headers.get('x-trace-id')).toBe('t-1');
    expect(res.cookies.seen?.value).toBe('yes');
    expect(res.headers.get('location')).toBe('/jobs');
    expect(res.headers.get('link')).toBe('</answers>; rel="related"');
    expect(statuses).toEqual([201]);
  });

  it('answers HEAD with the same head, without running setup or pulling an item', async () => {
    pulls.length = 0;
    const { client } = await start((app) => app.endpoint(new Dressed()));
    const res = await client.head('/dressed');
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('x-trace-id')).toBe('t-1');
    expect(res.body.length).toBe(0);
    expect(pulls).toEqual([]);
  });

  it('turns a first item that does not match its schema into a logged 500', async () => {
    const { client, app } = await start((a) => a.endpoint(new Broken()));
    const res = await client.post('/broken');
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({
      type: 'internal-server-error',
      title: 'Internal server error',
      status: 500,
    });
    expect(app.log.lines.some((l) => l.level === 'error')).toBe(true);
  });

  it('cuts the stream at a later bad item, without the terminating chunk, logging one line', async () => {
    const { client, app } = await start((a) => a.endpoint(new Broken()));
    const res = await rawRequest(client.url, '/broken');
    expect(res.status).toBe(200);
    expect(Buffer.concat(res.chunks).toString()).toBe('{"text":"fine"}\n');
    expect(res.terminated).toBe(false);
    const errors = app.log.lines.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.message)).toEqual(['error streaming response for GET /broken']);
    expect(String(errors[0]?.error)).toMatch(
      /NDJSON item does not match its schema: Expected string, got number at `\$\.text`/,
    );
    expect(headerOf(res.head, 'content-type')).toBe('application/x-ndjson');
  });

  it('logs a teardown failure and still ends the body properly', async () => {
    const { client, app } = await start((a) => a.endpoint(new TeardownFails()));
    const res = await rawRequest(client.url, '/teardown-fails');
    expect(Buffer.concat(res.chunks).toString()).toBe('{"text":"all"}\n{"text":"of"}\n{"text":"it"}\n');
    expect(res.terminated).toBe(true);
    const errors = app.log.lines.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.message)).toEqual(['error tearing down stream for GET /teardown-fails']);
    expect((errors[0]?.error as Error).message).toBe('could not close the cursor');
  });
});

describe('NDJSONStreamingResponse.of: the item is a Struct or a union of tagged Structs', () => {
  async function failure(returns: Parameters<typeof NDJSONStreamingResponse.of>[0]): Promise<unknown> {
    class Lines extends Endpoint('/lines') {
      get = this.operation(
        { returns: NDJSONStreamingResponse.of(returns) },
        () => new NDJSONStreamingResponse({ stream: (async function* () {})() }),
      );
    }
    const client = new TestClient(new TestApp({ wire: (app) => app.endpoint(new Lines()) }));
    const error = await client.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    await client.close();
    return error;
  }

  it.each([
    ['v.number()', v.number()],
    ['v.string()', v.string()],
    ['v.object()', v.object({ text: v.string() })],
    ['v.union([Chunk (untagged), Question (untagged)])', v.union([Chunk, Question])],
    ['v.array()', v.array(Chunk)],
  ])('refuses %s at wiring, naming the operation and the fix', async (shown, schema) => {
    const error = await failure(schema);
    expect(error).toBeInstanceOf(WiringError);
    expect(error).toMatchObject({ code: 'API_WIRING_STREAMING_ITEM', where: 'Lines.get' });
    expect((error as Error).message).toBe(
      `Lines.get: NDJSONStreamingResponse.of(${shown}): an NDJSON item is a Struct or a union of tagged Structs, one JSON object per line. Fix: declare the item as Struct('Item', { … }), or v.union([A, B]) of Structs declared with { tag: true }.`,
    );
  });

  it.each([
    ['a Struct', Chunk],
    ['a union of tagged Structs', v.union([Started, Progress])],
    ['a variant of Structs', v.variant('type', [Started, Progress])],
  ])('accepts %s', async (_label, schema) => {
    expect(await failure(schema)).toBeUndefined();
  });
});
