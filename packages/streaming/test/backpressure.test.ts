import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Endpoint } from '@api/core';
import { StreamingResponse } from '../src/index';
import { start, waitFor } from './wire';

const CHUNK = 64 * 1024;
const MiB = 1024 * 1024;
const flood = { pulls: 0, closed: false };

class Flood extends Endpoint('/flood') {
  get = this.operation({ returns: StreamingResponse.of() }, () => {
    async function* forever() {
      try {
        for (let i = 0; ; i++) {
          flood.pulls++;
          yield Buffer.alloc(CHUNK, i % 256); // chunk i is 64 KiB of the byte i % 256
        }
      } finally {
        flood.closed = true;
      }
    }
    return new StreamingResponse({ stream: forever() });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Walks the chunked body: every chunk must be 64 KiB of its own index's byte, in order. */
function checkOrder(body: Buffer): number {
  let at = 0;
  let index = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) return index;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    const start = lineEnd + 2;
    if (body.length < start + size + 2) return index;
    expect(size).toBe(CHUNK);
    const payload = body.subarray(start, start + size);
    expect(payload.every((byte) => byte === index % 256)).toBe(true);
    index++;
    at = start + size + 2;
  }
}

describe('a client that reads nothing', () => {
  it('gets a source pulled a bounded number of times, bounded memory, and the data in order once it reads', async () => {
    const { client } = await start((app) => app.endpoint(new Flood()));
    const { port } = new URL(client.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.pause(); // reads nothing: the kernel buffers fill, then writes return false
    socket.write('GET /flood HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;

    await waitFor(() => flood.pulls > 4);
    // Wait until pulling stops: two samples 300 ms apart that agree.
    let last = -1;
    for (let i = 0; i < 20 && flood.pulls !== last; i++) {
      last = flood.pulls;
      await sleep(300);
    }
    const plateau = flood.pulls;
    await sleep(500);
    expect(flood.pulls).toBe(plateau); // the source is not pulled while the client reads nothing
    expect(plateau * CHUNK).toBeLessThan(16 * MiB); // kernel buffers + one HWM, not the stream
    const grown = process.memoryUsage().rss - rssBefore;
    expect(grown).toBeLessThan(16 * MiB);

    // Now read: the stream resumes exactly where it stopped.
    const received: Buffer[] = [];
    let total = 0;
    socket.on('data', (data: Buffer) => {
      received.push(data);
      total += data.length;
    });
    socket.resume();
    await waitFor(() => flood.pulls > plateau + 32, 5000);
    await waitFor(() => total > (plateau + 16) * CHUNK, 5000);
    socket.destroy();
    const all = Buffer.concat(received);
    const body = all.subarray(all.indexOf('\r\n\r\n') + 4);
    expect(checkOrder(body)).toBeGreaterThan(plateau + 8);
    await waitFor(() => flood.closed, 1000);
  });
});
