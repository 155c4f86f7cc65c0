// The checking-kit example of docs/extensions.md ("Checking kit"), kept in step by kit-plugin.test.ts.
import * as v from 'valibot';
import {
  checkMethods,
  checkOptions,
  defineExtension,
  installAppPolicy,
  ROUTE_METHODS,
  wiringError,
  type Extension,
} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** A throttle window shorter than a second. */
    API_WIRING_THROTTLE_WINDOW: true;
  }
}

const perWindow = 'a whole number of requests ≥ 1';
const ThrottleOptions = v.object({
  limit: v.optional(v.pipe(v.number(perWindow), v.integer(perWindow), v.minValue(1, perWindow)), 100),
  windowMs: v.optional(v.number('milliseconds'), 60_000),
  methods: v.optional(v.array(v.string('a method name'), 'a list of methods'), ['POST']),
});

/** Announces a request limit on the methods it covers (app-wide, once). */
export function throttle(options: unknown = {}): Extension<void> {
  const where = 'throttle(options)';
  const o = checkOptions(where, ThrottleOptions, options, {
    fixes: { limit: 'e.g. limit: 100', windowMs: 'e.g. windowMs: 60_000', methods: "e.g. methods: ['POST']" },
  });
  if (o.windowMs < 1000)
    throw wiringError('API_WIRING_THROTTLE_WINDOW', where, `windowMs is ${o.windowMs}`, 'use at least 1000');
  const methods = checkMethods(where, 'methods', o.methods, ROUTE_METHODS); // 'post' → "write 'POST'"
  const header: [string, string] = ['x-throttle-limit', String(o.limit)];
  return defineExtension({
    name: 'throttle',
    setup(wiring) {
      installAppPolicy(wiring, {
        extension: 'throttle',
        duplicate: 'a throttle is already installed',
        duplicateFix: 'include throttle() once',
        contribute: () => (route) => (methods.includes(route.method) ? { headers: [header] } : undefined),
      });
    },
  });
}
