// @api/compress's own WiringError codes, added to core's registry (each documented in
// docs/errors.md, section "@api/compress"; core's codes test keeps the two in step).
import type {} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** A coding that is not offered (`deflate`), or `zstd` on a Node without it. */
    API_WIRING_COMPRESS_ENCODING: true;
  }
}
