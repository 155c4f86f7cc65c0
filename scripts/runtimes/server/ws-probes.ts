// WebSocket probes the runtime suite adds to the demo served by `serve()`: an echo socket whose
// handler reports when it saw the connection close (liveness on a client that leaves), and a
// `Channel` feed with drop-oldest whose publisher is an HTTP route (backpressure on a stalled
// subscriber). What the server saw is served at GET /_runtime/ws-state.
import * as v from 'valibot';
import { Endpoint, Struct } from '@api/core';
import { Channel, WebSocketEndpoint, websocket } from '@api/ws';

/** What the WebSocket probes saw. */
export const wsState = {
  opened: 0,
  closed: 0,
  /** `Date.now()` when the last echo handler saw its socket close. */
  closedAt: 0,
  /** The close code of that socket. */
  closeCode: 0,
  /** Feed frames dropped by drop-oldest, summed over subscribers. */
  dropped: 0,
  /** Frames the flood handler's awaited sends got through (it awaits each `send`). */
  sent: 0,
};

const WsState = Struct('RuntimeWsState', {
  opened: v.number(),
  closed: v.number(),
  closedAt: v.number(),
  closeCode: v.number(),
  dropped: v.number(),
  sent: v.number(),
  subscribers: v.number(),
});

/** A bounded feed: 16 frames or 256 KiB per subscriber, the oldest dropped past either. */
export const feed = new Channel('string', {
  queueSize: 16,
  overflow: 'drop-oldest',
  maxBufferedBytes: 256 * 1024,
  onOverflow: () => undefined,
});

export class EchoProbe extends WebSocketEndpoint('/_runtime/ws/echo', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler({}, async ({ websocket: socket }) => {
    wsState.opened++;
    try {
      for await (const text of socket) await socket.send(text);
    } finally {
      wsState.closed++;
      wsState.closedAt = Date.now();
      await socket.close().catch(() => undefined); // (already closing: resolves when closed)
      wsState.closeCode = socket.closeCode ?? 0;
    }
  });
}

export class FeedProbe extends WebSocketEndpoint('/_runtime/ws/feed', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler({}, async ({ websocket: socket }) => {
    const subscriber = feed.attach(socket);
    feed.join(subscriber, 'feed');
    try {
      for await (const text of socket) void text;
    } finally {
      wsState.dropped += subscriber.stats.dropped;
    }
  });
}

/** Sends 16 KiB frames as fast as its awaited sends allow: a client that reads nothing must stop it. */
export class FloodSocketProbe extends WebSocketEndpoint('/_runtime/ws/flood', {
  inbound: 'string',
  outbound: 'bytes',
}) {
  handle = this.handler({}, async ({ websocket: socket }) => {
    const frame = new Uint8Array(16 * 1024).fill(120);
    while (!socket.closed) {
      await socket.send(frame).catch(() => undefined);
      wsState.sent++;
    }
  });
}

const Publish = Struct('RuntimePublish', { from: v.number(), count: v.number(), size: v.number() });

export class WsStateProbe extends Endpoint('/_runtime/ws-state') {
  get = this.operation({ returns: WsState }, () => ({ ...wsState, subscribers: feed.subscribers('feed') }));
  delete = this.operation({ returns: WsState }, () => {
    Object.assign(wsState, { opened: 0, closed: 0, closedAt: 0, closeCode: 0, dropped: 0, sent: 0 });
    return { ...wsState, subscribers: feed.subscribers('feed') };
  });
  /** Publishes `count` frames `<seq>:<padding>` of `size` bytes, seq from `from`, in one tick. */
  post = this.operation({ json: Publish, returns: WsState }, ({ json }) => {
    const pad = 'x'.repeat(Math.max(json.size - 12, 0));
    for (let seq = json.from; seq < json.from + json.count; seq++) feed.publish('feed', `${seq}:${pad}`);
    return { ...wsState, subscribers: feed.subscribers('feed') };
  });
}

/** The extensions to include: each WebSocket mount (liveness pings every 30 s, the default). */
export const wsProbes = [
  websocket(new EchoProbe()),
  websocket(new FeedProbe()),
  websocket(new FloodSocketProbe()),
];
