import { describe, expect, it } from 'vitest';
import { parseSSE, SSEDecoder } from './parse-sse';

describe('parseSSE', () => {
  it('decodes data as JSON when it parses, else keeps the string', () => {
    expect(parseSSE('data: {"a":1}\n\ndata: hello\n\ndata: "hi"\n\n')).toEqual([
      { data: { a: 1 } },
      { data: 'hello' },
      { data: 'hi' },
    ]);
  });

  it('joins multi-line data with \\n and reads event, id and retry', () => {
    expect(parseSSE('event: note\nid: 7\nretry: 250\ndata: one\ndata: two\n\n')).toEqual([
      { data: 'one\ntwo', event: 'note', id: '7', retry: 250 },
    ]);
  });

  it('skips comments and blocks without data', () => {
    expect(parseSSE(': ping\n\nevent: lonely\n\n:another\ndata: 1\n\n')).toEqual([{ data: 1 }]);
  });

  it('accepts CRLF and CR line ends and a field without a space after the colon', () => {
    expect(parseSSE('data:a\r\n\r\ndata: b\r\r')).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('drops a trailing event that never got its blank line', () => {
    expect(parseSSE('data: 1\n\ndata: 2\n')).toEqual([{ data: 1 }]);
  });

  it('ignores a non-numeric retry', () => {
    expect(parseSSE('retry: soon\ndata: x\n\n')).toEqual([{ data: 'x' }]);
  });
});

describe('SSEDecoder', () => {
  it('completes events across arbitrary splits, including a split CRLF', () => {
    const decoder = new SSEDecoder();
    expect(decoder.push('data: {"n"')).toEqual([]);
    expect(decoder.push(':1}\r')).toEqual([]);
    expect(decoder.push('\n\r')).toEqual([]);
    expect(decoder.push('\ndata: 2\n\n')).toEqual([{ data: { n: 1 } }, { data: 2 }]);
  });
});
