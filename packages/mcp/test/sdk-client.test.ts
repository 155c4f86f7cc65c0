// The official MCP client (@modelcontextprotocol/sdk's Client over its Streamable HTTP transport)
// against an app built like the demo, over a real socket.
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ListToolsResultSchema,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import { registerSchema, unregisterSchema, validate } from '@hyperjump/json-schema/draft-2020-12';
import { serve, type RunningServer } from '@api/core';
import { TestApp, tokenAuth } from './fixtures/app';
import type { McpOptions } from '../src/index';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((close) => close()));
});

async function start(options?: McpOptions): Promise<{ app: TestApp; server: RunningServer; url: URL }> {
  const app = new TestApp(options);
  const server = await serve(app, { port: 0, quiet: true, signals: false });
  opened.push(() => server.close());
  return { app, server, url: new URL('/mcp', server.url) };
}

async function connect(url: URL, token: string | undefined): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  opened.unshift(() => client.close());
  return client;
}

type Text = { type: 'text'; text: string };

describe('the official client', () => {
  it('lists the tools: names, schemas, annotations; the SDK schema accepts the answer', async () => {
    const { url } = await start();
    const client = await connect(url, 'token');
    expect(client.getServerVersion()).toEqual({ name: 'TestApp', version: '0.1.0' });
    // The raw answer, parsed by the SDK's own schema (client.listTools does the same).
    const listed = await client.request({ method: 'tools/list' }, ListToolsResultSchema);
    expect(listed.tools.map((t) => t.name)).toEqual([
      'WidgetResource_create',
      'WidgetResource_readMany',
      'WidgetResource_readOne',
      'WidgetResource_updateFull',
      'WidgetResource_delete',
    ]);
    const byName = Object.fromEntries(listed.tools.map((t) => [t.name, t]));
    expect(byName.WidgetResource_readOne).toEqual({
      name: 'WidgetResource_readOne',
      title: 'Read one widget.',
      description: 'Read one widget.\n\nBy its id.',
      inputSchema: {
        type: 'object',
        properties: { widget_id: { type: 'string', minLength: 1 } },
        required: ['widget_id'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          name: { type: 'string', minLength: 1, description: 'Human-readable widget name' },
          priceCents: { type: 'integer', minimum: 0 },
        },
        required: ['id', 'name', 'priceCents'],
      },
      annotations: { readOnlyHint: true },
    });
    expect(byName.WidgetResource_create!.inputSchema.required).toEqual(['name', 'priceCents']);
    expect(byName.WidgetResource_create!.annotations).toBeUndefined();
    expect(byName.WidgetResource_updateFull!.inputSchema.required).toEqual([
      'widget_id',
      'name',
      'priceCents',
    ]);
    expect(byName.WidgetResource_updateFull!.annotations).toEqual({ idempotentHint: true });
    expect(byName.WidgetResource_delete!.annotations).toEqual({ destructiveHint: true });
    // An array answer is wrapped: MCP's outputSchema must be an object.
    expect(byName.WidgetResource_readMany!.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'array', items: { $ref: '#/$defs/Widget' } } },
      required: ['result'],
      $defs: { Widget: byName.WidgetResource_readOne!.outputSchema },
    });
    expect(byName.WidgetResource_readMany!.inputSchema).toEqual({
      type: 'object',
      properties: { limit: { type: 'string', default: '20' } },
    });
  });

  it("offers schemas that are valid JSON Schema 2020-12 and accept the operation's input", async () => {
    const { url } = await start();
    const client = await connect(url, 'token');
    const { tools } = await client.listTools();
    const metaschema = 'https://json-schema.org/draft/2020-12/schema';
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema].filter((s) => s !== undefined)) {
        const output = await validate(metaschema, schema as never);
        expect({ tool: tool.name, valid: output.valid }).toEqual({ tool: tool.name, valid: true });
      }
    }
    const create = tools.find((t) => t.name === 'WidgetResource_create')!;
    const id = 'https://mcp.test/create-input';
    registerSchema({ ...create.inputSchema, $schema: metaschema } as never, id);
    try {
      expect((await validate(id, { name: 'Gear', priceCents: 100 })).valid).toBe(true);
      expect((await validate(id, { name: '', priceCents: 100 })).valid).toBe(false);
      expect((await validate(id, { name: 'Gear' })).valid).toBe(false);
    } finally {
      unregisterSchema(id);
    }
  });

  it('creates a widget then reads it back, as the caller (the route authenticates the bearer)', async () => {
    const { app, url } = await start();
    const client = await connect(url, 'token');
    const created = await client.callTool({
      name: 'WidgetResource_create',
      arguments: { name: 'Gear', priceCents: 250 },
    });
    expect(created).toEqual({
      content: [{ type: 'text', text: '{"id":"w1","name":"Gear","priceCents":250}' }],
      structuredContent: { id: 'w1', name: 'Gear', priceCents: 250 },
    });
    const read = await client.callTool({ name: 'WidgetResource_readOne', arguments: { widget_id: 'w1' } });
    expect(read.structuredContent).toEqual({ id: 'w1', name: 'Gear', priceCents: 250 });
    const many = await client.callTool({ name: 'WidgetResource_readMany', arguments: { limit: '5' } });
    expect(many.structuredContent).toEqual({ result: [{ id: 'w1', name: 'Gear', priceCents: 250 }] });
    expect(app.widgets.writers).toEqual(['Ada']);
    // Another caller's session writes as that caller.
    const bob = await connect(url, 'other-token');
    await bob.callTool({ name: 'WidgetResource_create', arguments: { name: 'Cog', priceCents: 1 } });
    expect(app.widgets.writers).toEqual(['Ada', 'Bob']);
  });

  it('turns a 422 and a 404 into tool errors with the Problem title and detail (no throw)', async () => {
    const { url } = await start();
    const client = await connect(url, 'token');
    const invalid = await client.callTool({
      name: 'WidgetResource_create',
      arguments: { name: '', priceCents: -1 },
    });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toBeUndefined();
    const text = (invalid.content as Text[])[0]!.text;
    expect(text).toMatch(/^422 Validation failed: /);
    expect(text).not.toMatch(/\n\s+at /); // never a stack
    const missing = await client.callTool({
      name: 'WidgetResource_readOne',
      arguments: { widget_id: 'nope' },
    });
    expect(missing).toEqual({
      content: [{ type: 'text', text: '404 Widget not found: Widget nope not found' }],
      isError: true,
    });
    // Slots are percent-encoded: a "/" stays inside the value; "." and ".." are refused as tool
    // errors (a dot segment would reach another route).
    const slash = await client.callTool({ name: 'WidgetResource_readOne', arguments: { widget_id: 'a/b' } });
    expect((slash.content as Text[])[0]!.text).toBe('404 Widget not found: Widget a/b not found');
    const dots = await client.callTool({ name: 'WidgetResource_readOne', arguments: { widget_id: '..' } });
    expect(dots).toEqual({
      content: [{ type: 'text', text: 'Argument "widget_id" cannot be "." or "..".' }],
      isError: true,
    });
    const dot = await client.callTool({ name: 'WidgetResource_readOne', arguments: { widget_id: '.' } });
    expect(dot).toEqual({
      content: [{ type: 'text', text: 'Argument "widget_id" cannot be "." or "..".' }],
      isError: true,
    });
    // A value with dots in it is an ordinary value.
    const dotted = await client.callTool({
      name: 'WidgetResource_readOne',
      arguments: { widget_id: 'a..b' },
    });
    expect((dotted.content as Text[])[0]!.text).toBe('404 Widget not found: Widget a..b not found');
    // A missing slot is a tool error before any request; an unknown tool a protocol error.
    const noSlot = await client.callTool({ name: 'WidgetResource_readOne', arguments: {} });
    expect(noSlot).toEqual({
      content: [{ type: 'text', text: 'Argument "widget_id" is required: a string or a number.' }],
      isError: true,
    });
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: "nope"/);
  });

  it('is refused without credentials: the 401 fails connect', async () => {
    const { url } = await start();
    const error: unknown = await connect(url, undefined).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
    expect((error as Error).message).toContain('authentication-required');
    const bad: unknown = await connect(url, 'wrong').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((bad as StreamableHTTPError).code).toBe(401);
    expect((bad as Error).message).toContain('invalid-token');
  });
});

