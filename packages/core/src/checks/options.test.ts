import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { WiringError } from '../contract/wiring-error';
import { checkKnownKeys, checkOptions } from './options';

const seconds = 'a whole number of seconds';
const Options = v.object({
  maxAge: v.optional(v.pipe(v.number(seconds), v.integer(seconds), v.minValue(0, seconds)), 600),
  allowCredentials: v.optional(v.boolean('true or false')),
  levels: v.optional(v.object({ br: v.optional(v.number()) })),
  names: v.optional(v.array(v.string('a string'))),
});
const fixes = {
  maxAge: 'e.g. maxAge: 600',
  allowCredentials: 'allowCredentials: true',
  levels: 'e.g. levels: { br: 4 }',
  names: "e.g. names: ['a']",
};

function thrown(fn: () => unknown): WiringError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WiringError);
    return error as WiringError;
  }
  throw new Error('did not throw');
}

describe('checkOptions', () => {
  it('returns the output with defaults, for an object or nothing', () => {
    expect(checkOptions('new Cache()', Options, { allowCredentials: true }, { fixes })).toEqual({
      maxAge: 600,
      allowCredentials: true,
    });
    expect(checkOptions('new Cache()', Options, undefined, { fixes })).toEqual({ maxAge: 600 });
  });

  it('refuses what is not a plain object, naming its kind and the keys', () => {
    for (const given of [null, 'x', [], new Map()]) {
      const e = thrown(() => checkOptions('new Cache()', Options, given, { fixes }));
      expect([e.code, e.where]).toEqual(['API_WIRING_INVALID_ARGUMENT', 'new Cache()']);
      expect(e.fix).toBe(
        'pass { maxAge, allowCredentials, levels, names } (each optional) or nothing for the defaults',
      );
    }
    expect(thrown(() => checkOptions('new Cache()', Options, new Map(), { fixes })).problem).toBe(
      'the options must be an object, got an instance of Map',
    );
  });

  it('refuses an unknown key with the closest known one and the note', () => {
    const e = thrown(() =>
      checkOptions('new Cache()', Options, { maxAg: 1 }, { fixes, unknownNote: 'see docs' }),
    );
    expect(e.message).toBe(
      'new Cache(): unknown option "maxAg" (did you mean "maxAge"?). ' +
        'Fix: use only maxAge, allowCredentials, levels, names (see docs).',
    );
    expect(e.code).toBe('API_WIRING_UNKNOWN_OPTION');
    expect(thrown(() => checkOptions('x', Options, { zzzzzz: 1 }, { fixes })).problem).toBe(
      'unknown option "zzzzzz"',
    );
  });

  it('names the key, the expectation (the schema message) and the kind received, with the key fix', () => {
    expect(thrown(() => checkOptions('new Cache()', Options, { maxAge: '600' }, { fixes })).message).toBe(
      'new Cache(): maxAge must be a whole number of seconds, got a string. Fix: e.g. maxAge: 600.',
    );
    expect(thrown(() => checkOptions('new Cache()', Options, { maxAge: -1 }, { fixes })).problem).toBe(
      'maxAge must be a whole number of seconds, got -1',
    );
    const nested = thrown(() => checkOptions('new Cache()', Options, { levels: { br: 'x' } }, { fixes }));
    expect([nested.problem, nested.fix]).toEqual([
      'levels.br must be number, got a string',
      'e.g. levels: { br: 4 }',
    ]);
    expect(thrown(() => checkOptions('c', Options, { names: ['a', 1] }, { fixes })).problem).toBe(
      'names[1] must be a string, got 1',
    );
  });

  it('uses the code given for a key', () => {
    const e = thrown(() =>
      checkOptions(
        'c',
        Options,
        { allowCredentials: 1 },
        { fixes, codes: { allowCredentials: 'API_WIRING_LIMIT' } },
      ),
    );
    expect([e.code, e.problem]).toEqual([
      'API_WIRING_LIMIT',
      'allowCredentials must be true or false, got 1',
    ]);
  });

  it('asks for the required keys when some are (and refuses nothing for them)', () => {
    const Key = v.object({ name: v.string('a name'), note: v.optional(v.string()) });
    const e = thrown(() =>
      checkOptions('SecurityScheme.apiKey', Key, undefined, { fixes: { name: 'n', note: 'x' } }),
    );
    expect([e.problem, e.fix]).toEqual([
      'the options must be an object, got undefined',
      'pass { name, note }',
    ]);
    expect(
      thrown(() => checkOptions('k', Key, {}, { fixes: { name: "e.g. name: 'k'", note: 'x' } })).message,
    ).toBe("k: name is required. Fix: e.g. name: 'k'.");
  });
});

describe('checkKnownKeys', () => {
  it('passes known keys and refuses others', () => {
    expect(() =>
      checkKnownKeys('otel(options)', { propagator: 1 }, ['tracerProvider', 'propagator']),
    ).not.toThrow();
    const e = thrown(() =>
      checkKnownKeys('otel(options)', { propagater: 1 }, ['tracerProvider', 'propagator']),
    );
    expect(e.message).toBe(
      'otel(options): unknown option "propagater" (did you mean "propagator"?). ' +
        'Fix: use only tracerProvider, propagator.',
    );
  });
});
