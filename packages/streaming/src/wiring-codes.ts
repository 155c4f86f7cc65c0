// @api/streaming's own WiringError codes, added to core's registry (each documented in
// docs/errors.md, section "@api/streaming"; core's codes test keeps the two in step).
import type {} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** An NDJSON item schema that is not a Struct or a union of tagged Structs. */
    API_WIRING_STREAMING_ITEM: true;
    /** An `SSEResponse` on an operation that does not answer GET (an EventSource can only GET). */
    API_WIRING_STREAMING_METHOD: true;
  }
}
