import * as v from 'valibot';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Struct } from '@api/core';
import { bareServer, type BareServer } from '../../test/helpers/bare-server';
import { Peer } from '../../test/helpers/peer';
import { kInternals } from '../symbols';
import { WebSocketClosedError, type WebSocket } from './websocket';

const Ping = Struct('Ping', { text: v.string() }, { tag: true });
const Pong = Struct('Pong', { text: v.string(), n: v.number() }, { tag: true });
type PingT = v.InferOutput<typeof Ping>;
type PongT = v.InferInput<typeof Pong>;

let server: BareServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start<TIn = PingT, TOut = PongT>(
  handler: (ws: WebSocket<TIn, TOut>) => unknown,
  options: { inbound?: unknown; outbound?: unknown; maxPayload?: number } = {},
): Promise<BareServer> {
  server = await bareServer<TIn, TOut>({
    inbound: (options.inbound ?? Ping) as never,
    outbound: (options.outbound ?? Pong) as never,
    ...(options.maxPayload !== undefined ? { maxPayload: options.maxPayload } : {}),
    handler,
  });
  return server;
}

const tick = (ms = 20): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('WebSocket: messages', () => {
  it('iterates decoded inbound messages and sends validated, encoded replies', async () => {
    const s = await start(async (ws) => {
      let n = 0;
      for await (const message of ws) await ws.send({ type: 'Pong', text: message.text, n: ++n });
    });
    const peer = await Peer.open(s.url);
    peer.send({ type: 'Ping', text: 'a' });
    peer.send({ type: 'Ping', text: 'b', ignored: true });
    expect(await peer.json()).toEqual({ type: 'Pong', text: 'a', n: 1 });
    expect(await peer.json()).toEqual({ type: 'Pong', text: 'b', n: 2 });
    peer.raw.close(1000);
    expect((await peer.closed).code).toBe(1000);
  });

  it('emits only the declared fields of an outbound message', async () => {
    const s = await start(async (ws) => {
      await ws.send({ type: 'Pong', text: 't', n: 1, secret: 'x' } as PongT);
      await ws.close();
    });
    const peer = await Peer.open(s.url);
    expect(await peer.text()).toBe('{"type":"Pong","text":"t","n":1}');
  });

  it('sendEncoded sends a pre-encoded payload as is, in the outbound frame kind', async () => {
    const s = await start(async (ws) => {
      await ws.sendEncoded('{"type":"Pong","text":"pre","n":0}');
      await ws.sendEncoded(Buffer.from('{"type":"Pong","text":"buf","n":0}'));
      await ws.close();
    });
    const peer = await Peer.open(s.url);
    expect(await peer.next()).toMatchObject({ isBinary: false });
    expect(JSON.parse((await peer.next()).data.toString())).toMatchObject({ text: 'buf' });
    expect(peer.received.every((m) => !m.isBinary)).toBe(true);
  });

  it('rejects an outbound message that does not match its schema and stays open', async () => {
    const errors: unknown[] = [];
    const s = await start(async (ws) => {
      await ws.send({ type: 'Pong', text: 1 } as never).catch((e: unknown) => errors.push(e));
      await ws.send({ type: 'Pong', text: 'ok', n: 1 });
      await ws.close();
    });
    const peer = await Peer.open(s.url);
    expect(await peer.json()).toEqual({ type: 'Pong', text: 'ok', n: 1 });
    expect(errors[0]).toBeInstanceOf(TypeError);
    expect((await peer.closed).code).toBe(1000);
  });

  it('keeps the directions independent: bytes in, tagged JSON out; string in, bytes out', async () => {
    const s = await start<Buffer, PongT>(
      async (ws) => {
        for await (const bytes of ws)
          await ws.send({ type: 'Pong', text: bytes.toString('hex'), n: bytes.length });
      },
      { inbound: 'bytes', outbound: Pong },
    );
    const peer = await Peer.open(s.url);
    peer.raw.send(Buffer.from([1, 2, 255]));
    expect(await peer.json()).toEqual({ type: 'Pong', text: '0102ff', n: 3 });
    peer.raw.send('text frame');
    expect(await peer.closed).toEqual({ code: 1003, reason: 'expected binary frames' });
    await s.close();

    const t = await start<string, Uint8Array>(
      async (ws) => {
        for await (const text of ws) await ws.send(Buffer.from(text.toUpperCase()));
      },
      { inbound: 'string', outbound: 'bytes' },
    );
    const peer2 = await Peer.open(t.url);
    peer2.send('héllo');
    const reply = await peer2.next();
    expect(reply.isBinary).toBe(true);
    expect(reply.data.toString()).toBe('HÉLLO');
    peer2.raw.send(Buffer.from('x'));
    expect(await peer2.closed).toEqual({ code: 1003, reason: 'expected text frames' });
  });
});

