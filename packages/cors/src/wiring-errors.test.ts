// Wrong JS-level arguments to the CORS policy: WiringErrors naming the option and the fix (issue 11).
import { describe, expect, it } from 'vitest';
import { WiringError } from '@api/core';
import { CORS } from './index';

const cases: [string, unknown, string, string][] = [
  [
    'allowCredentials as a string (was silently truthy)',
    { allowOrigins: ['https://a.example'], allowCredentials: 'false' },
    'new CORS(): allowCredentials must be true or false, got a string. Fix: allowCredentials: true (with a list of exact origins), or leave it out.',
    'API_WIRING_INVALID_ARGUMENT',
  ],
  [
    'maxAge as a string',
    { maxAge: '600' },
    'new CORS(): maxAge must be a whole number of seconds, got a string. Fix: e.g. maxAge: 600.',
    'API_WIRING_INVALID_ARGUMENT',
  ],
  [
    'maxAge as a fraction',
    { maxAge: 1.5 },
    'new CORS(): maxAge must be a whole number of seconds, got 1.5. Fix: e.g. maxAge: 600.',
    'API_WIRING_INVALID_ARGUMENT',
  ],
  [
    'an origin with a path',
    { allowOrigins: ['https://a.example/app'] },
    'new CORS(): "https://a.example/app" is not an origin. Fix: write scheme://host[:port] with no path or trailing slash, e.g. "https://app.example".',
    'API_WIRING_CORS_ORIGIN',
  ],
  [
    'credentials with every origin',
    { allowCredentials: true },
    "new CORS(): allowCredentials with allowOrigins '*'. Fix: list the exact origins that may send credentials.",
    'API_WIRING_CORS_CREDENTIALS',
  ],
  [
    'a header name with a space',
    { allowHeaders: ['x trace'] },
    'new CORS(): allowHeaders lists "x trace", which is not a header name. Fix: use HTTP tokens only.',
    'API_WIRING_INVALID_HEADER',
  ],
  [
    'options not an object',
    'https://a.example',
    'new CORS(): the options must be an object, got a string. Fix: pass { allowOrigins, allowMethods, allowHeaders, allowCredentials, maxAge, exposeHeaders } (each optional) or nothing for the defaults.',
    'API_WIRING_INVALID_ARGUMENT',
  ],
];

describe('new CORS(): wrong arguments', () => {
  it.each(cases)('%s', (_name, options, message, code) => {
    const error: unknown = (() => {
      try {
        return new CORS(options as never);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(WiringError);
    expect((error as Error).message).toBe(message);
    expect(error).toMatchObject({ code, where: 'new CORS()' });
  });
});
