// @api/tasks's own WiringError codes, added to core's registry (each documented in docs/errors.md,
// section "@api/tasks"; core's codes test keeps the two in step). Mistakes of kinds core names
// carry core's codes (a schema, a limit, a handler registered twice, a call at the wrong time, …).
import type {} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** Retry options a backend cannot honour or that would never apply, or two registrations of one item with different ones. */
    API_WIRING_TASKS_RETRY: true;
    /** An item schema without a Struct name on a backend that dispatches items by name across processes. */
    API_WIRING_TASKS_SCHEMA_NAME: true;
  }
}
