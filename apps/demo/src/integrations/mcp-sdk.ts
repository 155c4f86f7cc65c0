// The MCP TypeScript SDK's Streamable HTTP server transport (the web-standard one: a fetch handler)
// mounted at /mcp-sdk: one transport per MCP session, its tools reading the widget store.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import type { WidgetStore } from '../services/widget-store';

/** Where the SDK's transport is mounted. */
export const MCP_SDK_PATH = '/mcp-sdk';

/** A JSON-RPC error answer (the SDK's own shape) for a request naming no live session. */
function noSession(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: no valid MCP session' }, id: null },
    { status: 400 },
  );
}

/**
 * The SDK's MCP server over the widget store, as one fetch handler: an `initialize` request opens
 * a session (its own transport and server), later requests carry `mcp-session-id`. Closing it
 * (at shutdown) closes every session.
 */
export class McpSdkSessions {
  readonly #sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

  constructor(private readonly store: WidgetStore) {}

  /** The fetch handler to mount. */
  readonly handler = async (request: Request): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const transport = this.#sessions.get(id);
      return transport === undefined ? noSession() : transport.handleRequest(request);
    }
    if (request.method !== 'POST') return noSession();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (session) => {
        this.#sessions.set(session, transport);
      },
      onsessionclosed: (session) => {
        this.#sessions.delete(session);
      },
    });
    await this.#server().connect(transport);
    return transport.handleRequest(request);
  };

  /** Sessions open now (tests read it). */
  get size(): number {
    return this.#sessions.size;
  }

  #server(): McpServer {
    const server = new McpServer({ name: 'api-demo', version: '0.1.0' });
    server.registerTool(
      'list-widgets',
      {
        description: 'Lists widgets from the demo store, optionally only those whose name contains a text.',
        inputSchema: { contains: z.string().optional(), limit: z.number().int().min(1).max(100).optional() },
      },
      ({ contains, limit }) => {
        const widgets = this.store
          .list(limit ?? 20, 0)
          .filter((w) => contains === undefined || w.name.includes(contains));
        return {
          content: [{ type: 'text', text: JSON.stringify(widgets) }],
          structuredContent: { widgets },
        };
      },
    );
    return server;
  }

  async close(): Promise<void> {
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(open.map((t) => t.close().catch(() => undefined)));
  }
}
