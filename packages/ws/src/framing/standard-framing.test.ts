// The Standard Schema framing at declaration (tags read from JSON Schema, WiringErrors) and its
// codec: decode (sync, async, a schema that throws), encode (output written, refusals by path).
import { type } from 'arktype';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WiringError } from '@api/core';
import type { StandardSchemaV1 } from '@api/core/extension';
import { compileFraming, Refusal } from './framing';

const text = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const A = z.object({ type: z.literal('A'), n: z.number() });
const B = z.object({ type: z.literal('B'), at: z.date().transform((d) => d.getTime()) });

/** A hand-made Standard Schema without `~standard.jsonSchema`. */
const Bare: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) },
};

function wiringFailure(framing: unknown, direction: 'inbound' | 'outbound' = 'inbound'): WiringError {
  try {
    compileFraming('T inbound', framing, direction);
  } catch (error) {
    if (error instanceof WiringError) return error;
    throw error;
  }
  throw new Error('no WiringError');
}

describe('compileFraming with a Standard Schema', () => {
  it('reads the tags of a zod union, one object and an ArkType union (transforms left open)', () => {
    expect(compileFraming('T', z.discriminatedUnion('type', [A, B]), 'outbound').tags).toEqual(['A', 'B']);
    expect(compileFraming('T', z.union([A, B]), 'inbound').tags).toEqual(['A', 'B']);
    expect(compileFraming('T', A, 'inbound')).toMatchObject({ kind: 'json', binary: false, tags: ['A'] });
    const ark = type({ type: "'X'", n: 'number' }).or({ type: "'Y'" });
    expect([...compileFraming('T', ark, 'inbound').tags].sort()).toEqual(['X', 'Y']);
  });

  it.each([
    ['no JSON Schema', Bare, 'API_WIRING_WS_FRAMING', /type" from the library's JSON Schema/],
    [
      'a type that is not a literal',
      z.object({ type: z.string() }),
      'API_WIRING_WS_FRAMING',
      /not one literal string/,
    ],
    ['no type at all', z.object({ text: z.string() }), 'API_WIRING_WS_FRAMING', /not one literal string/],
    ['a list of Standard Schemas', [A, B], 'API_WIRING_WS_FRAMING', /a list holding a Standard Schema/],
    [
      'two members with one tag',
      z.union([A, A.extend({ m: z.string() })]),
      'API_WIRING_DUPLICATE',
      /two messages are tagged "A"/,
    ],
  ])('refuses %s with a WiringError', (_, framing, code, message) => {
    const error = wiringFailure(framing);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).toContain('T inbound');
  });

  it('decodes to the schema output, refusing by path without the value', () => {
    const codec = compileFraming('T', z.discriminatedUnion('type', [A, B]), 'inbound');
    expect(codec.decode(text({ type: 'A', n: 1 }), false)).toEqual({ type: 'A', n: 1 });
    expect(codec.decode(text({ type: 'A', n: 'secret' }), false)).toEqual(
      new Refusal(1008, 'Expected number, got string at `$.n`'),
    );
    expect(codec.decode(text({ type: 'C' }), false)).toEqual(new Refusal(1008, 'expected type "A" | "B"'));
    expect(codec.decode(Buffer.from('{'), false)).toEqual(new Refusal(1007, 'malformed JSON'));
    expect(codec.decode(text({ type: 'A', n: 1 }), true)).toEqual(new Refusal(1003, 'expected text frames'));
  });

  it('answers a promise only for an async schema, and a 1011 refusal for one that throws', async () => {
    const Later = z.object({ type: z.literal('L'), n: z.number().refine(async (n) => n > 0) });
    const codec = compileFraming('T', Later, 'inbound');
    expect(codec.mayDefer).toBe(true);
    const ok = codec.decode(text({ type: 'L', n: 1 }), false);
    expect(ok).toBeInstanceOf(Promise);
    expect(await ok).toEqual({ type: 'L', n: 1 });
    expect(await codec.decode(text({ type: 'L', n: 0 }), false)).toEqual(
      new Refusal(1008, 'Invalid value at `$.n`'),
    );
    const Throws = z.object({
      type: z.literal('T'),
      n: z.number().refine(() => {
        throw new Error('boom');
      }),
    });
    // zod retries a refinement that throws asynchronously, whose promise then rejects.
    expect(await compileFraming('T', Throws, 'inbound').decode(text({ type: 'T', n: 1 }), false)).toEqual(
      new Refusal(1011, 'message validation failed'),
    );
    const SyncThrow: StandardSchemaV1 = {
      '~standard': {
        ...A['~standard'],
        validate: () => {
          throw new Error('boom');
        },
      },
    };
    expect(compileFraming('T', SyncThrow, 'inbound').decode(text({ type: 'A', n: 1 }), false)).toEqual(
      new Refusal(1011, 'message validation failed'),
    );
    const Rejects: StandardSchemaV1 = {
      '~standard': { ...A['~standard'], validate: () => Promise.reject(new Error('boom')) },
    };
    expect(await compileFraming('T', Rejects, 'inbound').decode(text({ type: 'A', n: 1 }), false)).toEqual(
      new Refusal(1011, 'message validation failed'),
    );
  });

  it("encodes the schema's output and refuses a mismatch, an unknown type and an async schema", () => {
    const codec = compileFraming('T outbound', z.discriminatedUnion('type', [A, B]), 'outbound');
    expect(codec.encode({ type: 'B', at: new Date(5) })).toBe('{"type":"B","at":5}');
    expect(() => codec.encode({ type: 'A', n: 'secret' })).toThrow(
      new TypeError(
        'T outbound: an outbound A does not match its schema: Expected number, got string at `$.n`',
      ),
    );
    expect(() => codec.encode({ type: 'Z' })).toThrow(
      new TypeError('T outbound: an outbound message needs a "type" of "A" | "B"'),
    );
    const Later = z.object({ type: z.literal('L'), n: z.number().refine(async () => true) });
    expect(() => compileFraming('T outbound', Later, 'outbound').encode({ type: 'L', n: 1 })).toThrow(
      /validates asynchronously/,
    );
  });

  it('keeps the tagged Structs path synchronous', () => {
    expect(compileFraming('T', 'string').mayDefer).toBe(false);
  });
});
