import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Endpoint } from '@api/core';
import { headerOf, rawRequest, start } from '../../test/wire';
import { StreamingResponse } from '../index';

const PIECES = [Buffer.from('ab'), 'cdé', new Uint8Array([0, 255, 10]), Buffer.alloc(0), 'end'];

class Download extends Endpoint('/download') {
  get = this.operation({ returns: StreamingResponse.of() }, () => {
    async function* chunks() {
      for (const piece of PIECES) {
        yield piece;
        await new Promise((resolve) => setTimeout(resolve, 5)); // one write per tick: no coalescing doubt
      }
    }
    return new StreamingResponse({ stream: chunks() });
  });
}

class Csv extends Endpoint('/report.csv') {
  get = this.operation({ returns: StreamingResponse.of({ contentType: 'text/csv' }) }, () => {
    return new StreamingResponse({ stream: Readable.from(['a,b\n', '1,2\n']) });
  });
}

class Typed extends Endpoint('/typed') {
  get = this.operation({ returns: StreamingResponse.of() }, () => {
    return new StreamingResponse({
      stream: Readable.from([Buffer.from('{}')]),
      rawHeaders: { 'Content-Type': 'application/json' },
    });
  });
}

class Wrong extends Endpoint('/wrong') {
  get = this.operation({ returns: StreamingResponse.of() }, () => {
    async function* chunks() {
      yield 42 as unknown as string;
    }
    return new StreamingResponse({ stream: chunks() });
  });
}

describe('StreamingResponse on the wire', () => {
  it('writes each chunk as one chunk of the chunked encoding, boundaries kept', async () => {
    const { client } = await start((app) => app.endpoint(new Download()));
    const res = await rawRequest(client.url, '/download');
    expect(res.status).toBe(200);
    expect(headerOf(res.head, 'content-type')).toBe('application/octet-stream');
    expect(headerOf(res.head, 'content-length')).toBeUndefined();
    expect(res.chunks.map((c) => [...c])).toEqual(
      PIECES.filter((p) => p.length > 0).map((p) => [...(typeof p === 'string' ? Buffer.from(p) : p)]),
    );
    expect(res.terminated).toBe(true);
  });

  it('takes a Node Readable and the declared media type', async () => {
    const { client } = await start((app) => app.endpoint(new Csv()));
    const res = await client.get('/report.csv');
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(res.text).toBe('a,b\n1,2\n');
  });

  it('lets a raw content-type header replace the default, sending it once', async () => {
    const { client } = await start((app) => app.endpoint(new Typed()));
    const res = await client.get('/typed');
    expect(res.multiHeaders.filter(([name]) => name.toLowerCase() === 'content-type')).toEqual([
      ['Content-Type', 'application/json'],
    ]);
    expect(res.text).toBe('{}');
  });

  it('refuses a chunk that is not bytes or text with a 500', async () => {
    const { client } = await start((app) => app.endpoint(new Wrong()));
    const res = await client.get('/wrong');
    expect(res.status).toBe(500);
  });
});
