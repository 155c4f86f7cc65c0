// @api/mcp — the app's operations as Model Context Protocol tools, served over the Streamable HTTP
// transport at a path of the app, through core's public extension point only.
import './wiring-codes';
export { mcp, type McpEndpoint } from './mcp';
export type { McpOptions, ToolSelector } from './options';
export {
  McpSessionNotFoundError,
  OriginNotAllowedError,
  PROTOCOL_VERSIONS,
  TooManySessionsError,
} from './protocol/rpc';

declare module '@api/core' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface MountOptions<TRoute extends object> {
    /** `false`: this mount's operations are never MCP tools (`@api/mcp`). */
    readonly mcp?: false;
  }
}
