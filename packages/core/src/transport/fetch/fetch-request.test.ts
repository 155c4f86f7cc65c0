import { describe, expect, it } from 'vitest';
import { FetchRequest } from './fetch-request';

const requestOf = (headers: Record<string, string>): FetchRequest =>
  new FetchRequest(new Request('http://x/p', { headers }), '/p', 'http', 'http://x');

describe('FetchRequest.headers', () => {
  it('reads a name as node:http does: lower-case names, absent ones undefined', () => {
    const req = requestOf({ 'Content-Type': 'application/json', 'X-Many': 'a' });
    const headers = req.headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-many']).toBe('a');
    expect(headers['x-absent']).toBeUndefined();
    // node's record has no other spelling, and no such field as a name a Headers refuses.
    expect(headers['Content-Type']).toBeUndefined();
    expect(headers['not a name']).toBeUndefined();
    expect(typeof headers.hasOwnProperty).toBe('function');
  });

  it('behaves as the whole record for keys, in, spread and writes', () => {
    const req = requestOf({ accept: 'text/plain', 'x-a': '1' });
    const headers = req.headers;
    expect('accept' in headers).toBe(true);
    expect('x-absent' in headers).toBe(false);
    expect(Object.keys(headers).sort()).toEqual(['accept', 'x-a']);
    expect({ ...headers }).toEqual({ accept: 'text/plain', 'x-a': '1' });
    expect(JSON.stringify(headers)).toBe(JSON.stringify({ accept: 'text/plain', 'x-a': '1' }));
    headers['x-added'] = 'yes';
    delete headers['x-a'];
    expect(headers['x-added']).toBe('yes');
    expect(headers['x-a']).toBeUndefined();
    // From now on the record itself is handed out, with the same contents.
    expect(req.headers).toEqual({ accept: 'text/plain', 'x-added': 'yes' });
  });

  it('agrees with rawHeaders and headersDistinct, whichever is read first', () => {
    const req = requestOf({ 'x-b': '2', 'x-a': '1' });
    const view = req.headers;
    expect(req.rawHeaders).toEqual(['x-a', '1', 'x-b', '2']);
    expect(req.headersDistinct).toEqual({ 'x-a': ['1'], 'x-b': ['2'] });
    expect(view['x-b']).toBe('2');
    expect(req.headers).toEqual({ 'x-a': '1', 'x-b': '2' });
  });
});
