// Standard Schema framings (zod 4, ArkType 2) over a real socket: frames in and out with the
// schemas' transforms, a refused frame (close 1008 naming the path, never the value), async
// refinements keeping message order, a typed send that fails its schema, a Channel of zod messages.
import { type } from 'arktype';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseApp } from '@api/core';
import { TestClient } from '@api/testing';
import { Channel, websocket, WebSocketEndpoint } from '../src/index';
import { compileFraming } from '../src/framing/framing';
import { kInternals } from '../src/symbols';
import { quietLogger } from './fixtures/app';
import { Peer } from './helpers/peer';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const Say = z.object({ type: z.literal('Say'), text: z.string().min(1) });
const Shout = z.object({ type: z.literal('Shout'), text: z.string().transform((s) => s.toUpperCase()) });
// An async refinement: a slow check must not let a later message overtake it.
const Claim = z.object({
  type: z.literal('Claim'),
  code: z.string().refine(async (code) => {
    await sleep(code === 'slow' ? 100 : 0);
    return code !== 'taken';
  }),
});
const ZodIn = z.discriminatedUnion('type', [Say, Shout, Claim]);
const Said = z.object({
  type: z.literal('Said'),
  text: z.string(),
  at: z.date().transform((d) => d.toISOString()),
});
const Claimed = z.object({ type: z.literal('Claimed'), code: z.string() });
const Joined = z.object({ type: z.literal('Joined'), room: z.string() });
const ZodOut = z.discriminatedUnion('type', [Said, Claimed, Joined]);

class ZodSocket extends WebSocketEndpoint('/zod', { inbound: ZodIn, outbound: ZodOut }) {
  constructor(private readonly room: Channel<typeof ZodOut>) {
    super();
  }

  handle = this.handler({}, async ({ websocket }) => {
    using subscriber = this.room.attach(websocket);
    for await (const message of websocket) {
      if (message.type === 'Claim') await websocket.send({ type: 'Claimed', code: message.code });
      else if (message.text === 'bad send')
        await websocket
          // Typed away on purpose: the generic path must refuse it, naming the path only.
          .send({ type: 'Said', text: 'secret-value' as unknown as string, at: 'secret-value' as never })
          .catch((error: Error) => websocket.send({ type: 'Said', text: error.message, at: new Date(0) }));
      else if (message.text === 'join') {
        this.room.join(subscriber, 'lobby');
        this.room.publish('lobby', { type: 'Joined', room: 'lobby' });
      } else await websocket.send({ type: 'Said', text: message.text, at: new Date(0) });
    }
  });
}

const Ping = type({ type: "'Ping'", n: 'number' });
const Echo = type({ type: "'Echo'", text: "'a' | 'b'" });
const Pong = type({ type: "'Pong'", n: 'number' });

class ArkSocket extends WebSocketEndpoint('/ark', { inbound: Ping.or(Echo), outbound: Pong }) {
  handle = this.handler({}, async ({ websocket }) => {
    for await (const message of websocket)
      await websocket.send({ type: 'Pong', n: message.type === 'Ping' ? message.n + 1 : 0 });
  });
}

