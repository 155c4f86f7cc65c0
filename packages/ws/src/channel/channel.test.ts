import type { Socket } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { Struct, WiringError } from '@api/core';
import { bareServer, type BareServer } from '../../test/helpers/bare-server';
import { channelServer as serve, Ready, subscribe } from '../../test/helpers/channel-server';
import { Peer } from '../../test/helpers/peer';
import type { WebSocket } from '../socket/websocket';
import { Channel, type ChannelOptions, type Subscriber } from './channel';

let checks = 0;
const Note = Struct(
  'Note',
  {
    n: v.number(),
    text: v.pipe(
      v.string(),
      v.check(() => ++checks > 0),
    ),
  },
  { tag: true },
);

let server: BareServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function channelServer(channel: Channel<typeof Note>) {
  const s = await serve(channel, [Note]);
  server = s;
  return s;
}

const tick = (ms = 20): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const note = (n: number, text = 'x'): v.InferInput<typeof Note> => ({ type: 'Note', n, text });

describe('Channel: publish', () => {
  it('delivers to every subscriber of the topic, in order, and to no one else', async () => {
    const channel = new Channel(Note);
    const s = await channelServer(channel);
    const a = await subscribe(s.url, 'lobby');
    const b = await subscribe(s.url, 'lobby,news');
    const c = await subscribe(s.url, 'news');
    expect(channel.subscribers('lobby')).toBe(2);
    for (let i = 0; i < 100; i++) expect(channel.publish('lobby', note(i))).toBe(2);
    channel.publish('news', note(1000));
    for (let i = 0; i < 100; i++) {
      expect(await a.json()).toEqual(note(i));
      expect(await b.json()).toEqual(note(i));
    }
    expect(await b.json()).toEqual(note(1000));
    expect(await c.json()).toEqual(note(1000));
    await tick();
    expect(a.received).toHaveLength(101);
    expect(c.received).toHaveLength(2);
  });

  it('validates once per publish, whatever the number of subscribers, and nothing for an empty topic', async () => {
    const channel = new Channel(Note);
    const s = await channelServer(channel);
    await subscribe(s.url, 't');
    await subscribe(s.url, 't');
    await subscribe(s.url, 't');
    checks = 0;
    expect(channel.publish('nobody', note(1))).toBe(0);
    expect(checks).toBe(0);
    expect(channel.publish('t', note(1))).toBe(3);
    expect(checks).toBe(1);
  });

  it('refuses an invalid message with a TypeError before sending anything', async () => {
    const channel = new Channel(Note);
    const s = await channelServer(channel);
    const peer = await subscribe(s.url, 't');
    expect(() => channel.publish('t', { type: 'Note', n: 'one' } as never)).toThrow(TypeError);
    channel.publish('t', note(2));
    expect(await peer.json()).toEqual(note(2));
    expect(peer.received).toHaveLength(2);
  });

  it('emits only declared fields, encoded once for all', async () => {
    const channel = new Channel(Note);
    const s = await channelServer(channel);
    const peer = await subscribe(s.url, 't');
    channel.publish('t', { ...note(1), extra: 'leak' } as never);
    expect(await peer.text()).toBe('{"type":"Note","n":1,"text":"x"}');
  });

  it('leave stops delivery; join is idempotent', async () => {
    const channel = new Channel(Note);
    const s = await channelServer(channel);
    const peer = await subscribe(s.url, 't');
    const [sub] = s.subs;
    channel.join(sub!, 't');
    expect(channel.subscribers('t')).toBe(1);
    channel.leave(sub!, 't');
    expect(channel.publish('t', note(1))).toBe(0);
    expect(channel.topics).toBe(0);
    channel.join(sub!, 'u');
    channel.publish('u', note(2));
    expect(await peer.json()).toEqual(note(2));
  });

  it("refuses a socket whose outbound framing cannot carry the channel's messages", async () => {
    const channel = new Channel(Note);
    const failures: unknown[] = [];
    server = await bareServer<unknown, unknown>({
      inbound: 'string',
      outbound: Ready,
      handler: (ws) => {
        try {
          channel.attach(ws);
        } catch (error) {
          failures.push(error);
        }
      },
    });
    const peer = await Peer.open(server.url);
    await peer.closed;
    expect(failures[0]).toBeInstanceOf(TypeError);
    expect((failures[0] as Error).message).toMatch(
      /outbound framing \(Ready\) cannot carry this channel's messages \(Note\)/,
    );
  });
});

