// `mcp()`: the app's operations as MCP tools, served over the Streamable HTTP transport at a path
// of the app (POST: JSON-RPC answered with application/json; DELETE: ends a session; GET: 405,
// no server-initiated stream). A tool call runs the operation as its own request (wiring.invoke).
import {
  badRequest,
  defineExtension,
  type Exchange,
  type Extension,
  type RequestHead,
} from '@api/core/extension';
import { checkMcpOptions, type McpOptions } from './options';
import {
  INVALID_PARAMS,
  McpSessionNotFoundError,
  Message,
  METHOD_NOT_FOUND,
  OriginNotAllowedError,
  PROTOCOL_VERSIONS,
  rpcError,
  rpcResult,
  TooManySessionsError,
} from './protocol/rpc';
import { digest, Sessions } from './protocol/sessions';
import { toolsOf, type ToolDef } from './tools/catalogue';
import { requestOf, resultOf } from './tools/call';

/** What `include(mcp(…))` returns: the endpoint as wired. */
export interface McpEndpoint {
  /** The endpoint's path. */
  readonly path: string;
  /** The `tools/list` entries (empty until the app has started). */
  readonly tools: readonly Readonly<Record<string, unknown>>[];
  /** Sessions open now. */
  readonly openSessions: number;
}

const JSON_HEAD = ['content-type', 'application/json'];

/** The default session binding: the caller's `authorization` and `cookie` headers. */
const byCredentials = (req: RequestHead): string =>
  `${String(req.headers.authorization ?? '')}\n${String(req.headers.cookie ?? '')}`;

/**
 * Serves the app's operations as Model Context Protocol tools at `path` (default `/mcp`), over the
 * Streamable HTTP transport (protocol revisions 2025-03-26 to 2025-11-25). Tools come from the
 * route catalogue once wiring finishes: names from operationIds, input schemas from the path,
 * query and body, output schemas from the declared success answer, descriptions from `meta`. A
 * tool call is invoked through the app as the operation's own request, carrying the MCP
 * request's `authorization` and `cookie`: the same auth, validation, exception handlers, request
 * log and spans; a 4xx/5xx becomes a tool error with the Problem's title and detail.
 *
 * @param options - Which operations, their names, the server's name, origins, session caps, and
 *   the endpoint's own mount options (`auth`, `cors`, `middleware`, `limits`).
 * @example
 * class App extends BaseApp {
 *   protected override async wire() {
 *     this.includeResource(new WidgetResource(store), { auth: tokenAuth });
 *     this.include(mcp({ auth: tokenAuth, tools: [WidgetResource] }));
 *   }
 * }
 */