describe('the endpoint on the wire', () => {
  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    },
  };

  async function initialize(url: URL, token: string): Promise<string> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify(init),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as { result: { protocolVersion: string } };
    expect(body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    return response.headers.get('mcp-session-id')!;
  }

  const list = (url: URL, token: string, headers: Record<string, string>): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });

  it('refuses a browser Origin not allowed with 403 before anything else', async () => {
    const { url } = await start({ auth: tokenAuth, allowedOrigins: ['https://app.example'] });
    const refused = await fetch(url, {
      method: 'POST',
      headers: { ...json, origin: 'http://evil.example' },
      body: JSON.stringify(init),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toEqual({
      type: 'origin-not-allowed',
      title: 'Origin not allowed',
      status: 403,
    });
    // Even the app's own host as Origin: a DNS-rebound page sends exactly that.
    const rebound = await fetch(url, {
      method: 'POST',
      headers: { ...json, authorization: 'Bearer token', origin: `http://${url.host}` },
      body: JSON.stringify(init),
    });
    expect(rebound.status).toBe(403);
    const allowed = await fetch(url, {
      method: 'POST',
      headers: { ...json, authorization: 'Bearer token', origin: 'https://app.example' },
      body: JSON.stringify(init),
    });
    expect(allowed.status).toBe(200);
  });

  it('binds a session to the credential that opened it', async () => {
    const { url } = await start();
    const session = await initialize(url, 'token');
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const own = await list(url, 'token', { 'mcp-session-id': session });
    expect(own.status).toBe(200);
    expect(own.headers.get('mcp-session-id')).toBe(session);
    const body = CallToolResultSchema.safeParse({}); // the SDK is loaded; its schemas parse
    expect(body.success).toBe(true);
    const stolen = await list(url, 'other-token', { 'mcp-session-id': session });
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toEqual({
      type: 'mcp-session-not-found',
      title: 'MCP session not found; initialize a new one',
      status: 404,
    });
    // The session is still the owner's.
    expect((await list(url, 'token', { 'mcp-session-id': session })).status).toBe(200);
  });

  it('answers session, version, notification, GET and DELETE by the transport rules', async () => {
    const { app, url } = await start();
    const session = await initialize(url, 'token');
    const none = await list(url, 'token', {});
    expect(none.status).toBe(400);
    expect(((await none.json()) as { detail: string }).detail).toContain('mcp-session-id');
    const unknown = await list(url, 'token', { 'mcp-session-id': 'not-a-session' });
    expect(unknown.status).toBe(404);
    const version = await list(url, 'token', {
      'mcp-session-id': session,
      'mcp-protocol-version': '1999-01-01',
    });
    expect(version.status).toBe(400);
    const notified = await fetch(url, {
      method: 'POST',
      headers: { ...json, authorization: 'Bearer token', 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(notified.status).toBe(202);
    expect(await notified.text()).toBe('');
    const unknownMethod = await fetch(url, {
      method: 'POST',
      headers: { ...json, authorization: 'Bearer token', 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'resources/list' }),
    });
    expect(await unknownMethod.json()).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32601, message: 'Method not found: "resources/list"' },
    });
    const notJsonRpc = await fetch(url, {
      method: 'POST',
      headers: { ...json, authorization: 'Bearer token', 'mcp-session-id': session },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(notJsonRpc.status).toBe(422);
    const get = await fetch(url, { headers: { authorization: 'Bearer token', accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(app.endpoint!.openSessions).toBe(1);
    const ended = await fetch(url, {
      method: 'DELETE',
      headers: { authorization: 'Bearer token', 'mcp-session-id': session },
    });
    expect(ended.status).toBe(204);
    expect(app.endpoint!.openSessions).toBe(0);
    expect((await list(url, 'token', { 'mcp-session-id': session })).status).toBe(404);
  });

  it('caps open sessions (503 beyond maxSessions)', async () => {
    const { url } = await start({ auth: tokenAuth, maxSessions: 2 });
    await initialize(url, 'token');
    await initialize(url, 'token');
    const third = await fetch(url, {
      method: 'POST',
      headers: { ...json, authorization: 'Bearer token' },
      body: JSON.stringify(init),
    });
    expect(third.status).toBe(503);
    expect(((await third.json()) as { type: string }).type).toBe('mcp-too-many-sessions');
  });
});
