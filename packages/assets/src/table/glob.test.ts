import { describe, expect, it } from 'vitest';
import { compileGlob, compileGlobs } from './glob';

const matches = (glob: string, path: string): boolean => compileGlob(glob)(path);

describe('compileGlob (fnmatch)', () => {
  it('* matches any run of characters, / included', () => {
    expect(matches('*', 'a/b/c.txt')).toBe(true);
    expect(matches('*.css', 'css/deep/site.css')).toBe(true);
    expect(matches('css/*', 'css/a/b.css')).toBe(true);
    expect(matches('css/*', 'js/css/a.css')).toBe(false);
    expect(matches('*.css', 'site.css.map')).toBe(false);
  });

  it('? matches exactly one character, / included', () => {
    expect(matches('?.txt', 'a.txt')).toBe(true);
    expect(matches('?.txt', 'ab.txt')).toBe(false);
    expect(matches('a?b', 'a/b')).toBe(true);
  });

  it('[seq], [!seq] and ranges', () => {
    expect(matches('[ab].txt', 'b.txt')).toBe(true);
    expect(matches('[ab].txt', 'c.txt')).toBe(false);
    expect(matches('[!ab].txt', 'c.txt')).toBe(true);
    expect(matches('[!ab].txt', 'a.txt')).toBe(false);
    expect(matches('v[0-9].js', 'v7.js')).toBe(true);
    expect(matches('v[0-9].js', 'vx.js')).toBe(false);
    expect(matches('[]].txt', '].txt')).toBe(true);
    expect(matches('[!]].txt', 'a.txt')).toBe(true);
    expect(matches('[a-].txt', '-.txt')).toBe(true);
    expect(matches('[z-a].txt', 'm.txt')).toBe(false);
    expect(matches('[\\].txt', '\\.txt')).toBe(true);
    expect(matches('[^a].txt', '^.txt')).toBe(true);
  });

  it('an unclosed [ is literal', () => {
    expect(matches('[ab.txt', '[ab.txt')).toBe(true);
    expect(matches('[ab.txt', 'a.txt')).toBe(false);
  });

  it('is case-sensitive and treats regex characters literally', () => {
    expect(matches('*.TXT', 'a.txt')).toBe(false);
    expect(matches('a+b.txt', 'aab.txt')).toBe(false);
    expect(matches('a+b.txt', 'a+b.txt')).toBe(true);
    expect(matches('(x)|{y}$.txt', '(x)|{y}$.txt')).toBe(true);
    expect(matches('a.txt', 'abtxt')).toBe(false);
  });

  it('handles non-ASCII names and newlines in names', () => {
    expect(matches('caf?.txt', 'café.txt')).toBe(true);
    expect(matches('[é].txt', 'é.txt')).toBe(true);
    expect(matches('*', 'a\nb')).toBe(true);
  });
});

describe('compileGlobs', () => {
  it('matches when any glob matches; an empty list matches nothing', () => {
    expect(compileGlobs(['*.css', '*.js'])('a.js')).toBe(true);
    expect(compileGlobs(['*.css', '*.js'])('a.png')).toBe(false);
    expect(compileGlobs([])('a.png')).toBe(false);
  });
});