export function mcp(options: McpOptions = {}): Extension<McpEndpoint> {
  const o = checkMcpOptions(options);
  const owner = `mcp(${o.path})`;
  const allowed = new Set(o.allowedOrigins);
  const bindTo = o.bindSessionTo ?? byCredentials;
  const sessions = new Sessions(o.maxSessions, o.sessionIdleSeconds * 1000);
  let defs: ToolDef[] = [];
  let byName = new Map<string, ToolDef>();
  let listed: Readonly<Record<string, unknown>>[] = [];
  return defineExtension({
    name: owner,
    setup(wiring) {
      const serverInfo = { name: o.serverName ?? wiring.appName, version: o.serverVersion };
      wiring.onWired((catalogue) => {
        defs = toolsOf(catalogue.routes, o);
        byName = new Map(defs.map((d) => [d.tool.name as string, d]));
        listed = defs.map((d) => d.tool);
      });
      // The Origin rule runs before authentication and before the body is read.
      wiring.addContributor((route) =>
        route.owner === owner
          ? {
              before: (ex) => {
                const origin = ex.req.headers.origin;
                if (origin !== undefined && !allowed.has(String(origin))) throw new OriginNotAllowedError();
              },
              raises: [OriginNotAllowedError],
            }
          : undefined,
      );

      /** Answers one JSON-RPC request of an open session. */
      const answer = async (ex: Exchange, message: Message): Promise<object> => {
        const id = message.id!;
        const params = message.params ?? {};
        switch (message.method) {
          case 'ping':
            return rpcResult(id, {});
          case 'tools/list':
            return rpcResult(id, { tools: listed });
          case 'tools/call': {
            const def = typeof params.name === 'string' ? byName.get(params.name) : undefined;
            if (def === undefined)
              return rpcError(id, INVALID_PARAMS, `Unknown tool: ${JSON.stringify(params.name)}`);
            const args = params.arguments ?? {};
            if (typeof args !== 'object' || args === null || Array.isArray(args))
              return rpcError(id, INVALID_PARAMS, 'arguments must be an object');
            const request = requestOf(def, args as Record<string, unknown>, {
              origin: originOf(ex.req, wiring.requestScheme(ex.req)),
              headers: ex.req.headers,
              requestId: ex.requestId,
              exchange: ex,
            });
            if ('content' in request) return rpcResult(id, request);
            return rpcResult(id, resultOf(def, await wiring.invoke(request)));
          }
          case undefined:
          default:
            return rpcError(id, METHOD_NOT_FOUND, `Method not found: ${JSON.stringify(message.method)}`);
        }
      };

      /** The open session the request names, bound to this caller; refusals are 400 and 404. */
      const sessionOf = async (ex: Exchange): Promise<string> => {
        const id = ex.req.headers['mcp-session-id'];
        if (typeof id !== 'string' || id === '')
          throw badRequest(
            'header mcp-session-id',
            'Required: every message after initialize carries the session id it returned',
          );
        const version = ex.req.headers['mcp-protocol-version'];
        if (version !== undefined && !PROTOCOL_VERSIONS.includes(String(version)))
          throw badRequest(
            'header mcp-protocol-version',
            `Unsupported; supported: ${PROTOCOL_VERSIONS.join(', ')}`,
          );
        if (sessions.use(id, await digest(bindTo(ex.req))) === undefined) throw new McpSessionNotFoundError();
        return id;
      };

      wiring.addRoute({
        method: 'POST',
        path: o.path,
        owner,
        operation: 'message',
        hidden: true,
        spec: { json: Message },
        mountOptions: o.mountOptions,
        handle: async (ex, input) => {
          const message = input.json as Message;
          const hasMethod = typeof message.method === 'string';
          if (!hasMethod && (message.id === undefined || !('result' in message || 'error' in message)))
            throw badRequest('body', 'Expected a JSON-RPC request, notification or response');
          if (hasMethod && message.id !== undefined && message.method === 'initialize') {
            const asked = message.params?.protocolVersion;
            const protocolVersion =
              typeof asked === 'string' && PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0]!;
            const session = sessions.open(await digest(bindTo(ex.req)), protocolVersion);
            if (session === undefined) throw new TooManySessionsError();
            const result: Record<string, unknown> = {
              protocolVersion,
              capabilities: { tools: { listChanged: false } },
              serverInfo,
            };
            if (o.instructions !== undefined) result.instructions = o.instructions;
            const body = JSON.stringify(rpcResult(message.id, result));
            return ex.send(200, [...JSON_HEAD, 'mcp-session-id', session.id], body);
          }
          const session = await sessionOf(ex);
          // Notifications and the client's responses: accepted, nothing to answer.
          if (!hasMethod || message.id === undefined) return ex.send(202, []);
          const body = JSON.stringify(await answer(ex, message));
          ex.send(200, [...JSON_HEAD, 'mcp-session-id', session], body);
        },
      });
      wiring.addRoute({
        method: 'DELETE',
        path: o.path,
        owner,
        operation: 'end-session',
        hidden: true,
        mountOptions: o.mountOptions,
        handle: async (ex) => {
          const id = await sessionOf(ex);
          sessions.close(id, await digest(bindTo(ex.req)));
          ex.send(204, []);
        },
      });
      return {
        path: o.path,
        get tools() {
          return listed;
        },
        get openSessions() {
          return sessions.size;
        },
      };
    },
  });
}

/** The last origin worked out, by its `scheme://host` (a session's calls come from one host). */
let lastOrigin: { readonly key: string; readonly origin: string } | undefined;

/** The MCP request's origin (`https://host`), which the operation's request is addressed to. */
function originOf(req: RequestHead, scheme: 'http' | 'https'): string {
  const host = req.headers.host;
  const key = `${scheme}://${typeof host === 'string' && host !== '' ? host : 'localhost'}`;
  if (lastOrigin?.key === key) return lastOrigin.origin;
  let origin: string;
  try {
    origin = new URL(key).origin;
  } catch {
    origin = `${scheme}://localhost`; // a Host that is no URL authority: the request is addressed locally
  }
  lastOrigin = { key, origin };
  return origin;
}
