import { afterEach, describe, expect, it } from 'vitest';
import { quietLogger, TestApp } from '../../test/apps';
import { TestClient } from './test-client';

const clients: TestClient[] = [];
function setup(): { app: TestApp; c: TestClient } {
  const app = new TestApp({ logger: quietLogger() });
  const c = new TestClient(app);
  clients.push(c);
  return { app, c };
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe('StreamSession', () => {
  it('resolves once the head is in, with status and headers ready', async () => {
    const { c } = setup();
    await using session = await c.streamGet('/stream');
    expect(session.status).toBe(200);
    expect(session.headers.get('content-type')).toBe('application/x-ndjson');
    expect(session.cookies.streamed?.value).toBe('yes');
    expect(session.multiHeaders.some(([k, v]) => k === 'set-cookie' && v === 'streamed=yes')).toBe(true);
  });

  it('yields Buffer chunks as they arrive', async () => {
    const { c } = setup();
    const session = await c.streamGet('/stream');
    const seen: Buffer[] = [];
    for await (const chunk of session) {
      seen.push(chunk);
      if (Buffer.concat(seen).toString().split('\n').length > 3) break;
    }
    expect(seen[0]).toBeInstanceOf(Buffer);
    expect(Buffer.concat(seen).toString()).toMatch(/^\{"n":0\}\n\{"n":1\}\n/);
    expect(session.closed).toBe(true);
  });

  it('reaches the server as a disconnect when the loop breaks early', async () => {
    const { app, c } = setup();
    const session = await c.streamGet('/stream');
    const items: unknown[] = [];
    for await (const item of session.ndjson<{ n: number }>()) {
      items.push(item);
      if (items.length === 3) break;
    }
    expect(items).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    await app.stream.whenClosed;
    expect(app.stream).toMatchObject({ started: 1, closed: 1, closedBeforeFinish: 1, finished: 0 });
  });

  it('reaches the server as a disconnect on close() before reading anything', async () => {
    const { app, c } = setup();
    const session = await c.streamGet('/stream');
    await session.close();
    await app.stream.whenClosed;
    expect(app.stream.closedBeforeFinish).toBe(1);
    await expect(session.read()).rejects.toThrow(/closed before its body was read/);
  });

  it('reaches the server as a disconnect at the end of an await using scope', async () => {
    const { app, c } = setup();
    {
      await using session = await c.streamGet('/stream');
      expect(session.status).toBe(200);
    }
    await app.stream.whenClosed;
    expect(app.stream.closedBeforeFinish).toBe(1);
  });

  it('is closed by client.close(), which then shuts down without waiting for the stream', async () => {
    const { app, c } = setup();
    const session = await c.streamGet('/stream');
    await c.close();
    expect(session.closed).toBe(true);
    expect(app.stream.closedBeforeFinish).toBe(1);
    expect(app.closes).toBe(1);
  });

  it('decodes Server-Sent Events: JSON data, multi-line data, fields, comments skipped', async () => {
    const { c } = setup();
    const session = await c.streamGet('/sse');
    expect(session.headers.get('content-type')).toBe('text/event-stream');
    const events = [];
    for await (const event of session.events()) events.push(event);
    expect(events).toEqual([
      { data: { n: 1 }, event: 'tick', id: '1' },
      { data: 'line one\nline two' },
      { data: 'quoted', retry: 500 },
      { data: 7 },
    ]);
  });

  it('reads a finished stream to the end as text, and can be iterated only once', async () => {
    const { c } = setup();
    const session = await c.streamGet('/sse');
    expect(await session.text()).toContain('event: tick');
    await expect(session.read()).rejects.toThrow(/iterated once/);
  });

  it('streams other methods with a body, and HEAD-less errors are ordinary heads', async () => {
    const { c } = setup();
    const post = await c.streamPost('/echo', { json: { a: 1 } });
    expect(JSON.parse(await post.text())).toMatchObject({ method: 'POST', body: '{"a":1}' });
    for (const [send, method] of [
      [c.streamPut.bind(c), 'PUT'],
      [c.streamPatch.bind(c), 'PATCH'],
    ] as const) {
      expect(JSON.parse(await (await send('/echo', { content: 'x' })).text())).toMatchObject({
        method,
        body: 'x',
      });
    }
    expect(JSON.parse(await (await c.streamDelete('/echo')).text())).toMatchObject({ method: 'DELETE' });
    expect(
      JSON.parse(await (await c.streamRequest('GET', '/echo', { params: { a: 1 } })).text()),
    ).toMatchObject({ url: '/echo?a=1' });
    const missing = await c.streamGet('/nope');
    expect(missing.status).toBe(404);
    expect(JSON.parse(await missing.text())).toMatchObject({ status: 404 });
  });
});
