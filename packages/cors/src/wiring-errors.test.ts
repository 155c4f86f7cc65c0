// Wrong JS-level arguments to the CORS policy: WiringErrors naming the option and the fix (issue 11).
import { describe, expect, it } from 'vitest';
import { WiringError } from '@api/core';
import { CORS } from './index';

const cases: [string, unknown, string][] = [
  [
    'allowCredentials as a string (was silently truthy)',
    { allowOrigins: ['https://a.example'], allowCredentials: 'false' },
    'new CORS(): allowCredentials must be true or false, got a string. Fix: allowCredentials: true (with a list of exact origins), or leave it out.',
  ],
  [
    'maxAge as a string',
    { maxAge: '600' },
    'new CORS(): maxAge must be a whole number of seconds, got a string. Fix: e.g. maxAge: 600.',
  ],
  [
    'options not an object',
    'https://a.example',
    'new CORS(): the options are not an object. Fix: pass { allowOrigins, allowMethods, … } or nothing for the defaults.',
  ],
];

describe('new CORS(): wrong arguments', () => {
  it.each(cases)('%s', (_name, options, message) => {
    const error: unknown = (() => {
      try {
        return new CORS(options as never);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(WiringError);
    expect((error as Error).message).toBe(message);
  });
});
