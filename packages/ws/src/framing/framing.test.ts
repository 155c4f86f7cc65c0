import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Struct, WiringError } from '@api/core';
import { compileFraming, Refusal } from './framing';

const Ping = Struct('Ping', { text: v.pipe(v.string(), v.maxLength(5)) }, { tag: true });
const Join = Struct('Join', { room: v.string(), times: v.optional(v.number(), 1) }, { tag: true });
const Plain = Struct('Plain', { text: v.string() });

const text = (value: unknown): Buffer =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('compileFraming', () => {
  it('accepts a tagged Struct, a list, v.union and v.variant("type") of them', () => {
    for (const framing of [Ping, [Ping, Join], v.union([Ping, Join]), v.variant('type', [Ping, Join])]) {
      const codec = compileFraming('T inbound', framing);
      expect(codec.kind).toBe('json');
      expect(codec.binary).toBe(false);
    }
    expect(compileFraming('T', [Ping, Join]).tags).toEqual(['Ping', 'Join']);
  });

  it("accepts the 'string' and 'bytes' markers", () => {
    expect(compileFraming('T', 'string')).toMatchObject({ kind: 'string', binary: false });
    expect(compileFraming('T', 'bytes')).toMatchObject({ kind: 'bytes', binary: true });
  });

  it.each([
    ['an untagged Struct', Plain, /Struct Plain is not tagged.*tag: true/],
    ['an untagged member', [Ping, Plain], /Struct Plain is not tagged/],
    ['a bare schema', v.string(), /a v\.string schema is not a tagged Struct/],
    ['a mixed form', ['string', Ping], /mixes "string" with JSON messages/],
    ['an unknown marker', 'text', /"text" is not a framing/],
    ['an empty list', [], /empty list/],
    ['a number', 42, /number is not a framing/],
    [
      'a variant on another key',
      v.variant('kind', [Struct('K', { kind: v.literal('k') })]),
      /discriminates on "kind"/,
    ],
    [
      'two members with one tag',
      [Ping, Struct('Ping', { other: v.number() }, { tag: true })],
      /two messages are tagged "Ping"/,
    ],
  ])('refuses %s with a WiringError naming the place and the fix', (_label, framing, message) => {
    let error: unknown;
    try {
      compileFraming('ChatSocket inbound', framing);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WiringError);
    expect((error as Error).message).toMatch(/^ChatSocket inbound: /);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/Fix: /);
  });
});

describe('JSON framing: decode', () => {
  const codec = compileFraming('T', [Ping, Join]);

  it('decodes a valid message to the schema output (defaults applied, extra keys dropped)', () => {
    expect(codec.decode(text({ type: 'Join', room: 'a', extra: 1 }), false)).toEqual({
      type: 'Join',
      room: 'a',
      times: 1,
    });
  });

  it('refuses a binary frame with 1003', () => {
    expect(codec.decode(text({ type: 'Ping', text: 'x' }), true)).toEqual(
      new Refusal(1003, 'expected text frames'),
    );
  });

  it('refuses malformed JSON with 1007', () => {
    expect(codec.decode(text('{"type":'), false)).toEqual(new Refusal(1007, 'malformed JSON'));
  });

  it('refuses an unknown or missing type with 1008, naming the accepted types', () => {
    for (const value of [{ type: 'Nope' }, { text: 'x' }, [1], 'str', null, 3]) {
      const frame = Buffer.from(JSON.stringify(value));
      expect(codec.decode(frame, false)).toEqual(new Refusal(1008, 'expected type "Ping" | "Join"'));
    }
  });

  it('refuses a schema-invalid message with 1008 and never echoes the submitted value', () => {
    const refusal = codec.decode(text({ type: 'Ping', text: 'secret-value' }), false) as Refusal;
    expect(refusal).toBeInstanceOf(Refusal);
    expect(refusal.code).toBe(1008);
    expect(refusal.reason).toContain('$.text');
    expect(refusal.reason).not.toContain('secret');
  });

  it('keeps a composed reason within 123 UTF-8 bytes', () => {
    const many = Array.from({ length: 30 }, (_, i) => Struct(`Message${i}`, {}, { tag: true }));
    const refusal = compileFraming('T', many).decode(text({ type: 'x' }), false) as Refusal;
    expect(Buffer.byteLength(refusal.reason)).toBeLessThanOrEqual(123);
    expect(refusal.reason.endsWith('...')).toBe(true);
  });

  it('parses __proto__ keys as data, never as a prototype', () => {
    const decoded = codec.decode(text('{"type":"Join","room":"r","__proto__":{"polluted":true}}'), false);
    expect(decoded).toEqual({ type: 'Join', room: 'r', times: 1 });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('JSON framing: encode', () => {
  const codec = compileFraming('ChatSocket outbound', [Ping, Join]);

  it('emits exactly the declared fields, in declaration order', () => {
    expect(codec.encode({ room: 'r', type: 'Join', times: 2, leaked: 'x' })).toBe(
      '{"type":"Join","room":"r","times":2}',
    );
  });

  it('refuses an unknown type and an invalid message with a TypeError', () => {
    expect(() => codec.encode({ type: 'Nope' })).toThrow(TypeError);
    expect(() => codec.encode({ type: 'Nope' })).toThrow(/"type" of "Ping" \| "Join"/);
    expect(() => codec.encode({ type: 'Ping', text: 'too long' })).toThrow(
      /ChatSocket outbound: an outbound Ping does not match its schema: .*\$\.text/,
    );
  });
});

describe('string and bytes framings', () => {
  it('string: text frames in and out, binary frames refused with 1003', () => {
    const codec = compileFraming('T', 'string');
    expect(codec.decode(Buffer.from('héllo'), false)).toBe('héllo');
    expect(codec.decode(Buffer.from('x'), true)).toEqual(new Refusal(1003, 'expected text frames'));
    expect(codec.encode('out')).toBe('out');
    expect(() => codec.encode(42)).toThrow(TypeError);
  });

  it('bytes: binary frames in and out, text frames refused with 1003', () => {
    const codec = compileFraming('T', 'bytes');
    const data = Buffer.from([1, 2, 3]);
    expect(codec.decode(data, true)).toBe(data);
    expect(codec.decode(data, false)).toEqual(new Refusal(1003, 'expected binary frames'));
    expect(codec.encode(new Uint8Array([9]))).toEqual(new Uint8Array([9]));
    expect(() => codec.encode('text')).toThrow(TypeError);
  });
});