describe('WebSocket: refusals close the socket', () => {
  it.each([
    [
      'a binary frame on a JSON socket',
      (p: Peer) => p.raw.send(Buffer.from('{}')),
      1003,
      'expected text frames',
    ],
    ['malformed JSON', (p: Peer) => p.send('{"type":'), 1007, 'malformed JSON'],
    ['an unknown type', (p: Peer) => p.send({ type: 'Nope' }), 1008, 'expected type "Ping"'],
    [
      'a schema-invalid message',
      (p: Peer) => p.send({ type: 'Ping', text: 42 }),
      1008,
      'Expected string, got number at `$.text`',
    ],
  ])('%s', async (_label, act, code, reason) => {
    let iterated = 0;
    const s = await start(async (ws) => {
      for await (const _ of ws) iterated++;
      await new Promise(() => undefined); // the handler keeps running; the refusal still closes
    });
    const peer = await Peer.open(s.url);
    peer.send({ type: 'Ping', text: 'fine' });
    act(peer);
    expect(await peer.closed).toEqual({ code, reason });
    expect(iterated).toBe(1);
  });

  it('ws itself refuses invalid UTF-8 in a text frame with 1007', async () => {
    const s = await start<string, string>(
      async (ws) => {
        for await (const _ of ws);
      },
      { inbound: 'string', outbound: 'string' },
    );
    const peer = await Peer.open(s.url, { skipUTF8Validation: true });
    // ws (the client) validates only what it receives, so it sends these bytes as a text frame.
    peer.raw.send(Buffer.from([0xff, 0xfe]), { binary: false });
    expect((await peer.closed).code).toBe(1007);
  });
});

describe('WebSocket: handler lifecycle', () => {
  it('closes with 1000 when the handler returns', async () => {
    const s = await start(async () => undefined);
    const peer = await Peer.open(s.url);
    expect(await peer.closed).toEqual({ code: 1000, reason: '' });
  });

  it('closes with 1011 and logs when the handler throws; other connections are untouched', async () => {
    let calls = 0;
    const s = await start(async (ws) => {
      if (++calls === 2) throw new Error('boom');
      for await (const m of ws) await ws.send({ type: 'Pong', text: m.text, n: 0 });
    });
    const healthy = await Peer.open(s.url);
    const failing = await Peer.open(s.url);
    expect(await failing.closed).toEqual({ code: 1011, reason: 'internal error' });
    expect(s.log.lines).toEqual(['error Test.handle failed; closing the WebSocket with 1011']);
    expect((s.log.errors[0] as Error).message).toBe('boom');
    healthy.send({ type: 'Ping', text: 'still here' });
    expect(await healthy.json()).toEqual({ type: 'Pong', text: 'still here', n: 0 });
  });

  it('does not log a send that failed because the peer left', async () => {
    let sent: (() => void) | undefined;
    const s = await start(async (ws) => {
      await new Promise<void>((resolve) => (sent = resolve));
      await ws.send({ type: 'Pong', text: 'late', n: 0 });
    });
    const peer = await Peer.open(s.url);
    peer.raw.close(1000);
    await peer.closed;
    await tick();
    sent!();
    await tick();
    expect(s.log.lines).toEqual([]);
  });
});

describe('WebSocket: close', () => {
  it('sends the code and reason once; later calls return the same result', async () => {
    const results: unknown[] = [];
    const s = await start(async (ws) => {
      const first = ws.close(4001, 'bye');
      const second = ws.close(4002, 'ignored');
      await Promise.all([first, second]);
      results.push(ws.closed, ws.closeCode, ws.closeReason);
    });
    const peer = await Peer.open(s.url);
    expect(await peer.closed).toEqual({ code: 4001, reason: 'bye' });
    await tick();
    expect(results).toEqual([true, 4001, 'bye']);
  });

  it('refuses codes outside the documented set and reasons over 123 bytes, locally', async () => {
    const errors: unknown[] = [];
    const s = await start(async (ws) => {
      for (const [code, reason] of [
        [1001, ''],
        [1005, ''],
        [3000, ''],
        [1000, 'x'.repeat(124)],
        [4000, '€'.repeat(42)], // 126 bytes
      ] as const) {
        await ws.close(code, reason).catch((e: unknown) => errors.push(e));
      }
      expect(ws.closed).toBe(false);
      await ws.close(4000, '€'.repeat(41)); // 123 bytes
    });
    const peer = await Peer.open(s.url);
    expect(await peer.closed).toEqual({ code: 4000, reason: '€'.repeat(41) });
    expect(errors).toHaveLength(5);
    expect(errors.every((e) => e instanceof RangeError)).toBe(true);
  });

  it('sends after close fail locally and put nothing on the wire', async () => {
    const errors: unknown[] = [];
    const s = await start(async (ws) => {
      void ws.close(4003, 'done');
      await ws.send({ type: 'Pong', text: 'after', n: 0 }).catch((e: unknown) => errors.push(e));
      await ws.sendEncoded('{}').catch((e: unknown) => errors.push(e));
    });
    const peer = await Peer.open(s.url);
    expect(await peer.closed).toEqual({ code: 4003, reason: 'done' });
    expect(peer.received).toEqual([]);
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e instanceof WebSocketClosedError)).toBe(true);
  });

  it('ends iteration when the peer closes', async () => {
    let ended = false;
    const s = await start(async (ws) => {
      for await (const _ of ws);
      ended = true;
      expect(ws.closeCode).toBe(4100);
    });
    const peer = await Peer.open(s.url);
    peer.raw.close(4100, 'client leaving');
    await peer.closed;
    await tick();
    expect(ended).toBe(true);
    expect(s.log.lines).toEqual([]);
  });
});

