// The slow-consumer proof: one Channel, 20 healthy subscribers and one whose socket is paused,
// 10,000 messages/s of 1 KiB for 5 s, published by the app in its own process.
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixture, type FixtureProcess } from './helpers/child';

const processes: FixtureProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.kill()));
});

interface Sample {
  readonly crossedAt?: number;
  readonly closedAt?: number;
  readonly socketClosedAt?: number;
  readonly peak: number;
}
interface Published {
  readonly count: number;
  readonly ms: number;
  readonly rssGrowth: number;
  readonly samples: Record<string, Sample>;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const SECONDS = 5;
const PER_SECOND = 10_000;
const TOTAL = SECONDS * PER_SECOND;
// The feed's bounds. At 10 MB/s per client the defaults (64 frames, 1 MiB) leave a healthy client
// about 0.1 s of slack beyond the kernel's buffers; these give it about a second, so a healthy
// process that the shared 2-core machine starves for a moment is not mistaken for a slow one.
const QUEUE_SIZE = 256;
const MAX_BUFFERED = 4 * MiB;
// A frame is the 1 KiB pad plus its JSON.
const FRAME = 1024 + '{"type":"Tick","n":49999,"pad":""}'.length;
const BOUND = QUEUE_SIZE * FRAME + MAX_BUFFERED;

describe('Channel under a slow consumer', () => {
  it('closes the paused subscriber with 1013 when it crosses the bound; healthy ones get everything, in order', async () => {
    const server = await startFixture(
      {
        FIXTURE_SIGNALS: '0',
        FIXTURE_FEED_QUEUE: String(QUEUE_SIZE),
        FIXTURE_FEED_BYTES: String(MAX_BUFFERED),
      },
      'server.ts',
      // On a busy shared machine the clients get the CPU first: the publisher may slow down, a
      // healthy client must not fall behind for want of CPU (that would make it a slow one).
      { nice: 10 },
    );
    processes.push(server);
    const healthy = await startFixture(
      { FIXTURE_URL: `${server.ws}/feed`, FIXTURE_COUNT: '20', FIXTURE_TOTAL: String(TOTAL) },
      'subscribers.ts',
    );
    processes.push(healthy);
    const slow = new WebSocket(`${server.ws}/feed?id=slow`, { perMessageDeflate: false });
    await new Promise((resolve) => slow.once('open', resolve));
    const slowSocket = (slow as unknown as { _socket: Socket })._socket;
    slowSocket.pause();
    const slowClosed = new Promise<{ code: number; reason: string }>((resolve) =>
      slow.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })),
    );
    await new Promise((r) => setTimeout(r, 100));

    server.send({ cmd: 'publish', perSecond: PER_SECOND, seconds: SECONDS, size: 1024 });
    const overflow = await server.event<{ id: string; at: number }>('overflow', 30_000);
    expect(overflow.id).toBe('slow');
    // Read what the kernel holds for it: the close frame follows.
    slowSocket.resume();
    expect(await slowClosed).toEqual({ code: 1013, reason: 'channel overflow' });

    type Report = { counts: number[]; outOfOrder: number[]; closed: unknown[] };
    const done = await Promise.race([
      healthy.event<Report>('done', 120_000),
      healthy.event<{ index: number; code: number }>('closed', 120_000).then((c) => {
        throw new Error(`healthy subscriber ${c.index} was closed with ${c.code}`);
      }),
    ]).catch(async (error: Error) => {
      healthy.send({ cmd: 'report' });
      const report = await healthy.event<Report>('report', 5_000).catch(() => undefined);
      throw new Error(`${error.message}; subscribers: ${JSON.stringify(report)}`);
    });
    expect(done.counts).toEqual(Array.from({ length: 20 }, () => TOTAL));
    expect(done.outOfOrder).toEqual(Array.from({ length: 20 }, () => 0));
    expect(done.closed).toEqual(Array.from({ length: 20 }, () => null));
    const result = await server.event<Published>('published', 120_000);
    expect(result.count).toBe(TOTAL);

    const slowSample = result.samples.slow!;
    // Closed within 1 s of crossing the bound (in the same publish call, in fact)…
    expect(slowSample.crossedAt).toBeDefined();
    expect(slowSample.closedAt! - slowSample.crossedAt!).toBeLessThan(1000);
    // …its connection gone within the 5 s overflow grace.
    expect(slowSample.socketClosedAt! - slowSample.crossedAt!).toBeLessThan(5500);
    // …and never held more than queueSize frames + maxBufferedBytes for it.
    expect(slowSample.peak).toBeLessThanOrEqual(BOUND);
    for (let i = 0; i < 20; i++) expect(result.samples[`healthy-${i}`]!.closedAt).toBeUndefined();
    // 50,000 messages × 21 subscribers went through; the process grew by less than 32 MiB.
    expect(result.rssGrowth).toBeLessThan(32 * MiB);
  }, 240_000);
});
