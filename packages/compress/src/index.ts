// @api/compress — dynamic response compression (br, gzip, zstd where Node has it) on core's body
// transform seam, through the public extension point only. The augmentation below needs @api/core
// in the program (nothing else here imports its main entry).
import type {} from '@api/core';
import type { Compression as CompressionPolicy } from './extension/compress';
import './wiring-codes';

export { Compression, compress } from './extension/compress';
export { COMPRESSIBLE, type CompressOptions } from './options/options';
export { ZSTD_AVAILABLE, type Coding } from './encoders/encoders';

declare module '@api/core' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface MountOptions<TRoute extends object> {
    /** This mount's own compression policy (replaces the app default), or `false` to send it uncompressed. */
    readonly compress?: CompressionPolicy | false;
  }
}
