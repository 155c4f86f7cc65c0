import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { encodeData, encodeEvent, PING } from './encode-event';

/** Decodes with eventsource-parser, an implementation independent of ours. */
function decode(wire: string): { events: EventSourceMessage[]; retries: number[] } {
  const events: EventSourceMessage[] = [];
  const retries: number[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e), onRetry: (r) => retries.push(r) });
  parser.feed(wire);
  return { events, retries };
}

describe('encodeEvent', () => {
  it('writes event, id, retry, then data, then the blank line', () => {
    expect(encodeEvent({ data: '{"a":1}', event: 'tick', id: '7', retry: 1500 })).toBe(
      'event: tick\nid: 7\nretry: 1500\ndata: {"a":1}\n\n',
    );
  });

  it('writes only the fields that are set', () => {
    expect(encodeEvent({ data: 'x' })).toBe('data: x\n\n');
    expect(encodeEvent({ id: '3' })).toBe('id: 3\n\n');
    expect(encodeEvent({ retry: 0 })).toBe('retry: 0\n\n');
  });

  it('splits data on CR LF, CR and LF, keeping every line', () => {
    expect(encodeData('a\r\nb\rc\nd')).toBe('data: a\ndata: b\ndata: c\ndata: d\n');
    expect(encodeData('a\n')).toBe('data: a\ndata: \n');
    expect(encodeData('')).toBe('data: \n');
    expect(encodeData('\r\n\r\n')).toBe('data: \ndata: \ndata: \n');
  });

  it.each([
    ['a\n'],
    ['\n'],
    ['two\nlines'],
    ['cr\ronly'],
    ['crlf\r\nend\r\n'],
    [' leading space'],
    ['  two leading spaces'],
    [''],
    ['data: looks like a field'],
    [': looks like a comment'],
    ['\n\nblank lines\n\n'],
    ['ünïcödé ✓'],
  ])('round-trips %j through eventsource-parser (line breaks normalised to LF)', (data) => {
    const { events } = decode(encodeEvent({ data, event: 'e', id: 'i' }));
    expect(events).toEqual([{ data: data.replace(/\r\n|\r/g, '\n'), event: 'e', id: 'i' }]);
  });

  it('sends retry the parser reports', () => {
    expect(decode(encodeEvent({ retry: 2500, data: 'x' })).retries).toEqual([2500]);
  });

  it.each([
    ['event', 'a\nb'],
    ['event', 'a\rb'],
    ['event', 'a\0b'],
    ['id', 'a\nb'],
    ['id', 'a\r'],
    ['id', '\0'],
  ] as const)('refuses %s %j (CR, LF or NUL)', (field, value) => {
    expect(() => encodeEvent({ [field]: value, data: 'x' })).toThrow(
      new TypeError(
        `ServerSentEvent: ${field} contains CR, LF or NUL, which the event-stream format cannot carry`,
      ),
    );
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])('refuses retry %s', (retry) => {
    expect(() => encodeEvent({ retry })).toThrow(/retry must be a non-negative integer/);
  });

  it('keeps a NUL inside data (only id drops it)', () => {
    expect(decode(encodeEvent({ data: 'a\0b' })).events[0]?.data).toBe('a\0b');
  });

  it('pings with a comment that dispatches nothing', () => {
    expect(PING).toBe(': ping\n\n');
    expect(decode(PING + encodeEvent({ data: 'x' })).events).toEqual([
      { data: 'x', event: undefined, id: undefined },
    ]);
  });
});
