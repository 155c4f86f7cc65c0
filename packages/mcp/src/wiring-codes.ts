// @api/mcp's own WiringError codes, added to core's registry (each documented in docs/errors.md,
// section "@api/mcp"; core's codes test keeps the two in step).
import type {} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** Two inputs of one tool with one name (a path slot, a query field, a body field). */
    API_WIRING_MCP_FIELD_COLLISION: true;
    /** A tool name MCP does not allow (1-128 of A-Z a-z 0-9 _ - .). */
    API_WIRING_MCP_TOOL_NAME: true;
    /** A `tools`/`exclude`/`names` entry naming no operation, or one that cannot be a tool. */
    API_WIRING_MCP_SELECTOR: true;
    /** An `allowedOrigins` entry that is not an exact origin. */
    API_WIRING_MCP_ORIGIN: true;
  }
}
