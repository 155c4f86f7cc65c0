import { Readable } from 'node:stream';
import { createGzip, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FetchResponse } from './fetch-response';

/** The events a response emitted, in order. */
function events(res: FetchResponse): string[] {
  const seen: string[] = [];
  for (const name of ['finish', 'close', 'drain']) res.on(name, () => seen.push(name));
  return seen;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FetchResponse.outcome', () => {
  it('is the Response itself once answered, a promise of it while undecided', async () => {
    const now = new FetchResponse(new Request('http://x/'), false);
    now.writeHead(200, ['content-type', 'text/plain']);
    now.end('done');
    const answered = now.outcome();
    expect(answered).toBeInstanceOf(Response);
    expect(await (answered as Response).text()).toBe('done');
    expect(await now.response).toBe(answered);

    const later = new FetchResponse(new Request('http://x/'), false);
    const pending = later.outcome();
    expect(pending).toBeInstanceOf(Promise);
    later.writeHead(204, []);
    later.end();
    const response = await pending;
    expect(response.status).toBe(204);
    // Asked again: the same answer.
    expect(await later.outcome()).toBe(response);
  });

  it('rejects when destroyed before any answer, asked before or after', async () => {
    const before = new FetchResponse(new Request('http://x/'), false);
    const pending = before.outcome();
    before.destroy(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
    const after = new FetchResponse(new Request('http://x/'), false);
    after.destroy();
    const failed = after.outcome();
    expect(failed).toBeInstanceOf(Promise);
    await expect(failed).rejects.toThrow('destroyed before it was answered');
  });
});

