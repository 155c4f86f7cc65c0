// @api/secure-headers — security response headers as one constant block, app-wide with per-mount
// overrides, through core's public extension point only.
import type {} from '@api/core';
import type { SecureHeaders as SecureHeadersBlock } from './policy/secure-headers';

export { SecureHeaders, type ReferrerPolicy, type SecureHeadersOptions } from './policy/secure-headers';
export { secureHeaders } from './extension/secure-headers';

declare module '@api/core' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface MountOptions<TRoute extends object> {
    /** This mount's security headers (replacing the app's block), or `false` for none. */
    readonly secureHeaders?: SecureHeadersBlock | false;
  }
}
