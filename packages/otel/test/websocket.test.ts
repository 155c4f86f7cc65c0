// A WebSocket session is one SERVER span from the upgrade to the close, with the close code; the
// session's handler runs in its context. A denied handshake is an ordinary request span.
import { once } from 'node:events';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import * as v from 'valibot';
import { WebSocket as Client } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BaseApp, Struct } from '@api/core';
import { TestClient } from '@api/testing';
import { websocket, WebSocketEndpoint } from '@api/ws';
import { otel } from '../src/index';
import { exporter, spanNamed } from './helpers/tracing';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const tracer = trace.getTracer('handlers');

class Room extends WebSocketEndpoint('/rooms/{room}', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler(
    { path: Struct('RoomPath', { room: v.pipe(v.string(), v.maxLength(8)) }) },
    async ({ websocket, path }) => {
      for await (const message of websocket) {
        if (message === 'bye') {
          await websocket.close(4001, 'done');
          return;
        }
        tracer.startSpan(`message in ${path.room}`).end();
        await websocket.send(message);
      }
    },
  );
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(otel());
    this.include(websocket(new Room(), { pingInterval: 0 }));
  }
}

let client: TestClient;
beforeAll(async () => {
  client = await TestClient.start(new App({ logger: quiet }));
});
afterAll(() => client.close());
afterEach(() => exporter.reset());

describe('a WebSocket session', () => {
  it('is one span from the upgrade to the close, with the close code; its handler runs inside it', async () => {
    const socket = new Client(`${client.url.replace(/^http/, 'ws')}/rooms/blue`);
    await once(socket, 'open');
    socket.send('hello');
    const [echo] = (await once(socket, 'message')) as [Buffer];
    expect(echo.toString()).toBe('hello');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Not ended while the socket is open.
    expect(exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER)).toEqual([]);
    socket.send('bye');
    const [code] = (await once(socket, 'close')) as [number];
    expect(code).toBe(4001);
    const span = await spanNamed('GET /rooms/{room}');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/rooms/{room}',
      'url.path': '/rooms/blue',
      'http.response.status_code': 101,
      'websocket.close.code': 4001,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // The span lasts as long as the socket: at least the 100 ms it stayed open (2x margin).
    expect(span.duration[0] * 1000 + span.duration[1] / 1e6).toBeGreaterThanOrEqual(50);
    const message = await spanNamed('message in blue');
    expect(message.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
  });

  it('a denied handshake is an ordinary request span', async () => {
    expect((await client.get('/rooms/far-too-long-a-name')).status).toBe(404);
    expect((await client.get('/rooms/blue')).status).toBe(426);
    await spanNamed('GET /rooms/{room}');
    for (let i = 0; i < 200 && exporter.getFinishedSpans().length < 2; i++)
      await new Promise((r) => setTimeout(r, 5));
    expect(
      exporter.getFinishedSpans().map((s) => [s.name, s.attributes['http.response.status_code']]),
    ).toEqual([
      ['GET /rooms/{room}', 404],
      ['GET /rooms/{room}', 426],
    ]);
  });
});