describe('WebSocket: bounded memory', () => {
  it('stops reading while the handler does not read, and resumes in order when it does', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: number[] = [];
    const count = 300;
    const s = await start(async (ws) => {
      await gate;
      for await (const m of ws) {
        seen.push(Number(m.text.slice(0, 8)));
        if (seen.length === count) break;
      }
    });
    const peer = await Peer.open(s.url);
    const filler = 'x'.repeat(60 * 1024);
    for (let i = 0; i < count; i++) peer.send({ type: 'Ping', text: String(i).padStart(8, '0') + filler });
    await tick(300);
    // 18 MB sent; the server holds about 1 MiB and stopped reading, so the rest waits in the
    // kernel and in the client's own buffer.
    expect(peer.raw.bufferedAmount).toBeGreaterThan(4 * 1024 * 1024);
    release();
    expect(await peer.closed).toEqual({ code: 1000, reason: '' });
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => i));
  });

  it('stops reading while 64 async checks of a Standard Schema are pending, and keeps their order', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // zod runs an async refinement twice (a sync attempt first): count messages, not calls.
    const checking = new Set<string>();
    const Slow = z.object({
      type: z.literal('Ping'),
      text: z.string().refine(async (text) => {
        checking.add(text.slice(0, 8));
        await gate;
        return true;
      }),
    });
    const seen: number[] = [];
    const count = 300;
    const s = await start<{ type: 'Ping'; text: string }>(
      async (ws) => {
        for await (const m of ws) {
          seen.push(Number(m.text.slice(0, 8)));
          if (seen.length === count) break;
        }
      },
      { inbound: Slow },
    );
    const peer = await Peer.open(s.url);
    const filler = 'x'.repeat(60 * 1024);
    for (let i = 0; i < count; i++) peer.send({ type: 'Ping', text: String(i).padStart(8, '0') + filler });
    while (checking.size < 64) await tick(10);
    await tick(500);
    // The server stopped reading at 64 pending checks (a few more were already in ws's buffer);
    // without the pause it reads on (about 200 within this wait).
    expect(checking.size).toBeLessThan(100);
    expect(peer.raw.bufferedAmount).toBeGreaterThan(4 * 1024 * 1024);
    release();
    expect(await peer.closed).toEqual({ code: 1000, reason: '' });
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => i));
  });

  it('send waits for the socket to drain when the peer stops reading', async () => {
    let waiting = 0;
    let sent = 0;
    let buffered = 0;
    const s = await start(async (ws) => {
      const payload = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 400; i++) {
        const p = ws.send({ type: 'Pong', text: payload, n: i });
        let done = false;
        p.then(
          () => (done = true),
          () => undefined,
        );
        await Promise.resolve();
        sent++;
        buffered = Math.max(buffered, ws.bufferedAmount);
        if (!done) {
          waiting++;
          await p;
          waiting--;
        }
      }
      await ws.close();
    });
    const peer = await Peer.open(s.url);
    const underlying = (peer.raw as unknown as { _socket: Socket })._socket;
    underlying.pause();
    await tick(300);
    // Stuck on one send; only what the kernel accepted plus one socket buffer left the handler.
    expect(waiting).toBe(1);
    expect(sent).toBeLessThan(400);
    expect(buffered).toBeLessThan(256 * 1024);
    underlying.resume();
    expect((await peer.closed).code).toBe(1000);
    expect(peer.received).toHaveLength(400);
  });

  it("send still resumes when the socket never emits 'drain' (Bun's upgraded node socket): re-checked every 25 ms", async () => {
    let sent = 0;
    const s = await start(async (ws) => {
      const socket = ws[kInternals].socket;
      const once = socket.once.bind(socket);
      socket.once = ((event: string, listener: (...args: unknown[]) => void) =>
        event === 'drain' ? socket : once(event, listener)) as typeof socket.once;
      const payload = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 200; i++) {
        await ws.send({ type: 'Pong', text: payload, n: i });
        sent++;
      }
      await ws.close();
    });
    const peer = await Peer.open(s.url);
    const underlying = (peer.raw as unknown as { _socket: Socket })._socket;
    underlying.pause();
    await tick(300);
    expect(sent).toBeLessThan(200); // held while the peer reads nothing
    underlying.resume();
    expect((await peer.closed).code).toBe(1000);
    expect(peer.received).toHaveLength(200);
  });
});