class StandardApp extends BaseApp {
  protected override async wire(): Promise<void> {
    const room = this.enter(new Channel(ZodOut));
    this.include(websocket(new ZodSocket(room)));
    this.include(websocket(new ArkSocket()));
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function open(path: string): Promise<Peer> {
  const client = await TestClient.start(new StandardApp({ logger: quietLogger() }));
  clients.push(client);
  return Peer.open(`${client.url.replace(/^http/, 'ws')}${path}`);
}

describe('zod messages', () => {
  it('receives the schema output (an inbound transform) and sends it (an outbound transform)', async () => {
    const peer = await open('/zod');
    peer.send({ type: 'Say', text: 'hello' });
    peer.send({ type: 'Shout', text: 'hey' });
    expect(await peer.text()).toBe('{"type":"Said","text":"hello","at":"1970-01-01T00:00:00.000Z"}');
    expect(await peer.text()).toBe('{"type":"Said","text":"HEY","at":"1970-01-01T00:00:00.000Z"}');
    peer.raw.close(1000);
    expect(await peer.closed).toEqual({ code: 1000, reason: '' });
  });

  it.each([
    ['an unknown type', { type: 'Nope' }, 'expected type "Say" | "Shout" | "Claim"'],
    ['no type', ['Say'], 'expected type "Say" | "Shout" | "Claim"'],
    ['a wrong field type', { type: 'Say', text: 42 }, 'Expected string, got number at `$.text`'],
    ['a missing field', { type: 'Shout' }, 'Missing required field at `$.text`'],
    ['a failed check', { type: 'Say', text: '' }, 'Invalid min length: expected >=1 at `$.text`'],
    [
      'an object for a string',
      { type: 'Say', text: { p: 'hunter2' } },
      'Expected string, got object at `$.text`',
    ],
  ])('closes with 1008 on %s, naming the path, never the value', async (_, frame, reason) => {
    const peer = await open('/zod');
    peer.send(frame);
    expect(await peer.closed).toEqual({ code: 1008, reason });
    expect(peer.received).toEqual([]);
  });

  it('closes with 1007 on malformed JSON and 1003 on a binary frame', async () => {
    const json = await open('/zod');
    json.send('{"type":');
    expect(await json.closed).toEqual({ code: 1007, reason: 'malformed JSON' });
    const binary = await open('/zod');
    binary.raw.send(Buffer.from('{}'), { binary: true });
    expect(await binary.closed).toEqual({ code: 1003, reason: 'expected text frames' });
  });

  it('awaits an async refinement, keeping messages in the order they arrived', async () => {
    const peer = await open('/zod');
    peer.send({ type: 'Claim', code: 'slow' });
    peer.send({ type: 'Say', text: 'after' });
    peer.send({ type: 'Claim', code: 'fast' });
    expect(await peer.json()).toEqual({ type: 'Claimed', code: 'slow' });
    expect(await peer.json()).toEqual({ type: 'Said', text: 'after', at: '1970-01-01T00:00:00.000Z' });
    expect(await peer.json()).toEqual({ type: 'Claimed', code: 'fast' });
    peer.send({ type: 'Claim', code: 'taken' });
    peer.send({ type: 'Say', text: 'never delivered' });
    expect(await peer.closed).toEqual({ code: 1008, reason: 'Invalid value at `$.code`' });
    expect(peer.received).toHaveLength(3);
  });

  it('refuses an outbound message that fails its schema with a TypeError naming the path', async () => {
    const peer = await open('/zod');
    peer.send({ type: 'Say', text: 'bad send' });
    const answer = (await peer.json()) as { text: string };
    expect(answer.text).toBe(
      'WebSocketEndpoint("/zod") outbound: an outbound Said does not match its schema: Expected Date, got string at `$.at`',
    );
    expect(answer.text).not.toContain('secret-value');
  });

  it('publishes through a Channel of the same schema', async () => {
    const peer = await open('/zod');
    peer.send({ type: 'Say', text: 'join' });
    expect(await peer.text()).toBe('{"type":"Joined","room":"lobby"}');
  });
});

describe('ArkType messages', () => {
  it('answers a union member, and closes with 1008 without echoing the value', async () => {
    const peer = await open('/ark');
    peer.send({ type: 'Ping', n: 1 });
    expect(await peer.json()).toEqual({ type: 'Pong', n: 2 });
    peer.send({ type: 'Echo', text: 'a' });
    expect(await peer.json()).toEqual({ type: 'Pong', n: 0 });
    peer.send({ type: 'Echo', text: '<script>' });
    const closed = await peer.closed;
    expect(closed).toEqual({ code: 1008, reason: 'Expected ("a" | "b"), got string at `$.text`' });
    expect(closed.reason).not.toContain('script');
  });

  it('refuses an unknown type and a wrong field type', async () => {
    const unknown = await open('/ark');
    unknown.send({ type: 'Pong', n: 1 });
    expect(await unknown.closed).toEqual({ code: 1008, reason: 'expected type "Ping" | "Echo"' });
    const wrong = await open('/ark');
    wrong.send({ type: 'Ping', n: '<b>1</b>' });
    expect(await wrong.closed).toEqual({ code: 1008, reason: 'Expected number, got string at `$.n`' });
  });
});

describe('Channel with a Standard Schema', () => {
  it('refuses a socket whose outbound is another schema, even with the same tags', () => {
    const channel = new Channel(ZodOut);
    const other = z.discriminatedUnion('type', [Said, Claimed, Joined]);
    const socket = { [kInternals]: { outbound: compileFraming('T', other) } } as never;
    expect(() => channel.attach(socket)).toThrow(
      /cannot carry this channel's messages \(Said \| Claimed \| Joined\)\. Fix: .*declare outbound with that very schema/,
    );
  });
});
