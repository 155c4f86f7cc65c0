// To add as apps/demo/test/streams.test.ts: the streaming routes over the wire.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { DemoApp } from '../src/app';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
async function client(): Promise<TestClient> {
  process.env.DEMO_DB = ':memory:';
  const c = await TestClient.start(
    new DemoApp({ logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }),
  );
  clients.push(c);
  return c;
}

const EXPECTED = [
  { event: 'widget.created', id: '1', data: '{"message":"Widget \\"sprocket\\" was created"}' },
  { event: 'widget.updated', id: '2', data: '{"message":"Widget \\"sprocket\\" was repriced"}' },
  { event: 'widget.deleted', id: '3', data: '{"message":"Widget \\"sprocket\\" was deleted"}' },
];

/** Reads SSE from a session with eventsource-parser until `count` events arrived, then disconnects. */
async function readEvents(session: AsyncIterable<Buffer>, count: number): Promise<{ events: EventSourceMessage[]; raw: string }> {
  const events: EventSourceMessage[] = [];
  let raw = '';
  const parser = createParser({ onEvent: (e) => events.push(e) });
  for await (const chunk of session) {
    raw += chunk.toString();
    parser.feed(chunk.toString());
    if (events.length >= count) break;
  }
  return { events, raw };
}

describe('POST /questions', () => {
  it('streams the answer as NDJSON {text} chunks, line by line', async () => {
    const c = await client();
    await using session = await c.streamPost('/questions', { json: { text: 'What is a widget?' } });
    expect(session.status).toBe(200);
    expect(session.headers.get('content-type')).toBe('application/x-ndjson');
    const chunks: { text: string }[] = [];
    for await (const item of session.ndjson<{ text: string }>()) chunks.push(item);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.map((c) => c.text).join('')).toBe(
      'A widget is anything you can create, list, rename, reprice and delete at /widgets.',
    );
  });

  it('validates the question like any JSON body', async () => {
    const c = await client();
    const res = await c.post('/questions', { json: { text: '' } });
    expect(res.status).toBe(422);
  });
});

describe('GET /notifications', () => {
  it('sends the three widget events with ids 1–3, then stays open', async () => {
    const c = await client();
    await using session = await c.streamGet('/notifications');
    expect(session.headers.get('content-type')).toBe('text/event-stream');
    expect(session.headers.get('cache-control')).toBe('no-cache');
    const { events } = await readEvents(session, 3);
    expect(events).toEqual(EXPECTED);
  });

  it('resumes after Last-Event-ID', async () => {
    const c = await client();
    await using session = await c.streamGet('/notifications', { headers: { 'last-event-id': '1' } });
    const { events } = await readEvents(session, 2);
    expect(events).toEqual(EXPECTED.slice(1));
  });

  it('answers HEAD without streaming', async () => {
    const c = await client();
    const res = await c.head('/notifications');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
  });
});
