import { describe, expect, it } from 'vitest';
import { assertHeaderValue } from './index';

describe('assertHeaderValue', () => {
  it('accepts ordinary values, including tabs and non-ASCII', () => {
    expect(() => assertHeaderValue('x-a', 'a\tb c é')).not.toThrow();
    expect(() => assertHeaderValue('x-a', '')).not.toThrow();
  });

  it.each(['a\rb', 'a\nb', 'a\u0000b', '\r\n'])('rejects %j naming the header, not the value', (value) => {
    expect(() => assertHeaderValue('location', value)).toThrow(
      new TypeError('Header "location" value must not contain CR, LF or NUL characters'),
    );
  });
});
