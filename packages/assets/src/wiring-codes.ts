// @api/assets's own WiringError codes, added to core's registry (each documented in
// docs/errors.md, section "@api/assets"; core's codes test keeps the two in step). Mistakes of
// kinds core names carry core's codes (a path, a header value, a limit, a route taken twice, …).
import type {} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** The directory does not exist, is a file, or a directory or file under it cannot be read. */
    API_WIRING_ASSETS_DIRECTORY: true;
    /** No file matches `include` / `exclude`. */
    API_WIRING_ASSETS_EMPTY: true;
    /** A glob that can never match (it starts with `/` or `./`). */
    API_WIRING_ASSETS_GLOB: true;
    /** A file whose suffix has no known media type. */
    API_WIRING_ASSETS_MEDIA_TYPE: true;
    /** More files than `maxFiles`, or more bytes than `maxTotalBytes`. */
    API_WIRING_ASSETS_TOO_LARGE: true;
  }
}
