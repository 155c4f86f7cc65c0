import { describe, expect, it } from 'vitest';
import { NDJSONDecoder, parseNDJSON } from './parse-ndjson';

describe('parseNDJSON', () => {
  it('decodes one value per line, skipping blank lines and tolerating CRLF', () => {
    expect(parseNDJSON('{"a":1}\r\n\n[2]\n"three"')).toEqual([{ a: 1 }, [2], 'three']);
  });

  it('rejects a line that is not JSON, naming it', () => {
    expect(() => parseNDJSON('{"a":1}\nnope\n')).toThrow(/line is not JSON: "nope"/);
  });
});

describe('NDJSONDecoder', () => {
  it('yields items only once their line ends', () => {
    const decoder = new NDJSONDecoder();
    expect(decoder.push('{"a":1}\n{"a"')).toEqual([{ a: 1 }]);
    expect(decoder.push(':2}')).toEqual([]);
    expect(decoder.end()).toEqual([{ a: 2 }]);
  });
});
