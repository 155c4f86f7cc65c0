import { describe, expect, it } from 'vitest';
import {
  assertHookPairs,
  isOwnedHeader,
  isSingletonHeader,
  OWNED_HEADERS,
  pushConstantsOnce,
  pushOnce,
  SINGLETON_HEADERS,
} from './owned-fields';

describe('isOwnedHeader / isSingletonHeader', () => {
  it('knows the owned fields in any case, and that each is sent once except content-encoding (a list)', () => {
    for (const name of OWNED_HEADERS) {
      expect(isOwnedHeader(name.toUpperCase())).toBe(true);
      expect(isSingletonHeader(name)).toBe(name !== 'content-encoding');
    }
    expect(isOwnedHeader('server')).toBe(false);
    expect(isOwnedHeader('x-trace-id')).toBe(false);
  });

  it('lists singletons only: list fields may repeat', () => {
    for (const name of SINGLETON_HEADERS) expect(isSingletonHeader(name)).toBe(true);
    for (const name of ['set-cookie', 'vary', 'link', 'cache-control', 'www-authenticate', 'allow', 'via'])
      expect(isSingletonHeader(name)).toBe(false);
  });
});

describe('pushOnce', () => {
  it('adds a list field again, refuses a second line of a singleton in any case', () => {
    const out = ['content-type', 'application/json', 'vary', 'a'];
    pushOnce(out, 'Vary', 'b', 'test');
    expect(out).toEqual(['content-type', 'application/json', 'vary', 'a', 'Vary', 'b']);
    expect(() => pushOnce(out, 'Content-Type', 'text/plain', "the response's rawHeaders")).toThrow(
      'the response\'s rawHeaders adds "content-type", which the answer already carries',
    );
  });
});

describe('assertHookPairs', () => {
  const head = ['content-type', 'application/json', 'server', 'api'];
  it('passes other names, and a singleton the head does not hold', () => {
    expect(() =>
      assertHookPairs(
        [
          ['x-a', '1'],
          ['retry-after', '2'],
        ],
        200,
        head,
        'hook',
      ),
    ).not.toThrow();
  });
  it('refuses framing, owned fields, a singleton the head holds, and one the hook gives twice', () => {
    expect(() => assertHookPairs([['Content-Length', '1']], 200, head, 'hook')).toThrow('a framing header');
    expect(() => assertHookPairs([['ETag', '"a"']], 200, head, 'hook')).toThrow(
      'hook sets "etag", a field the response itself sends',
    );
    expect(() => assertHookPairs([['Server', 'b']], 200, head, 'hook')).toThrow('hook adds "server"');
    expect(() =>
      assertHookPairs(
        [
          ['age', '1'],
          ['Age', '2'],
        ],
        200,
        head,
        'hook',
      ),
    ).toThrow('hook adds "age"');
  });
});

describe('pushConstantsOnce', () => {
  it('adds every constant when the head holds none of the singletons', () => {
    const head = ['content-type', 'application/json'];
    expect(pushConstantsOnce(head, ['server', 'api', 'vary', 'x'], ['server'])).toBeUndefined();
    expect(head).toEqual(['content-type', 'application/json', 'server', 'api', 'vary', 'x']);
  });
  it("keeps the answer's own line and reports the clash", () => {
    const head = ['Server', 'own'];
    const clash = pushConstantsOnce(head, ['server', 'api', 'vary', 'x'], ['server']);
    expect(head).toEqual(['Server', 'own', 'vary', 'x']);
    expect(clash?.message).toContain('a constant response header hook adds "server"');
  });
});
