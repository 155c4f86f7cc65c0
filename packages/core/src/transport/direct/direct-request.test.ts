import { describe, expect, it } from 'vitest';
import { DirectRequest } from './direct-request';

describe('DirectRequest', () => {
  it("builds node:http's header shapes from the caller's record, content-length from the body", () => {
    const req = new DirectRequest(
      {
        method: 'POST',
        path: '/x',
        headers: { Accept: 'application/json', 'x-many': ['a', 'b'], 'set-cookie': ['c=1'], gone: undefined },
        body: 'héllo',
        origin: 'https://api.example',
      },
      '/x?q=1',
    );
    expect(req.url).toBe('/x?q=1');
    expect(req.scheme).toBe('https');
    expect(req.origin).toBe('https://api.example');
    expect(req.headers).toEqual({
      accept: 'application/json',
      'x-many': 'a, b',
      'set-cookie': ['c=1'],
      'content-length': '6',
    });
    expect(req.rawHeaders).toEqual([
      'accept',
      'application/json',
      'x-many',
      'a',
      'x-many',
      'b',
      'set-cookie',
      'c=1',
      'content-length',
      '6',
    ]);
    expect(req.headerCount).toBe(5);
    expect(req.headersDistinct).toEqual({
      accept: ['application/json'],
      'x-many': ['a', 'b'],
      'set-cookie': ['c=1'],
      'content-length': ['6'],
    });
  });

  it("content-length is the body's (none without one); http and no origin by default", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(
      new DirectRequest({ method: 'PUT', path: '/', headers: { 'content-length': '99' }, body: bytes }, '/')
        .headers,
    ).toEqual({ 'content-length': '3' });
    const none = new DirectRequest({ method: 'GET', path: '/', headers: { 'content-length': '5' } }, '/');
    expect(none.headers).toEqual({});
    expect(none.rawHeaders).toEqual([]);
    expect(none.scheme).toBe('http');
    expect(none.origin).toBeUndefined();
  });

  it("hands the body over as one chunk on a later microtask, then 'end' and 'close'", async () => {
    const req = new DirectRequest({ method: 'POST', path: '/', body: 'abc' }, '/');
    const events: string[] = [];
    req.on('data', (chunk) => events.push(`data ${chunk.toString()}`));
    req.on('end', () => events.push('end'));
    req.on('close', () => events.push('close'));
    expect(req.complete).toBe(true);
    expect(events).toEqual([]);
    await Promise.resolve();
    expect(events).toEqual(['data abc', 'end', 'close']);
    expect(req.readableEnded).toBe(true);
  });

  it("an empty body: no 'data', only 'end' and 'close'; a dropped one ('resume') reaches no listener", async () => {
    const empty = new DirectRequest({ method: 'POST', path: '/', body: '' }, '/');
    const events: string[] = [];
    empty.on('data', () => events.push('data'));
    empty.on('end', () => events.push('end'));
    await Promise.resolve();
    expect(events).toEqual(['end']);
    const dropped = new DirectRequest({ method: 'POST', path: '/', body: 'x' }, '/');
    const seen: string[] = [];
    dropped.on('data', () => seen.push('data'));
    dropped.resume();
    await Promise.resolve();
    expect(seen).toEqual([]);
  });

  it('iterates the body once', async () => {
    const req = new DirectRequest({ method: 'POST', path: '/', body: new Uint8Array([104, 105]) }, '/');
    const chunks: string[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk).toString());
    expect(chunks).toEqual(['hi']);
    expect(req.readableEnded).toBe(true);
    const again: unknown[] = [];
    for await (const chunk of req) again.push(chunk);
    expect(again).toEqual([]);
  });
});
