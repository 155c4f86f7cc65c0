// Types of Standard Schema (zod, ArkType) framings: the handler iterates the inbound schema's
// output, `send` takes the outbound schema's input, and the facts @api/client reads (`import type`)
// give a client the inbound input to send and the outbound output it receives.
import { type } from 'arktype';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { RouteClassFacts } from '@api/core';
import { Channel } from '../channel/channel';
import { WebSocketEndpoint } from './endpoint';

const Say = z.object({ type: z.literal('Say'), text: z.string() });
const Count = z.object({ type: z.literal('Count'), n: z.string().transform((s) => Number(s)) });
const Inbound = z.discriminatedUnion('type', [Say, Count]);
const Said = z.object({ type: z.literal('Said'), at: z.date().transform((d) => d.toISOString()) });
const Outbound = z.discriminatedUnion('type', [Said]);

/** What @api/client reads of an endpoint instance (packages/client/src/types/client.ts). */
type ClientSide<T> =
  T extends RouteClassFacts<string, { readonly send: infer S; readonly receive: infer R }>
    ? { send: S; receive: R }
    : never;

class ZodSocket extends WebSocketEndpoint('/zod', { inbound: Inbound, outbound: Outbound }) {
  handle = this.handler({}, async ({ websocket }) => {
    for await (const message of websocket) {
      // The inbound output: Count's n after its transform.
      expectTypeOf(message).toEqualTypeOf<{ type: 'Say'; text: string } | { type: 'Count'; n: number }>();
      // The outbound input: Said's at before its transform.
      await websocket.send({ type: 'Said', at: new Date() });
      // @ts-expect-error the transform's output is not what send takes
      await websocket.send({ type: 'Said', at: '2026-01-01T00:00:00.000Z' });
      // @ts-expect-error not an outbound message
      await websocket.send({ type: 'Say', text: 'x' });
    }
  });
}

describe('Standard Schema framings', () => {
  it('gives a client the inbound input to send and the outbound output it receives', () => {
    expectTypeOf<ClientSide<ZodSocket>>().toEqualTypeOf<{
      send: { type: 'Say'; text: string } | { type: 'Count'; n: string };
      receive: { type: 'Said'; at: string };
    }>();
  });

  it('types ArkType unions', () => {
    const Ping = type({ type: "'Ping'", n: 'number' });
    const Pong = type({ type: "'Pong'", n: 'number' });
    class ArkSocket extends WebSocketEndpoint('/ark', { inbound: Ping, outbound: Pong.or(Ping) }) {
      handle = this.handler({}, async ({ websocket }) => {
        for await (const message of websocket) {
          expectTypeOf(message).toEqualTypeOf<{ type: 'Ping'; n: number }>();
          await websocket.send({ type: 'Pong', n: message.n + 1 });
          // @ts-expect-error n is a number
          await websocket.send({ type: 'Pong', n: '1' });
        }
      });
    }
    expectTypeOf<ClientSide<ArkSocket>['receive']>().toEqualTypeOf<
      { type: 'Pong'; n: number } | { type: 'Ping'; n: number }
    >();
  });

  it('publishes the input type of a Channel schema', () => {
    const channel = new Channel(Outbound);
    channel.publish('t', { type: 'Said', at: new Date() });
    // @ts-expect-error a Channel of a zod schema publishes its input (a Date)
    channel.publish('t', { type: 'Said', at: 'now' });
  });

  it('refuses a schema whose messages carry no string type, at compile time', () => {
    // @ts-expect-error an untagged zod object cannot frame messages
    WebSocketEndpoint('/bad', { inbound: z.object({ text: z.string() }), outbound: 'string' });
  });
});