describe('FetchResponse, a buffered answer', () => {
  it('answers end(body) with a Response over the body, no stream; finish then close follow', async () => {
    const res = new FetchResponse(new Request('http://x/'), false);
    const seen = events(res);
    res.writeHead(201, ['content-type', 'application/json', 'location', '/movies/1']);
    res.end('{"id":1}');
    expect(res.writableEnded).toBe(true);
    expect(res.writableFinished).toBe(true);
    expect(seen).toEqual([]);
    const response = await res.response;
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/movies/1');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"id":1}');
    expect(seen).toEqual(['finish', 'close']);
  });

  it('sends text without a media type as bytes (no text/plain added), and bytes as they are', async () => {
    const text = new FetchResponse(new Request('http://x/'), false);
    text.writeHead(200, []);
    text.end('plain');
    const answered = await text.response;
    expect(answered.headers.get('content-type')).toBe(null);
    expect(await answered.text()).toBe('plain');
    const bytes = new FetchResponse(new Request('http://x/'), false);
    bytes.writeHead(200, ['content-type', 'application/octet-stream']);
    bytes.end(new Uint8Array([1, 2, 3]));
    expect(new Uint8Array(await (await bytes.response).arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('answers HEAD and a null-body status with the head only', async () => {
    const head = new FetchResponse(new Request('http://x/', { method: 'HEAD' }), true);
    head.writeHead(200, ['content-type', 'text/plain']);
    head.end('body');
    const answered = await head.response;
    expect(answered.body).toBe(null);
    expect(answered.headers.get('content-type')).toBe('text/plain');
    const none = new FetchResponse(new Request('http://x/'), false);
    none.writeHead(304, ['etag', '"1"']);
    none.end();
    expect((await none.response).status).toBe(304);
    expect((await none.response).body).toBe(null);
  });

  it('keeps each line of a name sent twice, drops hop-by-hop fields, refuses a bad value unrecorded', async () => {
    const res = new FetchResponse(new Request('http://x/'), false);
    expect(() => res.writeHead(200, ['x-bad', 'a\nb'])).toThrow(TypeError);
    expect(res.headersSent).toBe(false);
    res.writeHead(200, ['set-cookie', 'a=1', 'connection', 'close', 'set-cookie', 'b=2']);
    res.end();
    const answered = await res.response;
    expect(answered.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(answered.headers.get('connection')).toBe(null);
  });

  it('rejects its answer when destroyed before one, and emits close (not finish)', async () => {
    const res = new FetchResponse(new Request('http://x/'), false);
    const seen = events(res);
    res.destroy();
    await expect(res.response).rejects.toThrow('destroyed before it was answered');
    expect(seen).toEqual(['close']);
    expect(res.writableFinished).toBe(false);
  });
});

describe('FetchResponse, a streamed answer', () => {
  it('answers with a stream on the first write, hands on chunks as read, finishes on the last read', async () => {
    const res = new FetchResponse(new Request('http://x/'), false);
    const seen = events(res);
    res.writeHead(200, ['content-type', 'text/plain']);
    expect(res.write('a')).toBe(true);
    const reader = (await res.response).body!.getReader();
    res.write(new Uint8Array([98]));
    res.end('c');
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      text += decoder.decode(step.value);
    }
    expect(text).toBe('abc');
    await turn();
    expect(res.writableFinished).toBe(true);
    expect(seen).toEqual(['finish', 'close']);
  });

  it('says wait at 16 KiB queued and drains as the consumer reads', async () => {
    const res = new FetchResponse(new Request('http://x/'), false);
    const seen = events(res);
    res.writeHead(200, []);
    const chunk = new Uint8Array(4096);
    const accepted = [1, 2, 3, 4, 5].map(() => res.write(chunk));
    // The first is held by the stream for its consumer; four wait here.
    expect(accepted).toEqual([true, true, true, true, false]);
    expect(res.writableLength).toBe(4 * 4096);
    const reader = (await res.response).body!.getReader();
    await reader.read();
    await turn();
    expect(res.writableLength).toBe(3 * 4096);
    expect(seen).toEqual(['drain']);
    expect(res.writableNeedDrain).toBe(false);
  });

  it('destroys itself when the consumer cancels: close without finish, later writes dropped', async () => {
    const res = new FetchResponse(new Request('http://x/'), false);
    const seen = events(res);
    res.writeHead(200, []);
    res.write('first');
    await (await res.response).body!.cancel();
    await turn();
    expect(seen).toEqual(['close']);
    expect(res.write('late')).toBe(false);
    expect(res.writableLength).toBe(0);
  });

  it('errors the stream on a cut (destroy mid-body): what was written is read, then a failure, no end', async () => {
    const res = new FetchResponse(new Request('http://x/'), false);
    const seen = events(res);
    res.writeHead(200, []);
    res.write('one,');
    res.write('two');
    res.destroy();
    await turn();
    expect(seen).toEqual(['close']);
    const reader = (await res.response).body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('one,');
    expect(decoder.decode((await reader.read()).value)).toBe('two');
    await expect(reader.read()).rejects.toThrow('the response body was cut');
  });

  it('takes a piped node stream (an encoder) with its backpressure', async () => {
    const res = new FetchResponse(new Request('http://x/'), false);
    res.writeHead(200, ['content-encoding', 'gzip']);
    const parts = Array.from({ length: 64 }, (_, i) => `item ${i} ${'x'.repeat(1000)}\n`);
    const gzip = createGzip();
    Readable.from(parts).pipe(gzip).pipe(res);
    const body = new Uint8Array(await (await res.response).arrayBuffer());
    expect(gunzipSync(body).toString()).toBe(parts.join(''));
    await turn();
    expect(res.writableFinished).toBe(true);
  });

  it('answers a streamed HEAD with no body and finishes at the end', async () => {
    const res = new FetchResponse(new Request('http://x/', { method: 'HEAD' }), true);
    const seen = events(res);
    res.writeHead(200, ['content-type', 'text/event-stream']);
    res.flushHeaders();
    expect(res.write('data: 1\n\n')).toBe(true);
    res.end();
    expect((await res.response).body).toBe(null);
    await turn();
    expect(seen).toEqual(['finish', 'close']);
  });
});

describe('FetchResponse, the client leaving (request.signal)', () => {
  const leaving = (): { request: Request; leave: () => void } => {
    const controller = new AbortController();
    return {
      request: new Request('http://x/', { signal: controller.signal }),
      leave: () => controller.abort(),
    };
  };

  it('is not watched for a buffered answer: request.signal is never read', async () => {
    const controller = new AbortController();
    let read = 0;
    const request = new Request('http://x/', { signal: controller.signal });
    Object.defineProperty(request, 'signal', { get: () => (read++, controller.signal) });
    const res = new FetchResponse(request, false);
    res.writeHead(200, []);
    res.end('done');
    expect(await (await res.response).text()).toBe('done');
    expect(read).toBe(0);
  });

  it('once watched (a signal or deadline), destroys the response when the client leaves', async () => {
    const { request, leave } = leaving();
    const res = new FetchResponse(request, false);
    const seen = events(res);
    res.watchClient();
    leave();
    await expect(res.response).rejects.toThrow('destroyed before it was answered');
    expect(seen).toEqual(['close']);
  });

  it('is watched by a stream as it opens: a client leaving mid-stream closes it', async () => {
    const { request, leave } = leaving();
    const res = new FetchResponse(request, false);
    const seen = events(res);
    res.writeHead(200, []);
    res.write('first');
    await res.response;
    leave();
    await turn();
    expect(seen).toEqual(['close']);
    expect(res.destroyed).toBe(true);
  });
});

describe('LightEmitter (under FetchResponse)', () => {
  it('runs once listeners once, removes by the listener given, counts and lists them', () => {
    const res = new FetchResponse(new Request('http://x/'), false);
    const calls: string[] = [];
    const once = (): void => void calls.push('once');
    const on = (): void => void calls.push('on');
    res.once('drain', once);
    res.on('drain', on);
    res.prependListener('drain', () => calls.push('first'));
    expect(res.listenerCount('drain')).toBe(3);
    expect(res.listeners('drain')).toContain(once);
    expect(res.emit('drain')).toBe(true);
    expect(res.emit('drain')).toBe(true);
    expect(calls).toEqual(['first', 'once', 'on', 'first', 'on']);
    res.off('drain', on);
    expect(res.listenerCount('drain')).toBe(1);
    res.once('close', once);
    res.off('close', once);
    expect(res.emit('close')).toBe(false);
    expect(res.eventNames()).toEqual(['drain']);
  });
});
