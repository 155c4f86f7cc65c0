import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../contract/exchange';
import { LightEmitter } from '../light-emitter';
import { DirectResponse } from './direct-response';

const text = (body: Uint8Array): string => new TextDecoder().decode(body);

function response(options: Partial<ConstructorParameters<typeof DirectResponse>[0]> = {}): DirectResponse {
  return new DirectResponse({
    signal: undefined,
    parent: undefined,
    head: false,
    maxBytes: 100,
    label: 'GET /x',
    ...options,
  });
}

/** Events of `res` in order. */
function events(res: DirectResponse): string[] {
  const seen: string[] = [];
  res.on('finish', () => seen.push('finish'));
  res.on('close', () => seen.push('close'));
  return seen;
}

describe('DirectResponse', () => {
  it('resolves a buffered answer (lower-case names, repeats joined, set-cookie a list); finish, close', async () => {
    const res = response();
    const seen = events(res);
    res.writeHead(201, [
      'Content-Type',
      'text/plain',
      'Vary',
      'a',
      'vary',
      'b',
      'Set-Cookie',
      'x=1',
      'set-cookie',
      'y=2',
    ]);
    expect(res.headersSent).toBe(true);
    res.end('done');
    expect(res.writableEnded).toBe(true);
    const answer = await res.answer;
    expect(answer.status).toBe(201);
    expect(answer.headers).toEqual({
      'content-type': 'text/plain',
      vary: 'a, b',
      'set-cookie': ['x=1', 'y=2'],
    });
    expect(text(answer.body)).toBe('done');
    expect(seen).toEqual(['finish', 'close']);
    expect(res.writableFinished).toBe(true);
  });

  it('collects a streamed answer; bodiless for HEAD and 204', async () => {
    const res = response();
    res.writeHead(200, ['Connection', 'close', 'transfer-encoding', 'chunked', 'x-a', '1']);
    expect(res.write('a')).toBe(true);
    expect(res.write(new Uint8Array([98]))).toBe(true);
    res.end('c');
    const answer = await res.answer;
    expect(text(answer.body)).toBe('abc');
    expect(answer.headers).toEqual({ 'x-a': '1' }); // no connection to say hop-by-hop fields about
    const head = response({ head: true });
    head.writeHead(200, ['content-length', '3']);
    head.end('abc');
    expect((await head.answer).body.byteLength).toBe(0);
    const empty = response();
    empty.writeHead(204, []);
    empty.end();
    expect((await empty.answer).body.byteLength).toBe(0);
  });

  it('refuses a header node:http would refuse, recording nothing', () => {
    const res = response();
    expect(() => res.writeHead(200, ['bad name', 'x'])).toThrow(TypeError);
    expect(() => res.writeHead(200, ['x-ok', 'caf\u00e9\u2603'])).toThrow('Invalid value of header "x-ok"');
    expect(res.headersSent).toBe(false);
  });

  it("over maxBytes: destroyed ('close' alone), rejects with a RangeError, later writes dropped", async () => {
    const res = response({ maxBytes: 4 });
    const seen = events(res);
    res.writeHead(200, []);
    expect(res.write('abcd')).toBe(true);
    expect(res.write('e')).toBe(false);
    expect(res.destroyed).toBe(true);
    await expect(res.answer).rejects.toThrow(
      new RangeError(
        'wiring.invoke: the answer to GET /x is over maxAnswerBytes (4 bytes); ' +
          'pass a larger maxAnswerBytes, or invoke a route that answers less',
      ),
    );
    expect(res.write('f')).toBe(false);
    await Promise.resolve();
    expect(seen).toEqual(['close']);
  });

  it('destroyed before its end: rejects; after its end: the answer stands', async () => {
    const cut = response();
    cut.writeHead(200, []);
    cut.write('partial');
    cut.destroy();
    await expect(cut.answer).rejects.toThrow('GET /x: the response was destroyed before it was complete');
    const done = response();
    done.writeHead(200, []);
    done.end('whole');
    done.destroy();
    expect(text((await done.answer).body)).toBe('whole');
  });

  it("watchClient: the signal aborting or the parent's response closing destroys it, not before watching", async () => {
    const controller = new AbortController();
    const bySignal = response({ signal: controller.signal });
    controller.abort();
    expect(bySignal.destroyed).toBe(false); // nobody watches: a route without signal or stream runs on
    bySignal.watchClient();
    expect(bySignal.destroyed).toBe(true);

    const later = new AbortController();
    const watched = response({ signal: later.signal });
    watched.watchClient();
    expect(watched.destroyed).toBe(false);
    later.abort();
    expect(watched.destroyed).toBe(true);
    await expect(watched.answer).rejects.toThrow('destroyed before it was complete');

    const parentRes = new LightEmitter();
    const parent = { res: parentRes } as unknown as Exchange;
    const child = response({ parent });
    child.writeHead(200, []);
    child.write('x'); // a stream watches by itself
    expect(parentRes.listenerCount('close')).toBe(1);
    parentRes.emit('close');
    expect(child.destroyed).toBe(true);
    await Promise.resolve();
    // Its own close removed the listener from the parent.
    expect(parentRes.listenerCount('close')).toBe(0);
  });
});
