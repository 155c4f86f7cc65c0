import * as v from 'valibot';
import { expect } from 'vitest';
import { Struct } from '@api/core';
import type { Channel, Subscriber } from '../../src/channel/channel';
import type { Framing } from '../../src/framing/framing';
import { bareServer, type BareServer } from './bare-server';
import { Peer } from './peer';

export const Ready = Struct('Ready', {}, { tag: true });

/**
 * A bare server whose sockets attach to `channel`: the client's first (string) message names
 * the topics to join, comma-separated; the server answers `{type: 'Ready'}` once joined.
 */
export async function channelServer<F extends Framing>(
  channel: Channel<F>,
  messages: readonly v.GenericSchema[],
): Promise<BareServer & { subs: Subscriber[] }> {
  const subs: Subscriber[] = [];
  const s = await bareServer<unknown, { type: 'Ready' }>({
    inbound: 'string',
    outbound: [...messages, Ready] as never,
    handler: async (ws) => {
      using subscriber = channel.attach(ws as never);
      subs.push(subscriber);
      const topics = await ws[Symbol.asyncIterator]().next();
      for (const topic of String(topics.value).split(',')) channel.join(subscriber, topic);
      await ws.send({ type: 'Ready' });
      for await (const _ of ws);
    },
  });
  return Object.assign(s, { subs });
}

/** Connects and joins `topics`; resolves once the server confirmed. */
export async function subscribe(url: string, topics: string): Promise<Peer> {
  const peer = await Peer.open(url);
  peer.send(topics);
  expect(await peer.json()).toEqual({ type: 'Ready' });
  return peer;
}