describe('Channel: a disconnected client leaves nothing behind', () => {
  it('leaves every topic, drops its queue and removes its listeners', async () => {
    const channel = new Channel(Note);
    const s = await channelServer(channel);
    const peer = await subscribe(s.url, 'a,b,c');
    const [sub] = s.subs;
    const socket = sub!.ws.socket;
    const raw = sub!.ws.raw;
    expect(channel.size).toBe(1);
    expect(channel.topics).toBe(3);
    // Make it queue (so a drain listener exists), then disconnect.
    (peer.raw as unknown as { _socket: Socket })._socket.pause();
    for (let i = 0; i < 2000 && sub!.stats.queued === 0; i++) {
      channel.publish('a', note(i, 'y'.repeat(8 * 1024)));
      if (i % 50 === 0) await tick(1);
    }
    expect(sub!.stats.queued).toBeGreaterThan(0);
    expect(socket.listenerCount('drain')).toBe(1);
    peer.raw.terminate();
    await tick(100);
    expect(channel.size).toBe(0);
    expect(channel.topics).toBe(0);
    expect(sub!.stats).toMatchObject({ queued: 0, queuedBytes: 0 });
    expect(socket.listenerCount('drain')).toBe(0);
    expect(raw.listenerCount('message')).toBe(0);
    expect(raw.listenerCount('pong')).toBe(0);
    expect(sub!.ws.closeListeners.size).toBe(0);
    expect(channel.publish('a', note(1))).toBe(0);
  });
});

