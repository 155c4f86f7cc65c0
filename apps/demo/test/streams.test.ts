// The streaming routes over the wire: POST /questions (NDJSON) and GET /notifications (SSE,
// decoded with eventsource-parser), then the contract check over the recorded responses.
import { request } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import type { RecordedExchange } from './helpers/conformance';
import { checkContract } from './helpers/contract';
import { startDemo } from './helpers/demo';

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

/** Reads SSE with eventsource-parser until `count` events arrived (or `done` says so), then disconnects. */
async function readEvents(
  session: AsyncIterable<Buffer>,
  done: (state: { events: EventSourceMessage[]; retry: number | undefined }) => boolean,
): Promise<{ events: EventSourceMessage[]; retry: number | undefined; raw: string }> {
  const state = { events: [] as EventSourceMessage[], retry: undefined as number | undefined };
  let raw = '';
  const parser = createParser({
    onEvent: (e) => state.events.push(e),
    onRetry: (ms) => (state.retry = ms),
  });
  for await (const chunk of session) {
    raw += chunk.toString();
    parser.feed(chunk.toString());
    if (done(state)) break;
  }
  return { ...state, raw };
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

  it('answers a client that has seen everything at once (a field-only retry event, no dispatch)', async () => {
    const c = await client();
    await using session = await c.streamGet('/notifications', { headers: { 'last-event-id': '3' } });
    expect(session.status).toBe(200);
    const { events, retry, raw } = await readEvents(session, (s) => s.retry !== undefined);
    expect(raw).toBe('retry: 3000\n\n');
    expect(retry).toBe(3000);
    expect(events).toEqual([]);
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
