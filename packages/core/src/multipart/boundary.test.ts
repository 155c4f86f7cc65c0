import { describe, expect, it } from 'vitest';
import { isMultipartFormData, parseBoundary } from './index';

describe('isMultipartFormData', () => {
  it.each([
    ['multipart/form-data', true],
    ['multipart/form-data; boundary=x', true],
    ['  Multipart/Form-Data ;boundary=x', true],
    ['multipart/mixed; boundary=x', false],
    ['application/x-www-form-urlencoded', false],
    ['multipart/form-datax', false],
    ['', false],
    [undefined, false],
  ])('%j → %s', (contentType, expected) => {
    expect(isMultipartFormData(contentType)).toBe(expected);
  });
});

describe('parseBoundary', () => {
  it.each([
    [
      'multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW',
      '----WebKitFormBoundary7MA4YWxkTrZu0gW',
    ],
    ['multipart/form-data; boundary="a b:c"', 'a b:c'],
    ['multipart/form-data;boundary=abc;charset=utf-8', 'abc'],
    ['MULTIPART/FORM-DATA; BOUNDARY = abc ', 'abc'],
    ['multipart/form-data; charset=utf-8; boundary="q\\"x"', 'q"x'],
    ['multipart/form-data; boundary=first; boundary=second', 'first'],
  ])('%j → %j', (contentType, expected) => {
    expect(parseBoundary(contentType)).toBe(expected);
  });

  it.each([
    undefined,
    'multipart/form-data',
    'multipart/form-data; charset=utf-8',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=""',
    'multipart/form-data; boundary="unterminated',
    `multipart/form-data; boundary=${'x'.repeat(71)}`,
    'multipart/form-data; boundary="ends with space "',
    'multipart/mixed; boundary=abc',
    'text/plain; boundary=abc',
  ])('%j → undefined', (contentType) => {
    expect(parseBoundary(contentType)).toBeUndefined();
  });

  it('accepts a 70-character boundary', () => {
    const b = 'x'.repeat(70);
    expect(parseBoundary(`multipart/form-data; boundary=${b}`)).toBe(b);
  });
});
