import { describe, expect, it } from 'vitest';
import { ServerSentEvent } from './server-sent-event';

describe('ServerSentEvent', () => {
  it('keeps its fields', () => {
    const e = new ServerSentEvent({ data: { n: 1 }, event: 'tick', id: '1', retry: 10 });
    expect(e).toMatchObject({ data: { n: 1 }, event: 'tick', id: '1', retry: 10 });
  });

  it('checks event, id and retry at construction, naming the field', () => {
    expect(() => new ServerSentEvent({ event: 'a\nb' })).toThrow(/event contains CR, LF or NUL/);
    expect(() => new ServerSentEvent({ id: 'a\0' })).toThrow(/id contains CR, LF or NUL/);
    expect(() => new ServerSentEvent({ retry: -5 })).toThrow(/retry must be a non-negative integer/);
  });
});
