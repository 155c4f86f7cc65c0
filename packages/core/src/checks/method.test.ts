import { describe, expect, it } from 'vitest';
import { WiringError } from '../contract/wiring-error';
import { checkMethod, checkMethods, ROUTE_METHODS } from './method';

function thrown(fn: () => unknown): WiringError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WiringError);
    return error as WiringError;
  }
  throw new Error('did not throw');
}

describe('checkMethod', () => {
  it('accepts an allowed method as requests carry it', () => {
    expect(checkMethod('w', 'allowMethods', 'PATCH', ROUTE_METHODS)).toBe('PATCH');
    expect(checkMethod('w', 'methods', 'PROPFIND')).toBe('PROPFIND');
  });

  it('refuses a wrongly cased method, suggesting the upper-case one (RFC 9110 §9.1)', () => {
    for (const given of ['get', 'Get', ' GET']) {
      const e = thrown(() => checkMethod('new CORS(options)', 'allowMethods', given, ROUTE_METHODS));
      expect([e.code, e.where, e.fix]).toEqual([
        'API_WIRING_HTTP_METHOD',
        'new CORS(options)',
        "write 'GET'",
      ]);
      expect(e.problem).toBe(
        `allowMethods names ${JSON.stringify(given)}; methods are case-sensitive (RFC 9110 §9.1) and ` +
          'requests carry them in upper case, so it would never match',
      );
    }
    expect(thrown(() => checkMethod('w', 'methods', 'propfind')).fix).toBe("write 'PROPFIND'");
  });

  it('refuses unknown methods, OPTIONS and non-names with the list to use', () => {
    const unknown = thrown(() => checkMethod('w', 'allowMethods', 'FETCH', ROUTE_METHODS));
    expect([unknown.problem, unknown.fix]).toEqual([
      'allowMethods names "FETCH", which is not a method served here',
      "use 'GET', 'HEAD', 'POST', 'PUT', 'PATCH' or 'DELETE'",
    ]);
    const options = thrown(() => checkMethod('w', 'allowMethods', 'options', ROUTE_METHODS));
    expect([options.code, options.fix]).toEqual(['API_WIRING_HTTP_METHOD', 'remove OPTIONS']);
    expect(thrown(() => checkMethod('w', 'm', 'GET POST')).problem).toBe(
      'm lists "GET POST", which is not an HTTP method name',
    );
    expect(thrown(() => checkMethod('w', 'm', 7)).problem).toBe(
      'm lists a number, which is not an HTTP method name',
    );
  });
});

describe('checkMethods', () => {
  it('returns the list, each method once', () => {
    expect(checkMethods('w', 'allowMethods', ['GET', 'POST'], ROUTE_METHODS)).toEqual(['GET', 'POST']);
    expect(checkMethods('w', 'allowMethods', [])).toEqual([]);
    const e = thrown(() => checkMethods('w', 'allowMethods', ['GET', 'GET'], ROUTE_METHODS));
    expect([e.code, e.problem]).toEqual(['API_WIRING_DUPLICATE', 'allowMethods names GET twice']);
  });
});
