import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { BodyRead } from '../src/binding/body';
import { jsonBinder, type BindingExchange } from '../src/binding/binders';
import { Uploads } from '../src/binding/body';
import { defaultLimits } from '../src/contract/limits';
import { MalformedRequestError, PayloadTooLargeError } from '../src/errors';
import type { ExchangeRequest } from '../src/contract/exchange';
import type { Later } from '../src/binding/body';

/** A request stream as BodyRead uses it: events, `off`, `resume`. */
function fakeRequest(): EventEmitter & { resumed: boolean } {
  const req = Object.assign(new EventEmitter(), { resumed: false, headers: {} });
  Object.assign(req, { resume: () => ((req.resumed = true), req) });
  return req;
}
const read = (req: EventEmitter, limit: number) => new BodyRead(req as unknown as ExchangeRequest, limit);
const outcome = (later: Later<unknown>): unknown[] => {
  const got: unknown[] = [];
  later.onSettled((ok, value) => got.push(ok, value));
  return got;
};

describe('BodyRead', () => {
  it('gives one chunk as is, several as one Buffer, none as an empty one', () => {
    const one = fakeRequest();
    const chunk = Buffer.from('{"a":1}');
    const got1 = outcome(read(one, 100));
    one.emit('data', chunk);
    one.emit('end');
    one.emit('close'); // the late close of every request changes nothing
    expect(got1).toEqual([true, chunk]);
    expect(got1[1]).toBe(chunk);

    const three = fakeRequest();
    const got3 = outcome(read(three, 100));
    for (const part of ['ab', 'cd', 'ef']) three.emit('data', Buffer.from(part));
    three.emit('end');
    expect(got3[0]).toBe(true);
    expect((got3[1] as Buffer).toString()).toBe('abcdef');

    const none = fakeRequest();
    const got0 = outcome(read(none, 100));
    none.emit('end');
    expect(got0[0]).toBe(true);
    expect((got0[1] as Buffer).length).toBe(0);
  });

  it('fails with 413 as soon as the stream crosses the limit, and stops buffering', () => {
    const req = fakeRequest();
    const got = outcome(read(req, 5));
    req.emit('data', Buffer.from('abc'));
    req.emit('data', Buffer.from('def'));
    expect(got[0]).toBe(false);
    expect(got[1]).toBeInstanceOf(PayloadTooLargeError);
    expect(req.resumed).toBe(true);
    expect(req.listenerCount('data')).toBe(0);
    req.emit('end');
    expect(got).toHaveLength(2);
  });

  it('fails with 400 when the connection closes mid-body', () => {
    const req = fakeRequest();
    const got = outcome(read(req, 100));
    req.emit('data', Buffer.from('{"a"'));
    req.emit('close');
    expect(got[0]).toBe(false);
    expect(got[1]).toBeInstanceOf(MalformedRequestError);
    expect((got[1] as MalformedRequestError).status).toBe(400);
  });

  it('runs its finished hook once, before the waiters', () => {
    const order: string[] = [];
    class Hooked extends BodyRead {
      protected override finished(): void {
        order.push('finished');
      }
    }
    const req = fakeRequest();
    const later = new Hooked(req as unknown as ExchangeRequest, 100);
    later.onSettled(() => order.push('waiter'));
    req.emit('end');
    req.emit('close');
    expect(order).toEqual(['finished', 'waiter']);
  });
});

describe('a body binder keeps runtime.reading to the requests still reading', () => {
  const schema = v.object({ a: v.number() });
  const exchange = (headers: Record<string, string>) => {
    const req = Object.assign(fakeRequest(), { headers });
    const reading = new Uploads<BindingExchange>();
    // The view's state changes through its methods, as on core's exchange.
    const ex = {
      req,
      runtime: { reading },
      body: undefined as unknown,
      readingAt: -1,
      keepBody(body: unknown) {
        this.body = body;
      },
      closeAfterAnswer() {},
    };
    return { req, reading, ex: ex as unknown as BindingExchange };
  };

  it('lists a read while it runs and unlists it when the body ends', () => {
    const { req, reading, ex } = exchange({ 'content-type': 'application/json' });
    const got = outcome(jsonBinder(schema, defaultLimits)(ex) as Later<unknown>);
    expect(reading.size).toBe(1);
    req.emit('data', Buffer.from('{"a":1}'));
    req.emit('end');
    expect(reading.size).toBe(0);
    expect(got).toEqual([true, { a: 1 }]);
  });

  it('never lists a body refused by its declared length (it was left there for good before)', () => {
    const limits = { ...defaultLimits, maxBodyBytes: 10 };
    const { reading, ex } = exchange({ 'content-type': 'application/json', 'content-length': '11' });
    const got = outcome(jsonBinder(schema, limits)(ex) as Later<unknown>);
    expect(got[0]).toBe(false);
    expect(got[1]).toBeInstanceOf(PayloadTooLargeError);
    expect(reading.size).toBe(0);
    expect(ex.readingAt).toBe(-1);
  });
});
