// @api/cors — CORS as an app default and a typed mount option, through core's public extension point only.
// The augmentation below needs @api/core in the program (nothing else here imports its main entry).
import type {} from '@api/core';
import type { CORS as CORSPolicy } from './cors';
import './wiring-codes';

export { CORS, cors, type CORSOptions } from './cors';

declare module '@api/core' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface MountOptions<TRoute extends object> {
    /** A CORS policy for this mount (overrides the app default), or `CORS.OFF`. */
    readonly cors?: CORSPolicy | typeof CORSPolicy.OFF;
  }
}
