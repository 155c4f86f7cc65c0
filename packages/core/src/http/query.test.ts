import { describe, expect, it } from 'vitest';
import { parseQuery } from './index';

const entries = (q: string): Array<[string, string[]]> => [...parseQuery(q)];

describe('parseQuery', () => {
  it('keeps every value in order and names in first-seen order', () => {
    expect(entries('b=1&a=2&b=3')).toEqual([
      ['b', ['1', '3']],
      ['a', ['2']],
    ]);
  });

  it('splits on the first "="', () => {
    expect(entries('expr=a=b=c')).toEqual([['expr', ['a=b=c']]]);
  });

  it('skips empty values, bare names, empty names and empty pairs', () => {
    expect(entries('a=&b&=x&&c=1&=')).toEqual([['c', ['1']]]);
    expect(entries('')).toEqual([]);
    expect(entries('flag&flag&x=1')).toEqual([['x', ['1']]]);
  });

  it('strips a leading "?"', () => {
    expect(entries('?a=1')).toEqual([['a', ['1']]]);
  });

  it('decodes "+" as space and percent-escapes as UTF-8', () => {
    expect(entries('q=hello+world&n%20m=%C3%A9%2B&p=a%2Bb+c')).toEqual([
      ['q', ['hello world']],
      ['n m', ['é+']],
      ['p', ['a+b c']],
    ]);
  });

  it('leaves malformed escapes as written and never throws', () => {
    expect(entries('a=100%&b=%zz%41&c=%E2%82&d=%&e=%4')).toEqual([
      ['a', ['100%']],
      ['b', ['%zzA']],
      ['c', ['\ufffd']],
      ['d', ['%']],
      ['e', ['%4']],
    ]);
  });

  it('keeps raw non-ASCII characters in the slow path', () => {
    expect(entries('a=é%zz😀')).toEqual([['a', ['é%zz😀']]]);
  });

  it('counts a value that decodes to a space as present', () => {
    expect(entries('a=+')).toEqual([['a', [' ']]]);
  });

  it('handles prototype-looking names as plain keys', () => {
    expect(parseQuery('__proto__=1&constructor=2').get('__proto__')).toEqual(['1']);
  });
});
