import { defineExtension, describeValue, type Extension, type Wiring } from '@api/core/extension';
import { SecureHeaders, type SecureHeadersOptions } from '../policy/secure-headers';

const installed = new WeakSet<Wiring>();

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
      const where = `${wiring.appName}.include(secureHeaders())`;
      if (installed.has(wiring))
        wiring.fail(
          where,
          'secure headers are already installed app-wide',
          'include secureHeaders() once; give a mount its own block with { secureHeaders: new SecureHeaders({ … }) } or none with { secureHeaders: false }',
          'API_WIRING_DUPLICATE',
        );
      installed.add(wiring);
      const block = options instanceof SecureHeaders ? options : new SecureHeaders(options);
      wiring.addContributor((route) => {
        const own: unknown = route.mountOptions.secureHeaders;
        if (own === undefined) return block.contribution;
        if (own !== false && !(own instanceof SecureHeaders))
          wiring.fail(
            `${route.owner}.${route.operation}`,
            `the "secureHeaders" mount option is ${describeValue(own)}, not a SecureHeaders`,
            'pass { secureHeaders: new SecureHeaders({ … }) } to replace the app block, or { secureHeaders: false } for none',
            'API_WIRING_MOUNT_OPTION',
          );
        return undefined; // the mount's own block compiles itself; false means none
      });
    },
  });
}