/** Publishes numbered 1 KiB-ish notes in batches (yielding between them) until `until()` or `max`. */
async function pump(
  channel: Channel<typeof Note>,
  size: number,
  until: () => boolean,
  max = 50_000,
): Promise<number> {
  const text = 'z'.repeat(size);
  let n = 0;
  while (n < max && !until()) {
    for (let i = 0; i < 100; i++) channel.publish('t', note(n++, text));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return n;
}

describe('Channel: slow consumers', () => {
  const bounded = async (options: ChannelOptions) => {
    const channel = new Channel(Note, options);
    const s = await channelServer(channel);
    const healthy = await subscribe(s.url, 't');
    const slow = await subscribe(s.url, 't');
    const [, slowSub] = s.subs;
    (slow.raw as unknown as { _socket: Socket })._socket.pause();
    return { channel, s, healthy, slow, slowSub: slowSub! };
  };

  it("overflow 'close': closes the stalled subscriber with 1013 and keeps its bytes within the bound", async () => {
    const maxBufferedBytes = 128 * 1024;
    const events: string[] = [];
    const { channel, healthy, slow, slowSub } = await bounded({
      queueSize: 16,
      maxBufferedBytes,
      onOverflow: (s, action) => events.push(`${action} ${s === slowSub ? 'slow' : 'other'}`),
    });
    const sent = await pump(channel, 1024, () => !slowSub.attached);
    expect(slowSub.attached).toBe(false);
    expect(events).toEqual(['closed slow']);
    expect(slowSub.stats.peakHeldBytes).toBeLessThanOrEqual(maxBufferedBytes);
    (slow.raw as unknown as { _socket: Socket })._socket.resume();
    expect(await slow.closed).toEqual({ code: 1013, reason: 'channel overflow' });
    // The healthy one got everything, in order.
    for (let i = 0; i < sent; i++) expect(((await healthy.json()) as { n: number }).n).toBe(i);
    expect(channel.size).toBe(1);
  });

  it("overflow 'close' also applies queueSize", async () => {
    const { channel, slowSub } = await bounded({ queueSize: 4, maxBufferedBytes: 64 * 1024 * 1024 });
    await pump(channel, 1024, () => !slowSub.attached);
    expect(slowSub.attached).toBe(false);
    expect(slowSub.stats.peakHeldBytes).toBeLessThanOrEqual(64 * 1024 + 5 * 1100);
  });

  it("overflow 'drop-oldest': keeps the subscriber, drops its oldest waiting frames, delivers the newest", async () => {
    let drops = 0;
    const { channel, slow, slowSub } = await bounded({
      queueSize: 8,
      overflow: 'drop-oldest',
      maxBufferedBytes: 256 * 1024,
      onOverflow: (_s, action) => action === 'dropped' && drops++,
    });
    const sent = await pump(channel, 1024, () => slowSub.stats.dropped > 500);
    expect(drops).toBe(slowSub.stats.dropped);
    expect(slowSub.attached).toBe(true);
    expect(slowSub.stats.peakHeldBytes).toBeLessThanOrEqual(256 * 1024);
    (slow.raw as unknown as { _socket: Socket })._socket.resume();
    const seen: number[] = [];
    while (seen.at(-1) !== sent - 1) seen.push(((await slow.json()) as { n: number }).n);
    // In order, with one gap where the oldest waiting frames were dropped, ending with the newest.
    const gaps = seen.filter((n, i) => i > 0 && n !== seen[i - 1]! + 1);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(gaps.length).toBeGreaterThan(0);
    expect(seen.length + slowSub.stats.dropped).toBe(sent);
    expect(seen.slice(-8)).toEqual(Array.from({ length: 8 }, (_, i) => sent - 8 + i));
  });
});

describe("Channel: a socket that never emits 'drain' (Bun's upgraded node socket)", () => {
  it('still delivers up to the newest frame once the subscriber reads again (re-checked every 25 ms)', async () => {
    const channel = new Channel(Note, {
      queueSize: 8,
      overflow: 'drop-oldest',
      maxBufferedBytes: 256 * 1024,
    });
    const s = await channelServer(channel);
    const slow = await subscribe(s.url, 't');
    const [slowSub] = s.subs;
    // What Bun's ws layer does: the node socket under the WebSocket never emits 'drain'.
    const socket = slowSub!.ws.socket;
    const once = socket.once.bind(socket);
    socket.once = ((event: string, listener: (...args: unknown[]) => void) =>
      event === 'drain' ? socket : once(event, listener)) as typeof socket.once;
    (slow.raw as unknown as { _socket: Socket })._socket.pause();
    const sent = await pump(channel, 1024, () => slowSub!.stats.dropped > 500);
    expect(slowSub!.stats.queued).toBeGreaterThan(0);
    (slow.raw as unknown as { _socket: Socket })._socket.resume();
    const seen: number[] = [];
    while (seen.at(-1) !== sent - 1) seen.push(((await slow.json()) as { n: number }).n);
    expect(seen.slice(-8)).toEqual(Array.from({ length: 8 }, (_, i) => sent - 8 + i));
    expect(slowSub!.stats.queued).toBe(0);
  });
});

describe('Channel: option mistakes are WiringErrors naming the option and the fix', () => {
  it.each([
    [
      { queueSize: 0 },
      'new Channel(schema, options): queueSize must be a whole number of frames ≥ 1, got 0. Fix: e.g. queueSize: 64 (the default), or leave it out.',
    ],
    [{ queueSize: 1.5 }, /queueSize must be a whole number of frames ≥ 1, got 1\.5/],
    [
      { maxBufferedBytes: -1 },
      /new Channel\(schema, options\): maxBufferedBytes must be a whole number of bytes ≥ 1, got -1\. Fix: e\.g\. maxBufferedBytes: 1024 \* 1024/,
    ],
    [
      { overflow: 'drop' },
      `new Channel(schema, options): overflow must be 'close' or 'drop-oldest', got a string. Fix: overflow: 'close' (1013 to a subscriber that falls behind, the default) or 'drop-oldest'.`,
    ],
    [
      { queuesize: 8 },
      /new Channel\(schema, options\): unknown option "queuesize" \(did you mean "queueSize"\?\)\. Fix: use only queueSize, overflow, maxBufferedBytes, backplane, log, onOverflow/,
    ],
    [
      { backplane: { open() {} } },
      /backplane must be a Backplane \(open, subscribe, unsubscribe, publish, close\), got an object without subscribe, unsubscribe, publish, close\. Fix: pass redisBackplane\(redis\)/,
    ],
    [{ log: console.log }, /log must be a Logger \(info, warn, error\), got a function/],
    [{ onOverflow: 'warn' }, /onOverflow must be a function, got a string/],
  ] as const)('%j', (options, message) => {
    const build = (): unknown => new Channel(Note, options as never);
    expect(build).toThrow(WiringError);
    expect(build).toThrow(message);
    expect(build).toThrow(expect.objectContaining({ where: 'new Channel(schema, options)' }));
  });

  it('refuses options that are not an object', () => {
    expect(() => new Channel(Note, 64 as never)).toThrow(
      'new Channel(schema, options): options must be an object, got 64. Fix: e.g. new Channel(schema, { queueSize: 64 }), or leave options out.',
    );
  });
});

describe('Channel: the bound is bytes, not queueSize frames (as documented)', () => {
  it('with the defaults, a stalled client of small messages holds far more than 64 of them before 1013', async () => {
    const channel = new Channel(Note);
    const s = await channelServer(channel);
    const slow = await subscribe(s.url, 't');
    const [sub] = s.subs;
    (slow.raw as unknown as { _socket: Socket })._socket.pause();
    // 65 × ~100 bytes: a bound of 64 frames would have closed it; 64 KiB of socket buffer takes them.
    for (let i = 0; i < 65; i++) channel.publish('t', note(i, 'y'.repeat(80)));
    expect(sub!.attached).toBe(true);
    expect(sub!.stats.queued).toBe(0);
  });

  it('with the defaults, 32 KiB messages reach the 1 MiB byte bound before 64 of them ever queue', async () => {
    const channel = new Channel(Note);
    const s = await channelServer(channel);
    const slow = await subscribe(s.url, 't');
    const [sub] = s.subs;
    (slow.raw as unknown as { _socket: Socket })._socket.pause();
    let peakQueued = 0;
    await pump(channel, 32 * 1024, () => {
      peakQueued = Math.max(peakQueued, sub!.stats.queued);
      return !sub!.attached;
    });
    expect(sub!.attached).toBe(false);
    expect(peakQueued).toBeLessThan(64);
    expect(sub!.stats.peakHeldBytes).toBeLessThanOrEqual(1024 * 1024);
  });
});
