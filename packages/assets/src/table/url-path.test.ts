import { describe, expect, it } from 'vitest';
import { rawPath, routePath } from './url-path';

describe('routePath', () => {
  it('joins the prefix and the segments, keeping URL-safe characters', () => {
    expect(routePath('/assets', 'css/site.css')).toBe('/assets/css/site.css');
    expect(routePath('', 'a.txt')).toBe('/a.txt');
    expect(routePath('/x', "a-b_c.~!$&'()*+,;=:@[]|^.txt")).toBe("/x/a-b_c.~!$&'()*+,;=:@[]|^.txt");
  });

  it('percent-encodes what a browser encodes in a path, plus % and \\', () => {
    expect(routePath('/a', 'my file.txt')).toBe('/a/my%20file.txt');
    expect(routePath('/a', '{id}.txt')).toBe('/a/%7Bid%7D.txt');
    expect(routePath('/a', 'q?#"<>`.txt')).toBe('/a/q%3F%23%22%3C%3E%60.txt');
    expect(routePath('/a', '100%.txt')).toBe('/a/100%25.txt');
    expect(routePath('/a', 'back\\slash.txt')).toBe('/a/back%5Cslash.txt');
    expect(routePath('/a', 'café/日本.txt')).toBe('/a/caf%C3%A9/%E6%97%A5%E6%9C%AC.txt');
    expect(routePath('/a', 'tab\there.txt')).toBe('/a/tab%09here.txt');
    expect(routePath('/a', 'emoji😀.txt')).toBe('/a/emoji%F0%9F%98%80.txt');
  });

  it('agrees with the WHATWG URL parser on every printable ASCII character but % and \\', () => {
    for (let c = 0x21; c < 0x7f; c++) {
      const ch = String.fromCharCode(c);
      if (ch === '/' || ch === '%' || ch === '\\' || ch === '.') continue;
      const name = `a${ch}b.txt`;
      const viaUrl = new URL(`http://h/assets/${name}`).pathname;
      // '#' and '?' would end the path in a URL string: the parser never sees them as path characters.
      if (ch === '#' || ch === '?') continue;
      expect(routePath('/assets', name), name).toBe(viaUrl);
    }
  });
});

describe('rawPath', () => {
  it('keeps what a non-encoding client sends raw ({ } " < > `), encodes the rest like routePath', () => {
    expect(rawPath('/assets', '{locale}/a.css')).toBe('/assets/{locale}/a.css');
    expect(rawPath('/a', 'q`"<>.txt')).toBe('/a/q`"<>.txt');
    expect(rawPath('/a', '{x} 100%?#\\é.txt')).toBe('/a/{x}%20100%25%3F%23%5C%C3%A9.txt');
    expect(rawPath('/a', 'css/site.css')).toBe(routePath('/a', 'css/site.css'));
  });
});
