import { defineExtension, installAppPolicy, type Extension } from '@api/core/extension';
import { SecureHeaders, type SecureHeadersOptions } from '../policy/secure-headers';

/**
 * Installs a block of security headers app-wide (at most once): every answer — operations,
 * extension routes, errors, 404s and automatic OPTIONS — carries the same constant pairs, except
 * on mounts with their own `secureHeaders` option (a `SecureHeaders`, or `false`), and except the
 * headers a route sets itself (the docs page keeps its own CSP, nosniff and referrer-policy).
 *
 * @param options - a `SecureHeaders`, or changes to the preset
 * @example
 * this.include(secureHeaders());
 * this.include(secureHeaders({ contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'" }));
 */
export function secureHeaders(options: SecureHeadersOptions | SecureHeaders = {}): Extension<void> {
  return defineExtension({
    name: 'secure-headers',
    setup(wiring) {
      installAppPolicy(wiring, {
        extension: 'secureHeaders',
        duplicate: 'secure headers are already installed app-wide',
        duplicateFix:
          'include secureHeaders() once; give a mount its own block with { secureHeaders: new SecureHeaders({ … }) } or none with { secureHeaders: false }',
        // The mount's own block compiles itself; false means none.
        override: {
          option: 'secureHeaders',
          accepts: (own) => own === false || own instanceof SecureHeaders,
          expected: 'a SecureHeaders or false',
          fix: 'pass { secureHeaders: new SecureHeaders({ … }) } to replace the app block, or { secureHeaders: false } for none',
        },
        contribute: () => {
          const block = options instanceof SecureHeaders ? options : new SecureHeaders(options);
          return () => block.contribution;
        },
      });
    },
  });
}
