// The demo routes in examples/demo/, mounted alone: they stay correct until the lead pastes them.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { NotificationsEndpoint, QuestionsEndpoint } from '../examples/demo/src/operations/streams';
import { start } from './wire';

const demo = () =>
  start((app) => {
    app.endpoint(new QuestionsEndpoint(0));
    app.endpoint(new NotificationsEndpoint());
  });

async function events(session: AsyncIterable<Buffer>, count: number): Promise<EventSourceMessage[]> {
  const out: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => out.push(e) });
  for await (const chunk of session) {
    parser.feed(chunk.toString());
    if (out.length >= count) break;
  }
  return out;
}

describe('demo: POST /questions', () => {
  it('streams the answer as NDJSON {text} chunks', async () => {
    const { client } = await demo();
    await using session = await client.streamPost('/questions', { json: { text: 'Tell me about streams' } });
    const chunks: { text: string }[] = [];
    for await (const item of session.ndjson<{ text: string }>()) chunks.push(item);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.map((c) => c.text).join('')).toBe(
      'This answer is streamed as NDJSON: one JSON object per line, written as it is produced.',
    );
  });
});

describe('demo: GET /notifications', () => {
  it('sends widget.created|updated|deleted with ids 1–3, keepalive on, then stays open', async () => {
    const { client } = await demo();
    await using session = await client.streamGet('/notifications');
    expect(session.headers.get('cache-control')).toBe('no-cache');
    expect(await events(session, 3)).toEqual([
      { event: 'widget.created', id: '1', data: '{"message":"Widget \\"sprocket\\" was created"}' },
      { event: 'widget.updated', id: '2', data: '{"message":"Widget \\"sprocket\\" was repriced"}' },
      { event: 'widget.deleted', id: '3', data: '{"message":"Widget \\"sprocket\\" was deleted"}' },
    ]);
  });

  it('resumes after Last-Event-ID', async () => {
    const { client } = await demo();
    await using session = await client.streamGet('/notifications', { headers: { 'Last-Event-ID': '2' } });
    expect((await events(session, 1)).map((e) => e.id)).toEqual(['3']);
  });
});
