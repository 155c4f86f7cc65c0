// @api/mcp at /mcp: the widget operations as MCP tools, with the widgets' bearer auth, driven by
// the official SDK client over a real socket. Each tool call runs the operation as its own request.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import { AUTH, startDemo } from './helpers/demo';

let client: TestClient;

beforeAll(async () => {
  ({ client } = await startDemo());
});
afterAll(async () => {
  await client?.close();
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const mcp = new Client({ name: 'demo-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${client.url}/mcp`), { requestInit: { headers } }),
  );
  return mcp;
}

describe('@api/mcp at /mcp', () => {
  it('lists the widget tools, creates a widget, reads it and lists it', async () => {
    const mcp = await connect(AUTH);
    try {
      expect(mcp.getServerVersion()).toEqual({ name: 'demo-widgets', version: '0.1.0' });
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => [t.name, t.annotations ?? {}])).toEqual([
        ['WidgetResource_create', {}],
        ['WidgetResource_readMany', { readOnlyHint: true }],
        ['WidgetResource_readOne', { readOnlyHint: true }],
        ['WidgetResource_updateFull', { idempotentHint: true }],
        ['WidgetResource_updatePartial', {}],
        ['WidgetResource_delete', { destructiveHint: true }],
      ]);
      const created = await mcp.callTool({
        name: 'WidgetResource_create',
        arguments: { name: 'mcp-sprocket', priceCents: 42 },
      });
      const widget = created.structuredContent as { id: string; name: string; priceCents: number };
      expect(widget).toEqual({ id: expect.any(String), name: 'mcp-sprocket', priceCents: 42 });
      const read = await mcp.callTool({
        name: 'WidgetResource_readOne',
        arguments: { widget_id: widget.id },
      });
      expect(read.structuredContent).toEqual(widget);
      // The same widget through the REST route: the tool wrote to the app's own store.
      const rest = await client.get(`/widgets/${widget.id}`, { headers: AUTH });
      expect(rest.json()).toEqual(widget);
      const many = await mcp.callTool({ name: 'WidgetResource_readMany', arguments: { limit: 100 } });
      expect((many.structuredContent as { result: unknown[] }).result).toContainEqual(widget);
      const missing = await mcp.callTool({
        name: 'WidgetResource_readOne',
        arguments: { widget_id: 'nope' },
      });
      expect(missing).toEqual({
        content: [{ type: 'text', text: '404 Widget not found: Widget nope not found' }],
        isError: true,
      });
    } finally {
      await mcp.close();
    }
  });

  it('is refused without the bearer token (401 at connect)', async () => {
    const error: unknown = await connect({}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
  });
});
