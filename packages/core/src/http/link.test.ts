import { describe, expect, it } from 'vitest';
import { formatLink } from './index';

describe('formatLink', () => {
  it('formats uri and rel', () => {
    expect(formatLink('/widgets/1', { rel: 'self' })).toBe('</widgets/1>; rel="self"');
  });

  it('adds title and type in order, escaping quotes and backslashes', () => {
    expect(
      formatLink('/w?page=2', { mediaType: 'application/json', title: 'Say "hi" \\o/', rel: 'next' }),
    ).toBe('</w?page=2>; rel="next"; title="Say \\"hi\\" \\\\o/"; type="application/json"');
  });

  it('percent-encodes the uri, including angle brackets', () => {
    expect(formatLink('/a b/<x>/ü', { rel: 'related' })).toBe('</a%20b/%3Cx%3E/%C3%BC>; rel="related"');
  });

  it('sends a non-ASCII title as title*', () => {
    expect(formatLink('/x', { rel: 'alternate', title: 'Café €' })).toBe(
      `</x>; rel="alternate"; title*=UTF-8''Caf%C3%A9%20%E2%82%AC`,
    );
  });

  it('requires a non-empty rel', () => {
    expect(() => formatLink('/x', { rel: '' })).toThrow(new TypeError('Link rel must be a non-empty string'));
    expect(() => formatLink('/x', { rel: '  ' })).toThrow(TypeError);
  });

  it('rejects CR/LF in parameters', () => {
    expect(() => formatLink('/x', { rel: 'self', title: 'a\r\nb' })).toThrow(
      new TypeError('Link title must not contain CR, LF or NUL characters'),
    );
    expect(() => formatLink('/x', { rel: 'self\n' })).toThrow(TypeError);
    expect(() => formatLink('/x', { rel: 'self', mediaType: 'text/html\r' })).toThrow(TypeError);
  });

  it('neutralises CR/LF in the uri by encoding', () => {
    expect(formatLink('/x\r\nset-cookie: a=1', { rel: 'self' })).toBe(
      '</x%0D%0Aset-cookie:%20a=1>; rel="self"',
    );
  });
});
