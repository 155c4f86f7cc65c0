import { describe, expect, it } from 'vitest';
import { partsOf } from './fetch-handler';

describe('partsOf', () => {
  it('splits a serialized URL exactly as new URL() reads it', () => {
    const hrefs = [
      'http://api.test/widgets',
      'http://api.test/',
      'https://api.test:8443/a/b?x=1&y=2',
      'http://127.0.0.1:3000/info?',
      'http://127.0.0.1:3000/info?#frag',
      'http://[::1]:8080/p%20q?a=%41#x?y',
      'http://api.test/a#b?c',
      'https://api.test/a/../b/./c?q=/..',
      'http://api.test/@me?x=@',
      'http://api.test?x=1',
    ];
    for (const raw of hrefs) {
      // A Request's url is its URL serialized: that string is what partsOf gets.
      const href = new URL(raw).href;
      const url = new URL(href);
      expect(partsOf(href), href).toEqual({ origin: url.origin, pathname: url.pathname, search: url.search });
    }
    // Userinfo (a Request refuses it; a hand-made string may carry it): parsed, never split.
    expect(partsOf('http://user:secret@api.test/private?x=1')).toEqual({
      origin: 'http://api.test',
      pathname: '/private',
      search: '?x=1',
    });
  });
});
