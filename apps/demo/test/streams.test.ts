// The streaming routes over the wire: POST /questions (NDJSON) and GET /notifications (SSE,
// decoded with eventsource-parser), then the contract check over the recorded responses.
import { request } from 'node:http';
import { connect } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp } from '@api/core';
import { TestClient } from '@api/testing';
import { NotificationsEndpoint } from '../src/operations/streams';
import type { RecordedExchange } from './helpers/conformance';
import { checkContract } from './helpers/contract';
import { quiet, startDemo, until } from './helpers/demo';

const exchanges: RecordedExchange[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
async function client(): Promise<TestClient> {
  const { client: c } = await startDemo({ exchanges });
  clients.push(c);
  return c;
}

const EXPECTED = [
  { event: 'widget.created', id: '1', data: '{"message":"Widget \\"sprocket\\" was created"}' },
  { event: 'widget.updated', id: '2', data: '{"message":"Widget \\"sprocket\\" was repriced"}' },
  { event: 'widget.deleted', id: '3', data: '{"message":"Widget \\"sprocket\\" was deleted"}' },
];

/** Reads SSE with eventsource-parser until `done` says so, then disconnects. */
async function readEvents(
  session: AsyncIterable<Buffer>,
  done: (state: { events: EventSourceMessage[] }) => boolean,
): Promise<{ events: EventSourceMessage[]; raw: string }> {
  const state = { events: [] as EventSourceMessage[] };
  let raw = '';
  const parser = createParser({ onEvent: (e) => state.events.push(e) });
  for await (const chunk of session) {
    raw += chunk.toString();
    parser.feed(chunk.toString());
    if (done(state)) break;
  }
  return { ...state, raw };
}

/** A GET on a plain socket, read as it arrives (framing included): for a stream that never ends. */
function rawGet(
  url: string,
  path: string,
  headers: Record<string, string>,
): { text: () => string; close: () => void } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (text: string) => (received += text));
  socket.on('error', () => undefined);
  const lines = Object.entries({ host: `${hostname}:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  return { text: () => received, close: () => socket.destroy() };
}

/** A header's value in a raw head (name matched case-insensitively). */
function headerOf(head: string, name: string): string | undefined {
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).toLowerCase() === name) return line.slice(colon + 1).trim();
  }
  return undefined;
}

describe('POST /questions', () => {
  it('streams the answer as NDJSON {text} chunks, line by line', async () => {
    const c = await client();
    await using session = await c.streamPost('/questions', { json: { text: 'What is a widget?' } });
    expect(session.status).toBe(200);
    expect(session.headers.get('content-type')).toBe('application/x-ndjson');
    expect(session.headers.get('transfer-encoding')).toBe('chunked');
    const chunks: { text: string }[] = [];
    for await (const item of session.ndjson<{ text: string }>()) chunks.push(item);
    const answer = 'A widget is anything you can create, list, rename, reprice and delete at /widgets.';
    expect(chunks).toEqual(answer.split(' ').map((word, i) => ({ text: i === 0 ? word : ` ${word}` })));
  });

  it('answers an unknown question with the fallback, one compact JSON value per line', async () => {
    const c = await client();
    const res = await c.post('/questions', { json: { text: 'Why is the sky blue?' } });
    expect(res.status).toBe(200);
    const fallback = 'I do not know yet, but I can tell you about widgets, streams and prices.';
    expect(res.text).toBe(
      fallback
        .split(' ')
        .map((word, i) => `${JSON.stringify({ text: i === 0 ? word : ` ${word}` })}\n`)
        .join(''),
    );
  });

  it('answers a question about streams, chunk by chunk', async () => {
    const c = await client();
    await using session = await c.streamPost('/questions', { json: { text: 'Tell me about streams' } });
    const chunks: { text: string }[] = [];
    for await (const item of session.ndjson<{ text: string }>()) chunks.push(item);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.map((c) => c.text).join('')).toBe(
      'This answer is streamed as NDJSON: one JSON object per line, written as it is produced.',
    );
  });

  it('validates the question like any JSON body (422 before any streaming)', async () => {
    const c = await client();
    const res = await c.post('/questions', { json: { text: '' } });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json()).toEqual({
      type: 'validation-failed',
      title: 'Validation failed',
      status: 422,
      detail: 'Invalid min length: expected >=1 at `$.text`',
      params: {
        reason: 'Invalid min length: expected >=1 at `$.text`',
        issues: [{ path: '$.text', message: 'Invalid min length: expected >=1' }],
      },
    });
  });
});

describe('GET /notifications', () => {
  it('sends the three widget events with ids 1–3, then stays open', async () => {
    const c = await client();
    await using session = await c.streamGet('/notifications');
    expect(session.status).toBe(200);
    expect(session.headers.get('content-type')).toBe('text/event-stream');
    expect(session.headers.get('cache-control')).toBe('no-cache');
    expect(session.headers.get('access-control-allow-origin')).toBe('*');
    expect(session.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const { events, raw } = await readEvents(session, (s) => s.events.length >= 3);
    expect(events).toEqual(EXPECTED);
    expect(raw).toBe(
      'event: widget.created\nid: 1\ndata: {"message":"Widget \\"sprocket\\" was created"}\n\n' +
        'event: widget.updated\nid: 2\ndata: {"message":"Widget \\"sprocket\\" was repriced"}\n\n' +
        'event: widget.deleted\nid: 3\ndata: {"message":"Widget \\"sprocket\\" was deleted"}\n\n',
    );
  });

  it('resumes after Last-Event-ID', async () => {
    const c = await client();
    await using session = await c.streamGet('/notifications', { headers: { 'last-event-id': '1' } });
    const { events } = await readEvents(session, (s) => s.events.length >= 2);
    expect(events).toEqual(EXPECTED.slice(1));
  });

  it('resumes after Last-Event-ID 2 with event 3 alone', async () => {
    const c = await client();
    await using session = await c.streamGet('/notifications', { headers: { 'last-event-id': '2' } });
    const { events } = await readEvents(session, (s) => s.events.length >= 1);
    expect(events.map((e) => e.id)).toEqual(['3']);
  });

  it('connects a client that has seen everything at once: the SSE head, and no event', async () => {
    const c = await client();
    const wire = rawGet(c.url, '/notifications', { 'last-event-id': '3' });
    try {
      await until(() => wire.text().includes('\r\n\r\n'), 2_000);
      const head = wire.text();
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(headerOf(head, 'content-type')).toBe('text/event-stream');
      expect(headerOf(head, 'cache-control')).toBe('no-cache');
      expect(headerOf(head, 'transfer-encoding')).toBe('chunked');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(wire.text()).toBe(head); // no event (the next thing it gets is a keepalive, 15 s on)
    } finally {
      wire.close();
    }
  });

  it('then keeps the connection alive with comments only (the same endpoint, keepalive 50 ms)', async () => {
    class Feed extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new NotificationsEndpoint(0.05));
      }
    }
    const c = await TestClient.start(new Feed({ logger: quiet }));
    clients.push(c);
    const wire = rawGet(c.url, '/notifications', { 'last-event-id': '3' });
    try {
      await until(() => wire.text().includes('\r\n\r\n'), 2_000);
      const head = wire.text().slice(0, wire.text().indexOf('\r\n\r\n') + 4);
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(headerOf(head, 'content-type')).toBe('text/event-stream');
      expect(headerOf(head, 'cache-control')).toBe('no-cache');
      const PING = '8\r\n: ping\n\n\r\n'; // one chunk of the chunked encoding
      await until(() => wire.text().split(PING).length > 3, 2_000);
      expect(wire.text()).toBe(head + PING.repeat(wire.text().split(PING).length - 1));
    } finally {
      wire.close();
    }
  });

  it('refuses a Last-Event-ID longer than 20 characters with 400', async () => {
    const c = await client();
    const res = await c.get('/notifications', { headers: { 'last-event-id': '1'.repeat(21) } });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      type: 'malformed-request',
      title: 'Malformed request',
      status: 400,
      detail: 'Invalid max length: expected <=20 at `header last-event-id`',
      params: {
        reason: 'Invalid max length: expected <=20 at `header last-event-id`',
        issues: [{ path: 'header last-event-id', message: 'Invalid max length: expected <=20' }],
      },
    });
  });

  it('answers HEAD without streaming', async () => {
    const c = await client();
    const res = await c.head('/notifications');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.text).toBe('');
  });

  it('ends an open stream properly at shutdown (terminating chunk, no cut)', async () => {
    const c = await client();
    // A plain node:http client (TestClient.close() would close its own sessions first).
    const outcome = new Promise<{ how: string; body: string }>((resolve) => {
      const req = request(`${c.url}/notifications`, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.includes('id: 3')) void c.close(); // everything sent: shut the app down
        });
        res.on('end', () => resolve({ how: 'ended', body }));
        res.on('aborted', () => resolve({ how: 'cut', body }));
        res.on('error', (error) => resolve({ how: `error ${error.message}`, body }));
      });
      req.on('error', (error) => resolve({ how: `request error ${error.message}`, body: '' }));
      req.end();
    });
    const { how, body } = await outcome;
    expect(how).toBe('ended');
    expect(
      body.endsWith(
        'event: widget.deleted\nid: 3\ndata: {"message":"Widget \\"sprocket\\" was deleted"}\n\n',
      ),
    ).toBe(true);
  });
});

describe('OpenAPI contract', () => {
  it('every streamed and error response of this file matches /openapi.json', async () => {
    const report = await checkContract(exchanges);
    expect(report.violations).toEqual([]);
    for (const pair of [
      'QuestionsEndpoint_post 200',
      'QuestionsEndpoint_post 422',
      'NotificationsEndpoint_get 200',
      'NotificationsEndpoint_get 400',
    ])
      expect(report.covered, pair).toContain(pair);
  }, 60_000);
});
